"""Manual memory edits through MemoryService, on SQLite and PostgreSQL."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.errors import Conflict, NotFound, ValidationError
from bme_desktop.core.events import Event
from bme_desktop.core.model import MessageIn, NodeQuery, Scope
from bme_desktop.core.service import MemoryService


@pytest.fixture
def chat(service: MemoryService) -> str:
    service.sync(
        "chat-1", [MessageIn(0, "user", "Hello"), MessageIn(1, "assistant", "Hi there")], complete=True
    )
    return "chat-1"


def test_created_node_reads_back_with_its_fields(service: MemoryService, chat: str) -> None:
    node = service.create_node(
        chat,
        NodeDraft("character", {"name": "Seraphina", "traits": "kind"}, importance=7, source_indices=[1]),
    ).value
    again = service.get_node(chat, node.id)
    assert (again.title, again.fields, again.importance, again.source_indices) == (
        "Seraphina",
        {"name": "Seraphina", "traits": "kind"},
        7.0,
        [1],
    )
    assert again.manually_edited


def test_node_with_missing_required_field_is_refused_and_nothing_stored(
    service: MemoryService, chat: str
) -> None:
    with pytest.raises(ValidationError) as err:
        service.create_node(chat, NodeDraft("rule", {"title": "No magic"}))
    assert err.value.field == "fields.constraint"
    assert service.chat_stats(chat).node_count == 0


def test_unknown_chat_is_not_found(service: MemoryService) -> None:
    with pytest.raises(NotFound):
        service.create_node("nope", NodeDraft("fact", {"statement": "x"}))


def test_search_filters_by_type_and_words(service: MemoryService, chat: str) -> None:
    service.create_node(chat, NodeDraft("character", {"name": "Alex", "state": "tired"}))
    service.create_node(chat, NodeDraft("location", {"name": "Old Mill", "state": "burning"}))
    service.create_node(chat, NodeDraft("event", {"summary": "Alex reached the old mill"}))
    found, total = service.search_nodes(chat, NodeQuery(q="old mill"))
    assert total == 2 and {n.type for n in found} == {"location", "event"}
    found, total = service.search_nodes(chat, NodeQuery(type="character"))
    assert [n.title for n in found] == ["Alex"] and total == 1


def test_search_pages_through_results(service: MemoryService, chat: str) -> None:
    for i in range(7):
        service.create_node(chat, NodeDraft("fact", {"statement": f"fact number {i}"}))
    first, total = service.search_nodes(
        chat, NodeQuery(limit=3, offset=0, order_by="created_at", descending=False)
    )
    rest, _ = service.search_nodes(
        chat, NodeQuery(limit=10, offset=3, order_by="created_at", descending=False)
    )
    assert total == 7 and len(first) == 3 and len(rest) == 4
    assert not {n.id for n in first} & {n.id for n in rest}


def test_patch_updates_fields_and_title(service: MemoryService, chat: str) -> None:
    node = service.create_node(chat, NodeDraft("location", {"name": "Mill"})).value
    patched = service.update_node(
        chat,
        node.id,
        {"fields": {"name": "Old Mill", "danger": "fire"}, "pinned": True, "scope": {"region": "Valley"}},
    ).value
    assert (
        patched.title == "Old Mill" and patched.pinned and patched.scope == Scope("objective", None, "Valley")
    )
    assert service.get_node(chat, node.id).fields == {"name": "Old Mill", "danger": "fire"}


def test_patch_with_bad_value_changes_nothing(service: MemoryService, chat: str) -> None:
    node = service.create_node(chat, NodeDraft("fact", {"statement": "likes tea"}, importance=4)).value
    with pytest.raises(ValidationError) as err:
        service.update_node(chat, node.id, {"importance": 11, "fields": {"statement": "likes coffee"}})
    assert err.value.field == "importance"
    assert service.get_node(chat, node.id).fields["statement"] == "likes tea"


def test_pov_scope_requires_owner(service: MemoryService, chat: str) -> None:
    with pytest.raises(ValidationError):
        service.create_node(chat, NodeDraft("pov_memory", {"summary": "s"}, scope=Scope("pov", None)))


def test_delete_goes_to_recycle_bin_with_edges_and_restore_brings_both_back(
    service: MemoryService, chat: str
) -> None:
    a = service.create_node(chat, NodeDraft("character", {"name": "A"})).value
    b = service.create_node(chat, NodeDraft("location", {"name": "B"})).value
    edge = service.link(chat, a.id, b.id, "occurred_at").value
    service.delete_node(chat, a.id)
    assert service.chat_stats(chat).node_count == 1 and service.edges(chat) == []
    binned, _ = service.search_nodes(chat, NodeQuery(only_deleted=True))
    assert [n.id for n in binned] == [a.id]
    service.restore_node(chat, a.id)
    assert [e.id for e in service.edges(chat)] == [edge.id]


def test_link_merges_same_relation_keeping_the_stronger(service: MemoryService, chat: str) -> None:
    a = service.create_node(chat, NodeDraft("character", {"name": "A"})).value
    b = service.create_node(chat, NodeDraft("character", {"name": "B"})).value
    first = service.link(chat, a.id, b.id, "related", strength=0.3).value
    second = service.link(chat, a.id, b.id, "related", strength=0.9).value
    assert first.id == second.id and [e.strength for e in service.edges(chat)] == [0.9]


@pytest.mark.parametrize(
    ("relation", "strength", "field"), [("loves", 0.5, "relation"), ("related", 2.0, "strength")]
)
def test_bad_links_are_refused(
    service: MemoryService, chat: str, relation: str, strength: float, field: str
) -> None:
    a = service.create_node(chat, NodeDraft("character", {"name": "A"})).value
    b = service.create_node(chat, NodeDraft("character", {"name": "B"})).value
    with pytest.raises(ValidationError) as err:
        service.link(chat, a.id, b.id, relation, strength=strength)
    assert err.value.field == field


def test_self_loop_is_refused(service: MemoryService, chat: str) -> None:
    a = service.create_node(chat, NodeDraft("character", {"name": "A"})).value
    with pytest.raises(ValidationError):
        service.link(chat, a.id, a.id, "related")


def test_undo_and_redo_walk_the_manual_edits(service: MemoryService, chat: str) -> None:
    node = service.create_node(chat, NodeDraft("fact", {"statement": "likes tea"})).value
    service.update_node(chat, node.id, {"fields": {"statement": "likes coffee"}})
    assert service.undo(chat).value
    assert service.get_node(chat, node.id).fields["statement"] == "likes tea"
    assert service.undo(chat).value
    assert service.chat_stats(chat).node_count == 0
    assert not service.undo(chat).value
    assert service.redo(chat).value and service.redo(chat).value
    assert service.get_node(chat, node.id).fields["statement"] == "likes coffee"
    assert not service.redo(chat).value


def test_a_new_edit_clears_the_redo_stack(service: MemoryService, chat: str) -> None:
    node = service.create_node(chat, NodeDraft("fact", {"statement": "one"})).value
    service.update_node(chat, node.id, {"fields": {"statement": "two"}})
    service.undo(chat)
    service.update_node(chat, node.id, {"fields": {"statement": "three"}})
    assert not service.redo(chat).value
    assert service.get_node(chat, node.id).fields["statement"] == "three"


def test_undo_refuses_when_the_same_field_changed_since(service: MemoryService, chat: str) -> None:
    node = service.create_node(chat, NodeDraft("fact", {"statement": "one"})).value
    service.update_node(chat, node.id, {"fields": {"statement": "two"}})
    # an automatic change (not a manual batch) to the same column after the edit
    service.write(
        lambda uow: uow.put_node(replace(service.get_node(chat, node.id), fields={"statement": "three"}))
    )
    with pytest.raises(Conflict):
        service.undo(chat)
    assert service.get_node(chat, node.id).fields["statement"] == "three"


def test_undo_keeps_later_changes_to_other_fields(service: MemoryService, chat: str) -> None:
    node = service.create_node(chat, NodeDraft("fact", {"statement": "one"})).value
    service.update_node(chat, node.id, {"fields": {"statement": "two"}})
    service.write(lambda uow: uow.put_node(replace(service.get_node(chat, node.id), importance=9.0)))
    assert service.undo(chat).value
    after = service.get_node(chat, node.id)
    assert (after.fields["statement"], after.importance) == ("one", 9.0)


def test_each_edit_publishes_one_graph_changed_event(service: MemoryService, chat: str) -> None:
    seen: list[Event] = []
    service.events.subscribe(seen.append)
    node = service.create_node(chat, NodeDraft("fact", {"statement": "x"})).value
    service.delete_node(chat, node.id)
    changes = [e.change for e in seen if e.type == "graph.changed"]
    assert len(changes) == 2
    assert changes[0] is not None and changes[0].nodes_added == {node.id}
    assert changes[1] is not None and changes[1].nodes_removed == {node.id}


def test_edits_are_audited(service: MemoryService, chat: str) -> None:
    node = service.create_node(chat, NodeDraft("fact", {"statement": "x"}), actor="bridge").value
    log = service.read(lambda r: r.audit(chat))
    assert [(e["actor"], e["action"], e["target"]) for e in log] == [("bridge", "create_node", node.id)]


def test_delete_chat_removes_everything(service: MemoryService, chat: str) -> None:
    service.create_node(chat, NodeDraft("fact", {"statement": "x"}))
    service.delete_chat(chat)
    assert not service.has_chat(chat) and service.list_chats() == []


def test_concurrent_writers_are_serialised(service: MemoryService, chat: str) -> None:
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(8) as pool:
        list(
            pool.map(
                lambda i: service.create_node(chat, NodeDraft("fact", {"statement": f"f{i}"})).value,
                range(40),
            )
        )
    assert service.chat_stats(chat).node_count == 40
