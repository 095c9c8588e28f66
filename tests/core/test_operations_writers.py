"""The writers front ends reach beyond the node edits — recorded maintenance, ST-BME's chat
operations, backup imports and restores, purging, the demo story, a trait restored — are
operations too: each returns its value with the change records of its writes, its initiator
and origin, and the GraphChanged events of its writes carry the same."""

from __future__ import annotations

import pytest

from bme_desktop.core.backup.export import dumps
from bme_desktop.core.backup.validate import ChatDoc, load_document
from bme_desktop.core.chat_ops import OperationResult
from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.events import ChangeRecord, GraphChanged, Initiator
from bme_desktop.core.model import MessageIn, Node
from bme_desktop.core.operations import OpResult
from bme_desktop.core.service import MemoryService


@pytest.fixture
def chat(service: MemoryService) -> str:
    service.sync(
        "chat-1", [MessageIn(0, "user", "Hello"), MessageIn(1, "assistant", "Hi there")], complete=True
    )
    return "chat-1"


@pytest.fixture
def node(service: MemoryService, chat: str) -> Node:
    return service.create_node(chat, NodeDraft("fact", {"statement": "Lyra hates rain"})).value


@pytest.fixture
def seen(service: MemoryService) -> list[GraphChanged]:
    events: list[GraphChanged] = []
    service.events.on(GraphChanged, events.append)
    return events


def exported(service: MemoryService, chat: str) -> list[ChatDoc]:
    return load_document(dumps(service.export_document([chat])).encode("utf-8"))


def edits(service: MemoryService, node: Node, task: str) -> None:
    """Register ``task`` as a maintenance task that edits ``node``."""

    def run(chat_id: str) -> ChangeRecord:
        service.update_node(chat_id, node.id, {"importance": 2.0})
        return ChangeRecord(chat_id, nodes_changed={node.id})

    service.add_maintenance_task(task, run)


def test_a_recorded_maintenance_task_is_upkeep_and_one_undo_step(
    service: MemoryService, chat: str, node: Node, seen: list[GraphChanged]
) -> None:
    edits(service, node, "upkeep")
    ran = service.run_recorded(chat, "upkeep", origin="actions")
    assert isinstance(ran, OpResult) and ran.value.nodes_changed == {node.id}
    assert ran.initiator is Initiator.UPKEEP and ran.origin == "actions"
    assert ran.change(chat).nodes_changed == {node.id} and ran.value.batch_id is not None
    assert service.history_steps(chat).undo == "upkeep"
    assert seen and {(e.initiator, e.origin) for e in seen} == {(Initiator.UPKEEP, "actions")}


def test_a_chat_operation_is_upkeep_and_one_undo_step(
    service: MemoryService, chat: str, node: Node, seen: list[GraphChanged]
) -> None:
    def extracted(uow: object) -> None:  # an extraction batch for the summaries to be built from
        uow.begin_batch(chat, "extract", actor="test", read_from=0, read_to=1)  # type: ignore[attr-defined]
        uow.end_batch()  # type: ignore[attr-defined]

    service.write(extracted)
    edits(service, node, "summarize")
    ran = service.run_chat_operation(chat, "rebuild_summaries", origin="actions")
    assert isinstance(ran.value, OperationResult) and ran.value.task == "rebuild_summaries"
    assert ran.initiator is Initiator.UPKEEP and ran.origin == "actions"
    assert ran.change(chat).nodes_changed == {node.id} and ran.value.change.batch_id is not None
    assert service.history_steps(chat).undo == "rebuild_summaries"
    assert seen and {(e.initiator, e.origin) for e in seen} == {(Initiator.UPKEEP, "actions")}


def test_a_backup_import_and_restore_are_imports(
    service: MemoryService, chat: str, node: Node, seen: list[GraphChanged]
) -> None:
    doc = exported(service, chat)
    copied = service.import_chats(doc, as_chat="copy", origin="actions")
    assert copied.value.imported == ["copy"] and copied.value.nodes == 1
    assert copied.initiator is Initiator.IMPORT and copied.origin == "actions"
    assert copied.chat_ids == ["copy"] and len(copied.change("copy").nodes_added) == 1
    assert [(e.chat_id, e.initiator, e.origin) for e in seen] == [("copy", Initiator.IMPORT, "actions")]
    service.delete_chat(chat)
    restored = service.import_chats(doc, mode="merge")
    assert restored.value.imported == [chat] and restored.value.skipped == []
    assert restored.initiator is Initiator.IMPORT and restored.change(chat).nodes_added == {node.id}


def test_a_memory_import_is_an_import(service: MemoryService, chat: str, node: Node) -> None:
    doc = exported(service, chat)
    service.delete_chat(chat)
    imported = service.import_memories(doc, "skip", origin="import dialog")
    assert imported.value.changes and imported.value.written
    assert imported.initiator is Initiator.IMPORT and imported.origin == "import dialog"
    assert imported.change(chat).nodes_added == {node.id}


def test_purging_everything_is_the_users(service: MemoryService, chat: str, node: Node) -> None:
    purged = service.purge_all(origin="actions")
    assert purged.value.chats == [chat] and purged.value.rows > 0
    assert purged.initiator is Initiator.USER and purged.origin == "actions"
    assert not service.has_chat(chat)


def test_the_demo_story_is_an_import(service: MemoryService, seen: list[GraphChanged]) -> None:
    built = service.build_demo(scale=1, origin="welcome")
    assert built.value.chats == 2 and built.value.nodes > 0
    assert built.initiator is Initiator.IMPORT and built.origin == "welcome"
    assert set(built.chat_ids) == {"demo-ember-road", "demo-saltglass"}
    assert sum(len(built.change(c).nodes_added) for c in built.chat_ids) >= built.value.nodes
    assert seen and {(e.initiator, e.origin) for e in seen} == {(Initiator.IMPORT, "welcome")}
    again = service.build_demo()
    assert again.value.chats == 0 and again.changes == ()


def test_restoring_a_rejected_trait_is_a_users_edit(service: MemoryService, chat: str) -> None:
    service.reject_trait(chat, "Wants to move to Paris")
    restored = service.unreject_trait(chat, "wants to move to paris", origin="persona panel")
    assert restored.value is None and restored.initiator is Initiator.USER
    assert restored.origin == "persona panel"
    assert service.history_steps(chat).undo == "persona.unreject_trait"
