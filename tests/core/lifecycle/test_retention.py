"""Retention rules, the capacity cap and the recycle bin's expiry (issue 20.3), on SQLite and
PostgreSQL: upkeep retires to the recycle bin in one journaled batch, the patrol previews exactly
that, a rule that would empty a type is refused, and the bin deletes for good after its days."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from lifecycle_helpers import CHAT, DAY, auto_node, node_rows

from bme_desktop.core import editing
from bme_desktop.core.clock import ManualClock
from bme_desktop.core.lifecycle import record_recall_hits, run_upkeep, undo_lifecycle_batch
from bme_desktop.core.lifecycle.patrol import patrol_report
from bme_desktop.core.model import Node
from bme_desktop.core.service import MemoryService


def rules(service: MemoryService, **values: Any) -> None:
    """Set life-cycle settings (validated like settings.json: a bad rule raises)."""
    service.settings = replace(service.settings, lifecycle=replace(service.settings.lifecycle, **values))


def event(service: MemoryService, text: str) -> Node:
    return auto_node(service, "event", {"summary": text})


def live_ids(service: MemoryService) -> set[str]:
    return {i for i, row in node_rows(service).items() if row["deleted_at"] is None}


def binned_ids(service: MemoryService) -> set[str]:
    return {i for i, row in node_rows(service).items() if row["deleted_at"] is not None}


def test_max_age_retires_old_never_recalled_memories_of_the_type(
    service: MemoryService, clock: ManualClock
) -> None:
    old = event(service, "The caravan left at dawn")
    recalled = event(service, "The bridge was rebuilt")
    fact = auto_node(service, "fact", {"statement": "Salt is traded here", "category": "knowledge"})
    clock.advance(5 * DAY)
    record_recall_hits(service, CHAT, [recalled.id])
    young = event(service, "A storm came in")
    clock.advance(6 * DAY)  # old and recalled: 11 days; young: 6 days
    rules(service, retention_max_age_days={"event": 10.0})
    report = run_upkeep(service, CHAT)
    assert report.retired == {"max_age": 1}
    assert binned_ids(service) == {old.id}
    assert {recalled.id, young.id, fact.id} <= live_ids(service)


def test_max_count_retires_fewest_hits_then_weakest_then_oldest_update(
    service: MemoryService, clock: ManualClock
) -> None:
    hit = event(service, "Hit once")
    clock.advance(1)
    older = event(service, "Never hit, updated first")
    clock.advance(1)
    newer = event(service, "Never hit, updated last")
    clock.advance(1)
    record_recall_hits(service, CHAT, [hit.id])
    rules(service, retention_max_count={"event": 2})
    assert run_upkeep(service, CHAT).retired == {"max_count": 1}
    assert binned_ids(service) == {older.id}
    rules(service, retention_max_count={"event": 1})
    run_upkeep(service, CHAT)
    assert binned_ids(service) == {older.id, newer.id}
    assert hit.id in live_ids(service)


def test_the_cap_retires_the_weakest_and_never_core_pinned_or_hand_written(
    service: MemoryService, clock: ManualClock
) -> None:
    mira = auto_node(service, "character", {"name": "Mira"})
    trait = auto_node(service, "fact", {"statement": "Mira hates rain", "category": "trait"})
    pinned = event(service, "Pinned event")
    service.update_node(CHAT, pinned.id, {"pinned": True})
    by_hand = service.create_node(
        CHAT, editing.NodeDraft(type="event", fields={"summary": "Written by hand"})
    ).value
    weak = [event(service, f"Weak event {i}") for i in range(3)]
    rules(service, max_memories_per_chat=5)
    report = run_upkeep(service, CHAT)
    assert report.retired == {"capacity": 2}
    assert len(live_ids(service)) == 5
    assert {mira.id, trait.id, pinned.id, by_hand.id} <= live_ids(service)
    assert len(binned_ids(service) & {n.id for n in weak}) == 2


def test_the_patrol_previews_exactly_what_the_next_upkeep_retires(
    service: MemoryService, clock: ManualClock
) -> None:
    nodes = [event(service, f"Event number {i}") for i in range(6)]
    auto_node(service, "character", {"name": "Tomas"})
    clock.advance(1)
    record_recall_hits(service, CHAT, [nodes[0].id])
    rules(service, retention_max_count={"event": 3})
    report = patrol_report(service, CHAT)
    before = node_rows(service)
    assert report.retention["total"] == 3 and report.retention["by_rule"] == {"max_count": 3}
    assert node_rows(service) == before  # the preview writes nothing
    previewed = {item.ids[0] for item in report.retiring}
    run_upkeep(service, CHAT)
    assert binned_ids(service) == previewed
    assert patrol_report(service, CHAT).retention["total"] == 0


def test_retired_memories_come_back_with_their_links_by_undo_or_from_the_bin(
    service: MemoryService, clock: ManualClock
) -> None:
    a, b = event(service, "The gate fell"), event(service, "The army entered")
    service.write(lambda uow: editing.link(uow, CHAT, a.id, b.id, "related", manual=False))
    rules(service, retention_max_count={"event": 1})
    run_upkeep(service, CHAT)
    (gone,) = binned_ids(service)
    assert service.edges(CHAT) == []  # the link went to the bin with it
    service.restore_node(CHAT, gone)
    assert len(service.edges(CHAT)) == 1 and gone in live_ids(service)
    rules(service, retention_max_count={"event": 1})
    clock.advance(1)
    report = run_upkeep(service, CHAT)
    assert report.retention_batch_id is not None and len(binned_ids(service)) == 1
    undo_lifecycle_batch(service, CHAT, report.retention_batch_id)
    assert binned_ids(service) == set() and len(service.edges(CHAT)) == 1


def test_a_second_upkeep_at_the_same_time_retires_nothing_more(
    service: MemoryService, clock: ManualClock
) -> None:
    for i in range(4):
        event(service, f"Event {i}")
    rules(service, retention_max_count={"event": 2})
    run_upkeep(service, CHAT)
    again = run_upkeep(service, CHAT)
    assert again.retired == {} and again.retention_batch_id is None


def test_a_rule_that_would_retire_every_memory_of_its_type_is_refused(
    service: MemoryService, clock: ManualClock
) -> None:
    for i in range(3):
        event(service, f"Event {i}")
    auto_node(service, "character", {"name": "Mira"})
    clock.advance(40 * DAY)
    rules(service, retention_max_age_days={"event": 30.0})
    preview = patrol_report(service, CHAT)
    assert preview.retention["refused"] == {"rule": "max_age", "type": "event", "count": 3, "limit": 30.0}
    assert preview.retention["total"] == 0 and preview.retiring == []
    report = run_upkeep(service, CHAT)
    assert "would retire all 3 event memories" in report.retention_refused
    assert report.retired == {} and binned_ids(service) == set()


def test_the_recycle_bin_deletes_for_good_after_its_days(service: MemoryService, clock: ManualClock) -> None:
    a, b = event(service, "Deleted early"), event(service, "Deleted later")
    service.write(lambda uow: editing.link(uow, CHAT, a.id, b.id, "related", manual=False))
    service.delete_node(CHAT, a.id)
    clock.advance(10 * DAY)
    service.delete_node(CHAT, b.id)
    clock.advance(20 * DAY)  # a: 30 days in the bin, b: 20
    assert patrol_report(service, CHAT).retention["bin_expiring"] == 1
    report = run_upkeep(service, CHAT)
    assert report.bin_emptied == 1
    rows = node_rows(service)
    assert a.id not in rows and b.id in rows
    assert service.read(lambda r: r.edges(CHAT)) == []  # the link of a deleted memory goes with it
    rules(service, recycle_bin_days=0.0)  # 0: kept for ever
    clock.advance(365 * DAY)
    assert run_upkeep(service, CHAT).bin_emptied == 0 and b.id in node_rows(service)
