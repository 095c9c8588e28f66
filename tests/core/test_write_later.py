"""Later writes (on the writer's own queue): queued writes land in order, together, and one failure
loses no other; their events are published off the writer thread."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from bme_desktop.core.model import MessageIn, Node
from bme_desktop.core.service import MemoryService
from bme_desktop.core.store.unit_of_work import UnitOfWork

CHAT = "later"


def _put(node_id: str) -> Callable[[UnitOfWork], None]:
    def write(uow: UnitOfWork) -> None:
        uow.put_node(
            Node(id=node_id, chat_id=CHAT, type="fact", title=node_id, fields={"statement": node_id})
        )

    return write


def _fail(uow: UnitOfWork) -> None:
    raise ValueError("this deferred write fails")


@pytest.fixture
def blocked_lane(service: MemoryService) -> threading.Event:
    """The lane is busy (its first write waits for the event), so what follows queues up."""
    service.sync(CHAT, [MessageIn(0, "user", "hello")])
    release, started = threading.Event(), threading.Event()

    def hold(uow: UnitOfWork) -> None:
        started.set()
        assert release.wait(20)

    service.write_later(hold)
    assert started.wait(20)
    return release


def test_writes_queued_while_the_lane_is_busy_land_in_one_transaction(
    service: MemoryService, blocked_lane: threading.Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    for i in range(5):
        service.write_later(_put(f"n{i}"))
    writes: list[int] = []  # transactions begun
    real_write = service.store.write
    monkeypatch.setattr(service.store, "write", lambda now: writes.append(1) or real_write(now))
    blocked_lane.set()
    service.flush_later_writes()
    assert len(writes) == 1
    assert {n.id for n in service.all_nodes(CHAT)} >= {f"n{i}" for i in range(5)}


def test_a_failing_write_in_a_batch_loses_none_of_the_others(
    service: MemoryService, blocked_lane: threading.Event, caplog: pytest.LogCaptureFixture
) -> None:
    service.write_later(_put("before"))
    service.write_later(_fail)
    service.write_later(_put("after"))
    blocked_lane.set()
    service.flush_later_writes()
    assert {"before", "after"} <= {n.id for n in service.all_nodes(CHAT)}
    assert "a deferred write failed" in caplog.text


def test_flush_waits_for_writes_queued_behind_a_running_batch(
    service: MemoryService, blocked_lane: threading.Event
) -> None:
    service.write_later(_put("queued"))
    blocked_lane.set()
    service.write_later(_put("late"))  # may join the running drain's successor
    service.flush_later_writes()
    assert {"queued", "late"} <= {n.id for n in service.all_nodes(CHAT)}


def test_later_writes_keep_their_order_with_waited_for_writes(
    service: MemoryService, blocked_lane: threading.Event
) -> None:
    order: list[str] = []
    service.write_later(lambda uow: order.append("later"))
    done = threading.Event()

    def write_now() -> None:
        service.write(lambda uow: order.append("now"))
        done.set()

    threading.Thread(target=write_now).start()
    service.write_later(lambda uow: order.append("after"))  # queued behind the waited-for write
    blocked_lane.set()
    assert done.wait(20)
    service.flush_later_writes()
    assert order[0] == "later" and set(order) == {"later", "now", "after"}


def test_what_later_writes_change_is_published_off_the_writer_thread(
    service: MemoryService, blocked_lane: threading.Event
) -> None:
    seen: list[tuple[str, bool]] = []
    service.events.subscribe(
        lambda e: (
            seen.append((threading.current_thread().name, service.on_writer_thread()))
            if e.type == "graph.changed"
            else None
        )
    )
    service.write_later(_put("evented"))
    blocked_lane.set()
    service.flush_later_writes()
    assert seen and all(not on_writer and name == "bme-events" for name, on_writer in seen)
