"""A group chat's members as the frontend reports them (issue 18.4): who was a member when."""

from __future__ import annotations

from bme_desktop.core.model import Message
from bme_desktop.core.recall.scopes import Members, witnesses
from bme_desktop.core.scopes import record_members


def test_a_member_who_left_stays_a_witness_of_what_happened_while_it_was_there() -> None:
    first = record_members(None, ("Mira", "Wren"), 4)
    later = record_members(first, ("Mira", "Tomas"), 9)
    members = Members.of({"members": later})
    assert members.at(0) == {"mira", "wren"}  # the first report: members from the start
    assert members.at(9) == {"mira", "wren", "tomas"}  # Wren left at message 9, Tomas joined there
    assert members.at(10) == {"mira", "tomas"}


def test_a_scene_s_witnesses_are_its_speakers_and_the_members_at_its_messages() -> None:
    chat = [
        Message("g", 0, "assistant", "Mira", "I hid the map.", None, None, ""),
        Message("g", 1, "system", None, "Scene: the docks.", None, None, ""),
        Message("g", 2, "assistant", "Tomas", "They come at the new moon.", None, None, ""),
    ]
    members = Members.of({"members": [{"name": "Wren", "since": 2, "until": None}]})
    seen = witnesses(chat, members)
    assert seen.at([0]) == {"mira"} and seen.at([2]) == {"tomas", "wren"}
