"""Cancelling a maintenance task: it stops at its next checkpoint and its one write rolls back."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from lifecycle_helpers import CHAT, auto_node, node_rows
from sqlalchemy import select

from bme_desktop.core.cancel import CancellableTask, Cancelled, CancelToken
from bme_desktop.core.clock import ManualClock
from bme_desktop.core.events import ChangeRecord, Event
from bme_desktop.core.service import MemoryService
from bme_desktop.core.store import tables as t


class TripOnWriter(threading.Event):
    """Reads as set from the ``n``-th check made on the writer thread on (inside the write)."""

    def __init__(self, n: int) -> None:
        super().__init__()
        self.n = n
        self.writer_checks = 0

    def is_set(self) -> bool:
        if threading.current_thread().name.startswith("bme-writer"):
            self.writer_checks += 1
        return self.writer_checks >= self.n


def _rows(service: MemoryService) -> tuple[Any, ...]:
    def op(r: Any) -> tuple[Any, ...]:
        return tuple(
            {row["id"]: dict(row) for row in r.conn.execute(select(table)).mappings()}
            for table in (t.edges, t.batches, t.summaries)
        )

    return (node_rows(service), *service.read(op))


def _crowded_events(service: MemoryService, clock: ManualClock) -> None:
    for k in range(18):  # event: keep recent 6, fan-in 3 → four chunks to fold
        auto_node(
            service, "event", {"summary": f"Event {k} at the gate", "title": f"E{k}"}, source_indices=[k]
        )
        clock.advance(60)


def test_compress_cancelled_mid_loop_leaves_every_row_as_before(
    service: MemoryService, clock: ManualClock
) -> None:
    _crowded_events(service, clock)
    before = _rows(service)
    published: list[Event] = []
    service.events.subscribe(published.append)
    trip = TripOnWriter(2)  # the first chunk is folded, the check before the second one trips
    with pytest.raises(Cancelled):
        service.run_maintenance(CHAT, "compress", cancel=CancelToken(trip))
    assert trip.writer_checks == 2
    assert _rows(service) == before
    assert not [e for e in published if e.type == "graph.changed"]


def test_the_same_task_not_cancelled_changes_the_store(service: MemoryService, clock: ManualClock) -> None:
    _crowded_events(service, clock)
    before = _rows(service)
    change = service.run_maintenance(CHAT, "compress", cancel=CancelToken()).value
    assert len(change.nodes_added) == 4
    assert _rows(service) != before


def test_a_token_cancelled_before_the_start_runs_nothing(service: MemoryService, clock: ManualClock) -> None:
    calls: list[str] = []

    def plain(chat_id: str) -> ChangeRecord:
        calls.append(chat_id)
        return ChangeRecord(chat_id)

    _crowded_events(service, clock)
    service.maintenance_tasks["fold"] = plain
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        service.run_maintenance(CHAT, "fold", cancel=token)
    assert calls == []


def test_upkeep_cancelled_inside_its_write_rolls_back(service: MemoryService, clock: ManualClock) -> None:
    _crowded_events(service, clock)
    before = _rows(service)
    assert isinstance(service.maintenance_tasks["upkeep"], CancellableTask)
    with pytest.raises(Cancelled):
        service.run_maintenance(CHAT, "upkeep", cancel=CancelToken(TripOnWriter(2)))
    assert _rows(service) == before
    assert not service.run_maintenance(CHAT, "upkeep").value.empty  # there was work to do
