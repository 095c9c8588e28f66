"""Background threads run at a lower priority than the threads a user waits for."""

from __future__ import annotations

import os
import threading
import time

import pytest

from bme_desktop.core.background import lower_thread_priority
from bme_desktop.core.service import MemoryService


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="no per-thread priority on this platform")
def test_only_the_calling_thread_is_lowered() -> None:
    before = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    seen: dict[str, int] = {}

    def worker() -> None:
        if lower_thread_priority(5):
            seen["worker"] = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    if "worker" not in seen:
        pytest.skip("this system does not allow changing a thread's priority")
    assert seen["worker"] == min(19, before + 5)
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == before


def test_a_background_thread_pauses_while_a_recall_runs_and_the_caller_never_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While foreground work runs, a background thread's yield point waits for it to end (not
    a thread the user waits for); right after a pause it runs on without pausing again."""
    from bme_desktop.core import background

    paused = threading.Event()

    class Watched(threading.Condition):
        def wait_for(self, predicate, timeout=None):  # type: ignore[no-untyped-def]
            paused.set()
            return super().wait_for(predicate, timeout)

    monkeypatch.setattr(background, "_cond", Watched())
    monkeypatch.setattr(background, "YIELD_AT_MOST_S", 30.0)
    order: list[str] = []
    waited: list[float] = []

    def worker() -> None:
        lower_thread_priority(0)
        waited.append(background.yield_to_foreground())
        order.append("background")
        waited.append(background.yield_to_foreground())  # within its pass: no pause

    thread = threading.Thread(target=worker)
    with background.foreground():
        assert background.yield_to_foreground() == 0.0  # this thread is no background thread
        thread.start()
        assert paused.wait(30)
        order.append("foreground")
    thread.join()
    assert order == ["foreground", "background"]
    assert waited[0] > 0.0 and waited[1] == 0.0
    assert background.yield_to_foreground() == 0.0


def test_a_background_thread_never_waits_longer_than_the_cap() -> None:
    from bme_desktop.core import background

    waited: list[float] = []

    def worker() -> None:
        lower_thread_priority(0)
        waited.append(background.yield_to_foreground())

    with background.foreground():  # foreground work that outlasts the cap
        thread = threading.Thread(target=worker)
        thread.start()
        thread.join()
    assert waited[0] >= background.YIELD_AT_MOST_S * 0.9


def test_a_window_that_is_behind_counts_as_foreground(monkeypatch: pytest.MonkeyPatch) -> None:
    """The window's heartbeat: late (its loop busy or waiting for the GIL), background work and
    the layout pause; on time, or with no loop turning at all (a test, shutting down), they don't."""
    from bme_desktop.core import background

    now = [100.0]
    beat_after = [4]  # the window's loop turns again after this many rests
    rests: list[float] = []
    monkeypatch.setattr(background.time, "monotonic", lambda: now[0])

    def sleep(seconds: float) -> None:
        rests.append(seconds)
        now[0] += seconds
        if len(rests) == beat_after[0]:
            background.gui_heartbeat()

    monkeypatch.setattr(background.time, "sleep", sleep)
    try:
        background.gui_heartbeat(alive=False)
        assert background.yield_to_gui() == 0.0  # no window in this process
        background.gui_heartbeat()
        assert background.yield_to_gui() == 0.0  # its loop turns on time
        now[0] += 0.2  # late
        assert background.yield_to_gui() == pytest.approx(0.02) and len(rests) == 4
        now[0] += 5.0  # no loop turning at all: nobody to wait for
        assert not background.gui_behind() and background.yield_to_gui() == 0.0
        background.gui_heartbeat()
        now[0] += 0.2
        beat_after[0] = -1
        assert 0.05 <= background.yield_to_gui(limit_s=0.05) <= 0.056  # never (much) longer than asked
    finally:
        background.gui_heartbeat(alive=False)


def test_a_background_thread_pauses_while_the_window_is_behind() -> None:
    from bme_desktop.core import background

    waited: list[float] = []

    def work() -> None:
        background.lower_thread_priority(0)
        waited.append(background.yield_to_foreground())

    try:
        background.gui_heartbeat()
        time.sleep(0.08)  # the window's loop is late (no beat since)
        thread = threading.Thread(target=work)
        thread.start()
        time.sleep(0.03)
        background.gui_heartbeat()  # it caught up
        thread.join(5)
        assert waited and 0.01 < waited[0] < background.YIELD_AT_MOST_S + 0.05
    finally:
        background.gui_heartbeat(alive=False)


def test_a_long_read_of_memories_has_yield_points(
    service: MemoryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 19, "never freeze": reading a 10k chat's memories is ~170 ms of Python holding the GIL;
    a background thread reading them (the vector thread's pass) lets a recall, or a window that is
    behind, go first every few hundred rows."""
    from bme_desktop.core.editing import new_id
    from bme_desktop.core.model import MessageIn, Node
    from bme_desktop.core.store import reader

    service.sync("c", [MessageIn(index=0, role="user", text="hello")], complete=True)
    now = service.now()

    def write(uow: object) -> None:
        for i in range(reader.YIELD_EVERY * 2 + 10):
            fields = {"statement": f"fact {i}"}
            uow.put_node(  # type: ignore[attr-defined]
                Node(
                    id=new_id(),
                    chat_id="c",
                    type="fact",
                    title=f"fact {i}",
                    fields=fields,
                    created_at=now + i,
                    updated_at=now + i,
                    source_indices=[0],
                )
            )

    service.write(write)  # type: ignore[arg-type]
    calls: list[int] = []
    monkeypatch.setattr(reader, "yield_to_foreground", lambda: calls.append(1) or 0.0)
    assert len(service.all_nodes("c")) == reader.YIELD_EVERY * 2 + 10
    assert len(calls) == 2
