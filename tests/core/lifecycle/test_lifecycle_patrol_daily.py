"""The worker keeps each chat's latest patrol report in its state, once a day by the service clock."""

from __future__ import annotations

from typing import Any

from lifecycle_helpers import CHAT, DAY, auto_node
from sqlalchemy import select

from bme_desktop.core.clock import ManualClock
from bme_desktop.core.lifecycle.patrol_daily import latest_patrol, run_patrol
from bme_desktop.core.lifecycle.worker import PATROL_CHECK_S, LifecycleWorker
from bme_desktop.core.service import MemoryService
from bme_desktop.core.store import tables as t


class Ticks:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _worker(service: MemoryService, ticks: Ticks) -> LifecycleWorker:
    return LifecycleWorker(service, monotonic=ticks)  # not started: the test drives run_scheduled()


def _tick(worker: LifecycleWorker, ticks: Ticks) -> None:
    ticks.now += PATROL_CHECK_S + 1
    worker.run_scheduled()


def _memory_rows(service: MemoryService) -> Any:
    def op(r: Any) -> Any:
        return [
            [tuple(row) for row in r.conn.execute(select(table))] for table in (t.nodes, t.edges, t.batches)
        ]

    return service.read(op)


def test_a_day_later_the_worker_keeps_a_new_report(service: MemoryService, clock: ManualClock) -> None:
    auto_node(service, "fact", {"statement": "Snow in June"})
    ticks = Ticks()
    worker = _worker(service, ticks)
    try:
        assert latest_patrol(service, CHAT) is None
        _tick(worker, ticks)
        first = latest_patrol(service, CHAT)
        assert first is not None and first["at"] == clock.now()
        assert len(first["report"]["unclassified"]) == 1
        clock.advance(DAY)
        _tick(worker, ticks)
        second = latest_patrol(service, CHAT)
        assert second is not None and second["at"] == first["at"] + DAY
    finally:
        worker.stop()


def test_twice_the_same_day_does_not_recompute(service: MemoryService, clock: ManualClock) -> None:
    auto_node(service, "fact", {"statement": "Snow in June"})
    ticks = Ticks()
    worker = _worker(service, ticks)
    try:
        _tick(worker, ticks)
        first = latest_patrol(service, CHAT)
        auto_node(service, "fact", {"statement": "Rain in May"})
        clock.advance(DAY - 60)
        _tick(worker, ticks)
        assert latest_patrol(service, CHAT) == first
    finally:
        worker.stop()


def test_keeping_a_report_changes_no_memory_and_journals_no_batch(service: MemoryService) -> None:
    auto_node(service, "fact", {"statement": "Snow in June"})
    before = _memory_rows(service)
    record = run_patrol(service, CHAT)
    assert record["report"]["chat_id"] == CHAT
    assert _memory_rows(service) == before
