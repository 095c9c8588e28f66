"""One character's memories across its chats (MemoryService.character_graph, issue 18.5), on
SQLite and PostgreSQL."""

from __future__ import annotations

from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.model import MessageIn, Scope
from bme_desktop.core.scopes import ChatIdentity
from bme_desktop.core.service import MemoryService


def chat(service: MemoryService, chat_id: str, character: str, *, isolated: bool = False) -> str:
    service.sync(
        chat_id,
        [MessageIn(0, "user", "Hello"), MessageIn(1, "assistant", "Hi")],
        complete=True,
        identity=ChatIdentity(character=character, user="Alex", isolated=isolated),
    )
    service.create_node(chat_id, NodeDraft("fact", {"statement": f"{chat_id} happened"}))
    return chat_id


def test_the_character_s_chats_and_what_they_draw_in_but_not_an_isolated_chat_or_another_character_s_story(
    service: MemoryService,
) -> None:
    for chat_id, character in (("a", "Mira"), ("b", "Mira"), ("c", "Garrick")):
        chat(service, chat_id, character)
    chat(service, "secret", "Mira", isolated=True)
    birthday = service.create_node(
        "c", NodeDraft("fact", {"statement": "Alex's birthday is in March"}, scope=Scope(kind="persona"))
    ).value
    found = service.character_graph("b")
    assert found.chat_ids == ["b", "a"]
    assert sorted((n.chat_id, n.title) for n in found.nodes) == [
        ("a", "a happened"),
        ("b", "b happened"),
        ("c", birthday.title),
    ]
