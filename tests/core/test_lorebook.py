"""SillyTavern lorebooks as memories (issue 18.3): entries SillyTavern resolves for a chat are
world-scope memories that follow the entry and are read-only here; World Info files in and out."""

from __future__ import annotations

import json

import pytest

from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.errors import Conflict, ValidationError
from bme_desktop.core.lorebook import is_read_only, lore_of
from bme_desktop.core.model import Node, Scope
from bme_desktop.core.recall.api import RecallRequest
from bme_desktop.core.scopes import ChatIdentity
from bme_desktop.core.service import MemoryService
from bme_desktop.core.worldinfo import ST_ENTRY_TEMPLATE, LoreEntry, read_worldinfo, write_worldinfo

TOWER = LoreEntry(
    book="Eldoria",
    uid="3",
    keys=("Glass Tower", "tower"),
    content="The Glass Tower stands on the northern cliffs; its keepers trade in storm-glass.",
    comment="Glass Tower",
    order=100,
)
RIVER = LoreEntry(
    book="Eldoria", uid="4", keys=("/riv(er|ers)/i",), content="The river Sel floods every spring."
)


def lore_nodes(service: MemoryService, chat: str) -> list[Node]:
    return [n for n in service.all_nodes(chat) if lore_of(n) is not None]


def chat(service: MemoryService, name: str = "a", **identity: str) -> str:
    service.sync(name, [], identity=ChatIdentity(character="Mira", user="Alex", **identity))
    return name


def test_entries_become_world_memories_marked_as_lore(service: MemoryService) -> None:
    report = service.sync_lorebook(chat(service), [TOWER, RIVER]).value
    assert report.to_json() == {"added": 2, "updated": 0, "removed": 0, "unchanged": 0, "skipped": 0}
    tower = next(n for n in lore_nodes(service, "a") if n.title == "Glass Tower")
    assert (tower.type, tower.scope.kind, tower.fields["category"], tower.source_indices) == (
        "fact",
        "world",
        "lore",
        [],
    )
    assert tower.fields["statement"].startswith("The Glass Tower stands")
    assert is_read_only(tower)


def test_a_regex_key_names_nothing_the_memory_is_titled_by(service: MemoryService) -> None:
    service.sync_lorebook(chat(service), [RIVER])
    (river,) = lore_nodes(service, "a")
    assert river.title == "The river Sel floods every spring."  # no comment, no plain key
    assert lore_of(river)["key"] == ["/riv(er|ers)/i"]  # kept verbatim for the way back


def test_sending_the_same_entries_again_changes_nothing(service: MemoryService) -> None:
    service.sync_lorebook(chat(service), [TOWER, RIVER])
    before = {n.id: n.updated_at for n in lore_nodes(service, "a")}
    report = service.sync_lorebook("a", [TOWER, RIVER]).value
    assert (report.to_json()["unchanged"], {n.id: n.updated_at for n in lore_nodes(service, "a")}) == (
        2,
        before,
    )


def test_an_edited_entry_updates_its_memory_and_a_gone_one_is_binned(service: MemoryService) -> None:
    service.sync_lorebook(chat(service), [TOWER, RIVER])
    tower_id = next(n.id for n in lore_nodes(service, "a") if n.title == "Glass Tower")
    edited = LoreEntry(
        book="Eldoria",
        uid="3",
        keys=TOWER.keys,
        comment="Glass Tower",
        content="The Glass Tower fell in the war of ash.",
    )
    report = service.sync_lorebook("a", [edited]).value
    assert (len(report.updated), len(report.removed)) == (1, 1)
    (tower,) = lore_nodes(service, "a")
    assert (tower.id, tower.fields["statement"]) == (tower_id, "The Glass Tower fell in the war of ash.")


def test_lore_memories_are_read_only_in_the_app(service: MemoryService) -> None:
    service.sync_lorebook(chat(service), [TOWER])
    (tower,) = lore_nodes(service, "a")
    other = service.create_node(
        "a", NodeDraft(type="fact", fields={"statement": "A tower of glass", "subject": "x"})
    ).value
    for attempt in (
        lambda: service.update_node("a", tower.id, {"importance": 9}).value,
        lambda: service.delete_node("a", tower.id).value,
        lambda: service.move_scope("a", tower.id, "chat").value,
        lambda: service.merge_nodes("a", other.id, tower.id).value,
    ):
        with pytest.raises(Conflict, match="SillyTavern lorebook 'Eldoria'"):
            attempt()
    assert lore_nodes(service, "a") == [tower]


def test_a_chat_does_not_draw_another_chats_lore(service: MemoryService, hashed_recaller: object) -> None:
    for name in ("a", "b"):
        chat(service, name, world="Eldoria")
    service.sync_lorebook("a", [TOWER])
    found = service.recall(RecallRequest("b", "What is the Glass Tower?")).nodes
    assert [r.node.title for r in found] == []
    assert [r.node.title for r in service.recall(RecallRequest("a", "What is the Glass Tower?")).nodes] == [
        "Glass Tower"
    ]


def test_an_unknown_chat_is_refused(service: MemoryService) -> None:
    from bme_desktop.core.errors import NotFound

    with pytest.raises(NotFound):
        service.sync_lorebook("nowhere", [TOWER])


def test_the_same_entry_twice_in_one_send_is_refused_whole(service: MemoryService) -> None:
    with pytest.raises(ValidationError, match="appears twice"):
        service.sync_lorebook(chat(service), [TOWER, TOWER])
    assert lore_nodes(service, "a") == []


# files --------------------------------------------------------------------------------------


def test_a_written_file_has_sillytavern_s_whole_entry_template() -> None:
    doc = json.loads(json.dumps(write_worldinfo([TOWER, RIVER])))
    assert list(doc) == ["entries"] and list(doc["entries"]) == ["0", "1"]
    first = doc["entries"]["0"]
    assert set(first) == {"uid", "displayIndex", *ST_ENTRY_TEMPLATE}
    assert (
        first["uid"],
        first["key"],
        first["content"],
        first["comment"],
        first["constant"],
        first["order"],
        first["position"],
        first["disable"],
    ) == (0, ["Glass Tower", "tower"], TOWER.content, "Glass Tower", False, 100, 0, False)


def test_a_file_reads_back_as_it_was_written() -> None:
    back = read_worldinfo(write_worldinfo([TOWER, RIVER]), "Eldoria").entries
    assert [(e.keys, e.content, e.comment) for e in back] == [
        (e.keys, e.content, e.comment) for e in (TOWER, RIVER)
    ]


def test_a_character_cards_book_is_read() -> None:
    card = {
        "spec": "chara_card_v2",
        "data": {
            "name": "Mira",
            "character_book": {
                "entries": [
                    {
                        "keys": ["sea"],
                        "secondary_keys": [],
                        "content": "Mira fears the sea.",
                        "enabled": True,
                        "insertion_order": 5,
                        "position": "before_char",
                        "id": 7,
                    },
                    {"keys": ["off"], "content": "switched off", "enabled": False, "insertion_order": 1},
                ]
            },
        },
    }
    book = read_worldinfo(card, "Mira")
    assert [(e.uid, e.keys, e.order, e.position) for e in book.entries] == [("7", ("sea",), 5, 0)]
    assert book.disabled == 1


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ([], "JSON object with 'entries'"),
        ({"name": "no entries"}, "entries: missing"),
        ({"entries": "x"}, "must be an object of entries"),
        ({"entries": {"0": {"key": ["a"], "content": "x" * 100_000}}}, "100,000 characters long"),
        ({"entries": {"0": {"key": "a", "content": "ok", "position": 9}}}, "position"),
        ({"entries": {"0": {"key": [1], "content": "ok"}}}, r"key\[0\]: must be text"),
    ],
)
def test_a_malformed_file_is_refused_naming_what(doc: object, message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        read_worldinfo(doc, "book")


def test_importing_a_file_makes_editable_memories_in_the_scope_asked(service: MemoryService) -> None:
    chat(service, world="Eldoria")
    entries = read_worldinfo(write_worldinfo([TOWER]), "Eldoria").entries
    report = service.import_worldinfo("a", entries, "world").value
    (tower,) = lore_nodes(service, "a")
    assert (report.to_json()["added"], tower.scope.kind, is_read_only(tower)) == (1, "world", False)
    assert (
        service.import_worldinfo("a", entries, "world").value.to_json()["skipped"] == 1
    )  # twice adds nothing
    service.undo("a")
    assert lore_nodes(service, "a") == []


def test_importing_into_a_scope_the_chat_lacks_writes_nothing(service: MemoryService) -> None:
    chat(service)  # no world named
    with pytest.raises(ValidationError, match="no world"):
        service.import_worldinfo("a", [TOWER], "world")
    assert lore_nodes(service, "a") == []


def test_chosen_memories_export_as_entries(service: MemoryService) -> None:
    chat(service)
    service.sync_lorebook("a", [TOWER])
    (tower,) = lore_nodes(service, "a")
    mira = service.create_node(
        "a",
        NodeDraft(
            type="character",
            fields={"name": "Mira", "aliases": "the diver", "state": "afraid of the sea"},
            pinned=True,
            scope=Scope(kind="character"),
        ),
    ).value
    entries = service.worldinfo_entries("a", [mira.id, tower.id])
    assert [(e.keys, e.content, e.comment, e.constant) for e in entries] == [
        (("Mira", "the diver"), "afraid of the sea", "Mira", True),
        (TOWER.keys, TOWER.content, "Glass Tower", False),
    ]


def test_extraction_joins_what_the_lorebook_says_instead_of_writing_it_again(service: MemoryService) -> None:
    from bme_desktop.core.extract.apply import apply_plan
    from bme_desktop.core.extract.operations import NodeOp, Plan

    service.sync_lorebook(chat(service), [TOWER])
    (tower,) = lore_nodes(service, "a")
    plan = Plan(
        extractor="heuristic",
        ops=[
            NodeOp(
                "create",
                "location",
                {"name": "Glass Tower", "state": "on the northern cliffs"},
                source_indices=[3],
            ),
            NodeOp(
                "create",
                "fact",
                {
                    "statement": "The Glass Tower stands on the northern cliffs; its keepers trade in "
                    "storm-glass.",
                    "subject": "the tower",
                },
                source_indices=[4],
            ),
            NodeOp(
                "create",
                "fact",
                {"statement": "Alex lost a silver key", "subject": "Alex"},
                source_indices=[5],
            ),
        ],
    )
    service.write(lambda uow: apply_plan(uow, "a", plan, state={}))
    assert sorted(n.title for n in service.all_nodes("a")) == ["Alex", "Glass Tower"]
    assert service.get_node("a", tower.id) == tower  # joined, never rewritten
