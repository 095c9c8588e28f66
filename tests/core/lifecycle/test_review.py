"""The review centre: audit modes, approve / edit / reject (bulk too), audit entries, undo."""

from __future__ import annotations

from pathlib import Path

import pytest
from lifecycle_helpers import CHAT, auto_node, get

from bme_desktop.core.clock import ManualClock
from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.lifecycle import is_injectable, record_recall_hits, run_upkeep
from bme_desktop.core.lifecycle.intake import intake_in
from bme_desktop.core.lifecycle.review import approve, edit_and_approve, pending, reject
from bme_desktop.core.service import MemoryService
from bme_desktop.core.settings import Settings

FACT = {"statement": "The bridge at Kell is out", "category": "fact"}


@pytest.mark.parametrize(
    ("mode", "long_pending", "short_pending"),
    [("all", True, True), ("long_term", True, False), ("none", False, False)],
)
def test_new_automatic_memories_wait_for_review_per_audit_mode(
    tmp_path: Path, mode: str, long_pending: bool, short_pending: bool
) -> None:
    settings = Settings()
    settings.lifecycle.audit_mode = mode
    service = MemoryService.open(tmp_path, settings=settings, clock=ManualClock(), attach=False)
    try:
        long = auto_node(service, "fact", FACT)
        short = auto_node(service, "event", {"summary": "a passing remark"}, tier="short_term")
        mine = service.create_node(CHAT, NodeDraft(type="fact", fields={"statement": "typed by hand"})).value
        run_upkeep(service, CHAT)
        assert (get(service, long.id).review_status == "pending") is long_pending
        assert (get(service, short.id).review_status == "pending") is short_pending
        assert get(service, mine.id).review_status == "approved"  # a user's own memory needs no review
        assert is_injectable(get(service, long.id))  # review is an audit: pending memories are recalled
        assert (
            is_injectable(get(service, long.id), gate=True) is not long_pending
        )  # the strict gate holds them
    finally:
        service.close()


def test_intake_right_after_extraction_marks_pending_once(service: MemoryService) -> None:
    node = auto_node(service, "fact", FACT)
    settings = service.settings.lifecycle
    changed = service.write(lambda uow: intake_in(uow, CHAT, [node.id], service.now(), settings))
    again = service.write(lambda uow: intake_in(uow, CHAT, [node.id], service.now(), settings))
    assert changed == [node.id] and again == []
    assert get(service, node.id).review_status == "pending"


def test_a_recalled_short_term_memory_is_promoted_into_review(service: MemoryService) -> None:
    node = auto_node(service, "event", {"summary": "She promised to come back"}, tier="short_term")
    record_recall_hits(service, CHAT, [node.id])
    promoted = get(service, node.id)
    assert promoted.tier == "long_term" and promoted.review_status == "pending"


@pytest.mark.parametrize("gate", [False, True])
def test_a_promotion_never_hides_an_injectable_memory(
    service: MemoryService, clock: ManualClock, gate: bool
) -> None:
    service.settings.lifecycle.review_gate = gate
    by_recall = auto_node(service, "event", {"summary": "She promised to come back"}, tier="short_term")
    by_upkeep = auto_node(service, "event", {"summary": "The bell rang"}, tier="short_term", importance=9.0)
    assert is_injectable(get(service, by_recall.id), gate) and is_injectable(get(service, by_upkeep.id), gate)
    record_recall_hits(service, CHAT, [by_recall.id])
    clock.advance(3600)
    run_upkeep(service, CHAT)
    for node_id in (by_recall.id, by_upkeep.id):
        promoted = get(service, node_id)
        assert promoted.tier == "long_term" and promoted.review_status == "pending"  # listed for review
        assert is_injectable(promoted, gate)  # and still recalled, gate or not


def test_the_gate_holds_a_new_long_term_memory_until_approved(service: MemoryService) -> None:
    node = auto_node(service, "fact", FACT)
    run_upkeep(service, CHAT)
    assert not is_injectable(get(service, node.id), gate=True)
    approve(service, CHAT, [node.id])
    assert is_injectable(get(service, node.id), gate=True)


def test_approve_edit_reject_each_leave_an_audit_entry_and_undo(
    service: MemoryService, clock: ManualClock
) -> None:
    a, b, c = (auto_node(service, "fact", {"statement": f"fact {i}", "category": "fact"}) for i in range(3))
    run_upkeep(service, CHAT)
    assert pending(service, CHAT)[1] == 3
    approve(service, CHAT, [a.id, b.id])
    edited = edit_and_approve(service, CHAT, c.id, {"fields": {"statement": "fact three, corrected"}})
    assert edited.review_status == "approved" and edited.manually_edited
    assert pending(service, CHAT)[1] == 0
    rejected = reject(service, CHAT, [b.id], reason="wrong")[0]
    assert rejected.review_status == "rejected" and not is_injectable(rejected)
    log = service.read(lambda r: r.audit(CHAT))
    actions = [
        (e["action"], e["target"])
        for e in log
        if e["action"] in ("review.approve", "review.edit", "review.reject")
    ]
    assert sorted(actions) == sorted(
        [("review.approve", a.id), ("review.approve", b.id), ("review.edit", c.id), ("review.reject", b.id)]
    )
    assert service.undo(CHAT).value  # the rejection
    assert get(service, b.id).review_status == "approved"


def test_a_rejected_memory_is_not_sent_back_to_review_by_promotion(service: MemoryService) -> None:
    node = auto_node(service, "event", {"summary": "idle"}, tier="short_term")
    reject(service, CHAT, [node.id])
    record_recall_hits(service, CHAT, [node.id])
    assert get(service, node.id).review_status == "rejected"
