"""Operations: a mutating call's value with the change records of its writes and who started
it; the GraphChanged events of the operation carry the same initiator and origin."""

from __future__ import annotations

import pytest

from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.events import ChangeRecord, GraphChanged, Initiator
from bme_desktop.core.model import MessageIn
from bme_desktop.core.operations import OpResult
from bme_desktop.core.service import MemoryService


@pytest.fixture
def chat(service: MemoryService) -> str:
    service.sync(
        "chat-1", [MessageIn(0, "user", "Hello"), MessageIn(1, "assistant", "Hi there")], complete=True
    )
    return "chat-1"


def test_an_edit_names_what_changed_and_that_a_user_made_it(service: MemoryService, chat: str) -> None:
    seen: list[GraphChanged] = []
    service.events.on(GraphChanged, seen.append)
    panel = object()
    created = service.operate(
        lambda: service.create_node(chat, NodeDraft("fact", {"statement": "x"})).value, origin=panel
    )
    node = created.value
    assert created.initiator is Initiator.USER and created.origin is panel
    assert created.change(chat).nodes_added == {node.id} and created.chat_ids == [chat]
    updated = service.operate(
        lambda: service.update_node(chat, node.id, {"fields": {"statement": "y"}}).value
    )
    assert updated.change(chat).nodes_changed == {node.id} and updated.value.fields["statement"] == "y"
    assert [(e.initiator, e.origin, e.change.nodes_added) for e in seen] == [
        (Initiator.USER, panel, {node.id}),
        (Initiator.USER, None, set()),
    ]


def test_undo_and_redo_are_their_own_initiators(service: MemoryService, chat: str) -> None:
    node = service.create_node(chat, NodeDraft("fact", {"statement": "x"})).value
    undone = service.operate(lambda: service.undo(chat).value)
    assert (
        undone.value and undone.initiator is Initiator.UNDO and undone.change(chat).nodes_removed == {node.id}
    )
    redone = service.operate(lambda: service.redo(chat).value)
    assert redone.initiator is Initiator.REDO and node.id in redone.change(chat).nodes_added


def test_a_review_decision_is_a_review_though_it_writes_as_an_edit(service: MemoryService, chat: str) -> None:
    node = service.create_node(chat, NodeDraft("fact", {"statement": "x"})).value
    decided = service.operate(lambda: service.decide_review(chat, [node.id], "approved").value)
    assert decided.initiator is Initiator.REVIEW


def test_a_write_outside_any_operation_is_other_and_collected_nowhere(
    service: MemoryService, chat: str
) -> None:
    seen: list[GraphChanged] = []
    service.events.on(GraphChanged, seen.append)
    nothing = service.operate(lambda: service.chat_stats(chat))
    assert nothing.empty and nothing.changes == () and nothing.initiator is Initiator.OTHER
    service.write(lambda uow: None)  # a write that changes nothing publishes nothing
    assert seen == []


def test_a_subscribers_own_writes_are_no_part_of_the_operation(service: MemoryService, chat: str) -> None:
    """Work a subscriber does on the publishing thread is neither tagged nor collected."""
    echoed: list[GraphChanged] = []

    def echo(event: GraphChanged) -> None:
        echoed.append(event)
        if len(echoed) == 1:
            service.create_node(chat, NodeDraft("fact", {"statement": "echo"}), actor="subscriber")

    service.events.on(GraphChanged, echo)
    result = service.operate(
        lambda: service.create_node(chat, NodeDraft("fact", {"statement": "x"})).value, origin="me"
    )
    assert len(result.changes) == 1 and result.change(chat).nodes_added == {result.value.id}
    assert [e.origin for e in echoed] == ["me", None]


def test_a_node_edit_returns_its_opresult(service: MemoryService, chat: str) -> None:
    """The mutating methods return their OpResult themselves: no ``operate`` around them."""
    seen: list[GraphChanged] = []
    service.events.on(GraphChanged, seen.append)
    node = service.create_node(chat, NodeDraft("fact", {"statement": "x"})).value
    panel = object()
    updated = service.update_node(chat, node.id, {"fields": {"statement": "y"}}, origin=panel)
    assert isinstance(updated, OpResult) and updated.value.fields["statement"] == "y"
    assert updated.initiator is Initiator.USER and updated.origin is panel
    assert updated.change(chat).nodes_changed == {node.id} and updated.chat_ids == [chat]
    assert (seen[-1].initiator, seen[-1].origin, seen[-1].change.nodes_changed) == (
        Initiator.USER,
        panel,
        {node.id},
    )
    other = service.create_node(chat, NodeDraft("fact", {"statement": "z"})).value
    linked = service.link(chat, node.id, other.id, "related")
    assert linked.change(chat).edges_added == {linked.value.id} and linked.origin is None
    deleted = service.delete_node(chat, other.id)
    assert deleted.change(chat).nodes_removed == {other.id}
    assert deleted.change(chat).edges_removed == {linked.value.id}
    undone = service.undo(chat, origin="menu")
    assert undone.value and undone.initiator is Initiator.UNDO and undone.origin == "menu"
    assert undone.change(chat).nodes_added == {other.id} and seen[-1].origin == "menu"


def test_calls_inside_an_operation_are_part_of_it(service: MemoryService, chat: str) -> None:
    """``service.operate`` around several mutating calls: one result with every change, the
    outer origin on every event, the first initiator named."""
    seen: list[GraphChanged] = []
    service.events.on(GraphChanged, seen.append)

    def both() -> str:
        first = service.create_node(chat, NodeDraft("fact", {"statement": "a"})).value
        second = service.create_node(chat, NodeDraft("fact", {"statement": "b"})).value
        return service.link(chat, first.id, second.id, "related").value.id

    result = service.operate(both, origin="panel")
    assert result.initiator is Initiator.USER and result.origin == "panel" and len(result.changes) == 3
    assert len(result.change(chat).nodes_added) == 2 and result.change(chat).edges_added == {result.value}
    assert [e.origin for e in seen] == ["panel"] * 3


def test_a_review_decision_returns_its_opresult_as_a_review(service: MemoryService, chat: str) -> None:
    node = service.create_node(chat, NodeDraft("fact", {"statement": "x"})).value
    decided = service.decide_review(chat, [node.id], "approved", origin="review centre")
    assert [n.id for n in decided.value] == [node.id] and decided.value[0].review_status == "approved"
    assert decided.initiator is Initiator.REVIEW and decided.origin == "review centre"
    assert decided.change(chat).nodes_changed == {node.id}


def test_a_sync_returns_its_opresult_as_a_sync(service: MemoryService, chat: str) -> None:
    synced = service.sync(chat, [MessageIn(1, "assistant", "Hi there, edited")], origin="extension")
    assert synced.value.changed_from == 1 and synced.value.stored == 1
    assert synced.initiator is Initiator.SYNC and synced.origin == "extension"
    assert synced.changes == ()  # messages only: no memory was derived from the edited one


def test_maintenance_and_chat_deletion_return_their_opresults(service: MemoryService, chat: str) -> None:
    node = service.create_node(chat, NodeDraft("fact", {"statement": "x"})).value

    def upkeep(chat_id: str) -> ChangeRecord:  # a task that edits: its writes are upkeep's
        service.update_node(chat_id, node.id, {"importance": 2.0})
        return ChangeRecord(chat_id, nodes_changed={node.id})

    service.add_maintenance_task("upkeep", upkeep)
    seen: list[GraphChanged] = []
    service.events.on(GraphChanged, seen.append)
    ran = service.run_maintenance(chat, "upkeep", origin="actions")
    assert ran.initiator is Initiator.UPKEEP and ran.value.nodes_changed == {node.id}
    assert ran.change(chat).nodes_changed == {node.id}
    assert [(e.initiator, e.origin) for e in seen] == [(Initiator.UPKEEP, "actions")]
    deleted = service.delete_chat(chat, origin="chats panel")
    assert deleted.value is None and deleted.initiator is Initiator.USER and deleted.origin == "chats panel"
    assert not service.has_chat(chat)
