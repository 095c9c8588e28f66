"""The upkeep pass over simulated time: tiers, decay, dormancy, idempotence, undo."""

from __future__ import annotations

import math

from lifecycle_helpers import CHAT, DAY, auto_node, get, node_rows

from bme_desktop.core.clock import ManualClock
from bme_desktop.core.lifecycle import record_recall_hits, run_upkeep, undo_lifecycle_batch, wake
from bme_desktop.core.lifecycle.schedule import dormant_day, half_life_days
from bme_desktop.core.service import MemoryService

EVENT = {"summary": "The caravan crossed the salt flats at dawn."}


def test_a_never_recalled_memory_goes_dormant_on_the_expected_day_and_wakes_on_demand(
    service: MemoryService, clock: ManualClock
) -> None:
    node = auto_node(service, "event", EVENT)
    run_upkeep(service, CHAT)
    card = get(service, node.id).srs
    assert card is not None
    day = dormant_day(card["stability"], half_life_days("fast", service.settings.lifecycle), 0.1)
    clock.set(node.created_at + math.floor(day) * DAY)
    run_upkeep(service, CHAT)
    assert get(service, node.id).tier == "long_term"
    clock.set(node.created_at + math.ceil(day) * DAY)
    report = run_upkeep(service, CHAT)
    asleep = get(service, node.id)
    assert report.dormant == 1 and asleep.tier == "dormant" and asleep.retrievability < 0.1
    woken = wake(service, CHAT, node.id)
    assert woken.tier == "long_term" and woken.retrievability == 1.0
    assert woken.srs is not None and woken.srs["last_review"] == clock.now()


def test_a_memory_recalled_on_a_spaced_schedule_stays_long_term(
    service: MemoryService, clock: ManualClock
) -> None:
    node = auto_node(service, "event", EVENT)
    for _ in range(8):
        card = get(service, node.id).srs or {"stability": 2.0}
        clock.advance(card["stability"] * DAY)
        record_recall_hits(service, CHAT, [node.id])
        run_upkeep(service, CHAT)
        assert get(service, node.id).tier == "long_term"
    kept = get(service, node.id)
    assert kept.recall_count == 8 and kept.srs is not None and kept.srs["stability"] > 100


def test_short_term_memories_expire_at_48_hours_unless_recalled(
    service: MemoryService, clock: ManualClock
) -> None:
    idle = auto_node(service, "event", {"summary": "idle chatter"}, tier="short_term")
    used = auto_node(service, "event", {"summary": "a promise to return"}, tier="short_term")
    clock.advance(47 * 3600)
    run_upkeep(service, CHAT)
    assert get(service, idle.id).tier == "short_term"
    record_recall_hits(service, CHAT, [used.id])
    clock.advance(2 * 3600)
    run_upkeep(service, CHAT)
    expired = get(service, idle.id)
    assert expired.tier == "archived" and "expired_at" in expired.flags
    assert get(service, used.id).tier == "long_term"


def test_important_short_term_memories_are_promoted(service: MemoryService) -> None:
    node = auto_node(service, "event", EVENT, tier="short_term", importance=9.0)
    report = run_upkeep(service, CHAT)
    promoted = get(service, node.id)
    assert report.promoted == 1 and promoted.tier == "long_term" and promoted.review_status == "pending"


def test_never_pool_memories_never_fade(service: MemoryService, clock: ManualClock) -> None:
    trait = auto_node(service, "fact", {"statement": "Mira is left-handed", "category": "trait"})
    person = auto_node(service, "character", {"name": "Mira"})
    clock.advance(3650 * DAY)
    run_upkeep(service, CHAT)
    for node_id in (trait.id, person.id):
        node = get(service, node_id)
        assert node.tier == "long_term" and node.retrievability == 1.0


def test_upkeep_twice_at_the_same_time_changes_nothing_the_second_time(
    service: MemoryService, clock: ManualClock
) -> None:
    auto_node(service, "event", EVENT)
    auto_node(service, "event", {"summary": "chatter"}, tier="short_term")
    clock.advance(30 * DAY)
    first = run_upkeep(service, CHAT)
    rows = node_rows(service)
    batches = len(service.read(lambda r: r.batches(CHAT)))
    change = service.run_maintenance(CHAT, "upkeep").value if "upkeep" in service.maintenance_tasks else None
    second = run_upkeep(service, CHAT)
    assert first.batch_id is not None and second.batch_id is None and not second.changed_ids
    assert change is None or change.empty
    assert node_rows(service) == rows
    assert len(service.read(lambda r: r.batches(CHAT))) == batches


def test_a_clock_jumping_backwards_corrupts_nothing(service: MemoryService, clock: ManualClock) -> None:
    fading = auto_node(service, "event", EVENT)
    short = auto_node(service, "event", {"summary": "chatter"}, tier="short_term")
    start = clock.now()
    clock.set(start + 400 * DAY)
    run_upkeep(service, CHAT)
    cards = {k: v["srs"] for k, v in node_rows(service).items()}
    assert get(service, fading.id).tier == "dormant"
    clock.set(start - 365 * DAY)  # a year before the memories were made
    run_upkeep(service, CHAT)
    after = node_rows(service)
    assert {k: v["srs"] for k, v in after.items()} == cards
    assert after[fading.id]["tier"] == "dormant" and after[short.id]["tier"] == "archived"
    report = record_recall_hits(service, CHAT, [fading.id, short.id])  # a direct ask wakes them, even now
    assert sorted(report.woken) == sorted([fading.id, short.id])
    assert all(0.0 <= row["retrievability"] <= 1.0 for row in node_rows(service).values())
    clock.set(start + 401 * DAY)
    run_upkeep(service, CHAT)
    assert get(service, fading.id).tier == "dormant"  # its fresh card, made "a year before", has faded again


def test_undoing_an_upkeep_batch_restores_the_state_exactly(
    service: MemoryService, clock: ManualClock
) -> None:
    auto_node(service, "event", EVENT)
    auto_node(service, "event", {"summary": "chatter"}, tier="short_term")
    auto_node(service, "fact", {"statement": "water boils at 100C", "category": "knowledge"})
    run_upkeep(service, CHAT)
    before = node_rows(service)
    clock.advance(200 * DAY)
    report = run_upkeep(service, CHAT)
    assert report.batch_id is not None and report.expired == 1 and report.dormant == 1
    assert node_rows(service) != before
    moved = set(report.changed_ids) - {
        k for k, v in node_rows(service).items() if v["tier"] == before[k]["tier"]
    }
    undo_lifecycle_batch(service, CHAT, report.batch_id)
    after = node_rows(service)
    assert {k: after[k] for k in moved} == {k: before[k] for k in moved}  # journaled rows: exactly as before
    # a pure retrievability refresh is a cache, recomputed by the next pass, not journaled
    assert {k: {**v, "retrievability": 0} for k, v in after.items()} == {
        k: {**v, "retrievability": 0} for k, v in before.items()
    }


def test_pure_retrievability_refreshes_are_not_journaled(service: MemoryService, clock: ManualClock) -> None:
    node = auto_node(service, "event", EVENT)
    run_upkeep(service, CHAT)
    clock.advance(1 * DAY)
    report = run_upkeep(service, CHAT)
    assert report.batch_id is None and report.changed_ids == [node.id]
    assert get(service, node.id).retrievability < 1.0


def test_a_database_left_for_months_catches_up_in_one_pass(
    service: MemoryService, clock: ManualClock
) -> None:
    ids = [auto_node(service, "event", {"summary": f"event number {i}"}).id for i in range(20)]
    clock.advance(180 * DAY)
    report = run_upkeep(service, CHAT)
    assert report.dormant == 20 and all(get(service, i).tier == "dormant" for i in ids)
