"""Sync: fingerprints, changed_from, and rollback of memories derived from changed messages."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bme_desktop.core import editing
from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.errors import ValidationError
from bme_desktop.core.model import MessageIn
from bme_desktop.core.recall.api import RecallRequest
from bme_desktop.core.service import MemoryService
from bme_desktop.core.store.unit_of_work import UnitOfWork

CHAT = "story"


def msgs(*texts: str) -> list[MessageIn]:
    return [MessageIn(i, "user" if i % 2 == 0 else "assistant", t) for i, t in enumerate(texts)]


def fake_extraction(service: MemoryService, read_from: int, read_to: int, summary: str) -> str:
    """What an extractor does: one journaled batch that reads a message range."""

    def op(uow: UnitOfWork) -> str:
        uow.begin_batch(CHAT, "extract", actor="test", read_from=read_from, read_to=read_to)
        node = editing.create_node(
            uow,
            CHAT,
            NodeDraft("event", {"summary": summary}, source_indices=list(range(read_from, read_to + 1))),
            manual=False,
        )
        pk = uow.read.require_chat_pk(CHAT)
        uow.set_chat_state(pk, {"extracted_to": read_to})
        uow.end_batch()
        return node.id

    return service.write(op)


def test_first_sync_stores_every_message(service: MemoryService) -> None:
    result = service.sync(CHAT, msgs("a", "b", "c"), complete=True, character="Sera", user="Alex").value
    assert (result.stored, result.changed_from, result.revision) == (3, None, 1)
    assert [m.text for m in service.messages(CHAT)] == ["a", "b", "c"]
    stats = service.chat_stats(CHAT)
    assert (stats.character, stats.user, stats.message_count) == ("Sera", "Alex", 3)


def test_resync_of_the_same_history_stores_nothing(service: MemoryService) -> None:
    service.sync(CHAT, msgs("a", "b"), complete=True)
    again = service.sync(CHAT, msgs("a", "b"), complete=True).value
    assert (again.stored, again.changed_from, again.revision) == (0, None, 1)


def test_edit_reports_the_earliest_changed_index(service: MemoryService) -> None:
    service.sync(CHAT, msgs("a", "b", "c", "d"), complete=True)
    result = service.sync(CHAT, msgs("a", "B!", "c", "D!"), complete=True).value
    assert result.changed_from == 1 and result.stored == 2


def test_swipe_counts_as_a_change(service: MemoryService) -> None:
    service.sync(CHAT, msgs("a", "b"), complete=True)
    swiped = [MessageIn(0, "user", "a"), MessageIn(1, "assistant", "b", swipe_id=1)]
    assert service.sync(CHAT, swiped).value.changed_from == 1


def test_complete_sync_deletes_missing_tail(service: MemoryService) -> None:
    service.sync(CHAT, msgs("a", "b", "c", "d"), complete=True)
    result = service.sync(CHAT, msgs("a", "b"), complete=True).value
    assert result.changed_from == 2
    assert [m.index for m in service.messages(CHAT)] == [0, 1]


def test_partial_sync_appends_without_deleting(service: MemoryService) -> None:
    service.sync(CHAT, msgs("a", "b"), complete=True)
    result = service.sync(CHAT, [MessageIn(2, "user", "c")]).value
    assert result.changed_from is None and [m.index for m in service.messages(CHAT)] == [0, 1, 2]


def test_partial_sync_editing_a_message_keeps_the_messages_it_did_not_mention(service: MemoryService) -> None:
    service.sync(CHAT, msgs("a", "b", "c", "d"), complete=True)
    early = fake_extraction(service, 0, 0, "early")
    late = fake_extraction(service, 1, 3, "late")
    result = service.sync(CHAT, [MessageIn(1, "assistant", "b edited")]).value
    assert (result.changed_from, result.stored, result.rolled_back_batches) == (1, 1, 1)
    assert [m.text for m in service.messages(CHAT)] == ["a", "b edited", "c", "d"]
    assert service.chat_stats(CHAT).message_count == 4
    ids = {n.id for n in service.all_nodes(CHAT)}
    assert early in ids and late not in ids  # rolled back from the edited message on
    pk_state = service.read(lambda r: r.chat_row(CHAT))
    assert pk_state is not None and pk_state["state"] == {"extracted_to": 0}  # extracted again from 1
    # the next message lands after the kept ones, no gap
    service.sync(CHAT, [MessageIn(4, "user", "e")])
    assert [m.index for m in service.messages(CHAT)] == [0, 1, 2, 3, 4]


def test_partial_sync_of_some_later_messages_keeps_the_ones_between(service: MemoryService) -> None:
    service.sync(CHAT, msgs("a", "b", "c", "d", "e"), complete=True)
    result = service.sync(CHAT, [MessageIn(1, "assistant", "B!"), MessageIn(3, "assistant", "D!")]).value
    assert result.changed_from == 1
    assert [m.text for m in service.messages(CHAT)] == ["a", "B!", "c", "D!", "e"]


def test_edit_rolls_back_batches_that_read_the_changed_message(service: MemoryService) -> None:
    service.sync(CHAT, msgs("a", "b", "c", "d"), complete=True)
    early = fake_extraction(service, 0, 1, "early")
    late = fake_extraction(service, 2, 3, "late")
    result = service.sync(CHAT, msgs("a", "b", "c", "D!"), complete=True).value
    assert (result.rolled_back_batches, result.rolled_back_nodes) == (1, 1)
    ids = {n.id for n in service.all_nodes(CHAT)}
    assert early in ids and late not in ids
    pk_state = service.read(lambda r: r.chat_row(CHAT))
    assert pk_state is not None and pk_state["state"] == {"extracted_to": 1}


def test_rollback_goes_newest_first_and_restores_updates(service: MemoryService) -> None:
    service.sync(CHAT, msgs("a", "b", "c", "d"), complete=True)
    node_id = fake_extraction(service, 0, 1, "v1")

    def update(uow: UnitOfWork) -> None:
        uow.begin_batch(CHAT, "extract", actor="test", read_from=2, read_to=3)
        editing.patch_node(uow, CHAT, node_id, {"fields": {"summary": "v2"}}, manual=False)
        uow.end_batch()

    service.write(update)
    service.sync(CHAT, msgs("a", "b", "C!", "d"), complete=True)
    assert service.get_node(CHAT, node_id).fields["summary"] == "v1"


def test_hand_edited_memory_survives_rollback_flagged_for_review(service: MemoryService) -> None:
    service.sync(CHAT, msgs("a", "b"), complete=True)
    node_id = fake_extraction(service, 0, 1, "auto")
    service.update_node(CHAT, node_id, {"fields": {"summary": "fixed by hand"}})
    service.sync(CHAT, msgs("A!", "b"), complete=True)
    node = service.get_node(CHAT, node_id)
    assert node.fields["summary"] == "fixed by hand"
    assert node.review_status == "pending" and "kept_after_rollback" in node.flags


def test_manual_batches_are_never_rolled_back_by_history(service: MemoryService) -> None:
    service.sync(CHAT, msgs("a", "b"), complete=True)
    manual = service.create_node(CHAT, NodeDraft("fact", {"statement": "by hand"}, source_indices=[1])).value
    service.sync(CHAT, msgs("a", "B!"), complete=True)
    assert service.get_node(CHAT, manual.id).fields["statement"] == "by hand"


def test_recall_records_at_or_after_the_change_are_dropped(service: MemoryService) -> None:
    service.sync(CHAT, msgs("a", "b", "c", "d"), complete=True)
    service.recall(RecallRequest(CHAT, "a", index=0))
    service.recall(RecallRequest(CHAT, "c", index=2))
    service.sync(CHAT, msgs("a", "b", "C!", "d"), complete=True)
    assert [r.index for r in service.recall_records(CHAT)] == [0]


@pytest.mark.parametrize(
    ("messages", "complete", "field"),
    [
        ([MessageIn(-1, "user", "x")], False, "messages[0].index"),
        ([MessageIn(0, "user", "x"), MessageIn(0, "user", "y")], False, "messages[1].index"),
        ([MessageIn(0, "robot", "x")], False, "messages[0].role"),
        ([MessageIn(0, "user", "x"), MessageIn(2, "user", "y")], True, "messages"),
        ([MessageIn(0, "user", "a\x00b")], False, "messages[0].text"),
    ],
)
def test_bad_messages_are_refused_and_nothing_is_stored(
    service: MemoryService, messages: list[MessageIn], complete: bool, field: str
) -> None:
    with pytest.raises(ValidationError) as err:
        service.sync(CHAT, messages, complete=complete)
    assert err.value.field == field
    assert not service.has_chat(CHAT)


@pytest.mark.parametrize("chat_id", ["", "x" * 257])
def test_bad_chat_ids_are_refused(service: MemoryService, chat_id: str) -> None:
    with pytest.raises(ValidationError):
        service.sync(chat_id, msgs("a"))


def test_unicode_chat_ids_work(service: MemoryService) -> None:
    chat_id = "角色/对话 #1 🐉"
    service.sync(chat_id, msgs("你好"), complete=True)
    assert [c.chat_id for c in service.list_chats()] == [chat_id]


def test_a_failed_write_leaves_nothing_half_applied(service: MemoryService) -> None:
    service.sync(CHAT, msgs("a"), complete=True)

    def half(uow: UnitOfWork) -> None:
        editing.create_node(uow, CHAT, NodeDraft("fact", {"statement": "x"}))
        raise RuntimeError("crash in the middle")

    with pytest.raises(RuntimeError):
        service.write(half)
    assert service.chat_stats(CHAT).node_count == 0


def test_replayed_changes_are_idempotent(service: MemoryService) -> None:
    service.sync(CHAT, msgs("a", "b"), complete=True)
    node_id = fake_extraction(service, 0, 1, "x")
    node = service.get_node(CHAT, node_id)
    service.write(lambda uow: uow.put_node(replace(node, importance=6.0)))
    service.write(lambda uow: uow.put_node(replace(node, importance=6.0)))
    assert service.get_node(CHAT, node_id).importance == 6.0


def side_batch(service: MemoryService, kind: str, read_to: int, key: str, value: object) -> int:
    """A batch that writes only its chat-state key, as the working-memory scan does."""

    def op(uow: UnitOfWork) -> int:
        batch_id = uow.begin_batch(CHAT, kind, actor="test", read_from=0, read_to=read_to)
        pk = uow.read.require_chat_pk(CHAT)
        uow.set_chat_state(pk, {**uow.chat_state(pk), key: value})
        uow.end_batch()
        return batch_id

    return service.write(op)


def test_a_scan_of_the_whole_history_does_not_drag_later_batches_into_a_rollback(
    service: MemoryService,
) -> None:
    """First connect: the working-memory scan reads all 30 messages before extraction has
    got far. Swiping the last reply then re-extracts only what read it, not the whole chat."""
    service.sync(CHAT, msgs(*(f"line {i}" for i in range(30))), complete=True)
    side_batch(service, "working", 29, "working_memory", {"scanned_to": 29, "items": []})
    kept = [fake_extraction(service, start, start + 9, f"part {start}") for start in (0, 10)]
    fake_extraction(service, 20, 29, "part 20")
    result = service.sync(CHAT, [MessageIn(29, "assistant", "line 29, swiped", swipe_id=1)]).value
    assert result.rolled_back_batches == 2  # the scan and the last extraction batch
    assert {n.id for n in service.all_nodes(CHAT)} == set(kept)
    state = service.read(lambda r: r.chat_row(CHAT))["state"]
    assert state.get("extracted_to") == 19 and "working_memory" not in state


def test_a_rolled_back_extraction_keeps_the_working_memory_of_later_scans(service: MemoryService) -> None:
    service.sync(CHAT, msgs(*(f"line {i}" for i in range(20))), complete=True)
    fake_extraction(service, 10, 19, "late part")
    side_batch(service, "working", 9, "working_memory", {"scanned_to": 9, "items": ["pay the ferryman"]})
    service.sync(CHAT, [MessageIn(15, "assistant", "line 15, edited")])
    state = service.read(lambda r: r.chat_row(CHAT))["state"]
    assert state["working_memory"] == {"scanned_to": 9, "items": ["pay the ferryman"]}
