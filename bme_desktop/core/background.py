"""Background threads yield the CPU to the ones a user is waiting for.

Embedding new memories, prefetching query vectors, extraction and the life cycle run at a
lower scheduling priority (a higher nice value for that thread alone, on Linux), so a recall
that a generation waits for gets the cores first; the background still uses every idle
cycle. Where a platform has no per-thread priority the nice value does nothing.

The nice value does not reach the GIL: a recall is a few milliseconds of Python, but each
time it lets the GIL go (a database read, a hand-off to another thread) it queues behind
every busy thread for it again, and a long import keeps four of them busy (extraction, the
vector thread, the writer, the recall warm-up). So while foreground work runs
(``foreground()``: a recall), background threads pause at their next yield point
(``yield_to_foreground()``: before a write, a bulk embedding, an extraction step, a graph
build) for at most ``YIELD_AT_MOST_S``, and do not pause again for as long as they waited,
so a steady stream of recalls leaves the background at least half its pace.

A window counts as foreground work while it is behind (issue 19, "never freeze": it stalled
for hundreds of milliseconds with almost no CPU of its own, waiting for the GIL at every
hand-over): its event loop beats a heartbeat (``gui_heartbeat``, every 20 ms), and while the
beat is late ``yield_to_foreground`` pauses too; ``yield_to_gui`` is that pause alone, for a
thread that is not a background one (the graph layout's).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

BACKGROUND_NICENESS = 10
YIELD_AT_MOST_S = 0.1  # a background thread pauses at most this long for foreground work
YIELD_PASS_S = 0.02  # and then runs at least this long (or as long as it paused) before the next pause

_local = threading.local()
_cond = threading.Condition()
_active = 0  # foreground work running now
GUI_LATE_S = 0.05  # a heartbeat older than this: the window's event loop is behind
GUI_GONE_S = 1.0  # older than this: no event loop is running (a test, shutting down): nobody to wait for
_gui_beat = 0.0  # time.monotonic() of the last heartbeat; 0: no window in this process


def gui_heartbeat(alive: bool = True) -> None:
    """A window's event loop turned (its timer calls this every ~20 ms); ``alive=False``: it has gone."""
    global _gui_beat
    _gui_beat = time.monotonic() if alive else 0.0


def gui_behind() -> bool:
    """True while a window's event loop runs but is late: busy, or waiting for the GIL or a CPU."""
    if not _gui_beat:
        return False
    return GUI_LATE_S < time.monotonic() - _gui_beat < GUI_GONE_S


def yield_to_gui(limit_s: float = YIELD_AT_MOST_S) -> float:
    """Between two units of work on any thread: rest (without the GIL) while the window is
    behind, at most ``limit_s``; the seconds rested."""
    start = time.monotonic()
    while gui_behind() and time.monotonic() - start < limit_s:
        time.sleep(0.005)
    return time.monotonic() - start


@contextmanager
def foreground() -> Iterator[None]:
    """Mark work a user waits for (a recall): background threads pause at their yield points
    until it is done."""
    global _active
    with _cond:
        _active += 1
    try:
        yield
    finally:
        with _cond:
            _active -= 1
            if not _active:
                _cond.notify_all()


def is_background() -> bool:
    """Whether the calling thread is a background thread (``lower_thread_priority`` ran on it)."""
    return bool(getattr(_local, "background", False))


def yield_to_foreground() -> float:
    """On a background thread while foreground work runs: wait until it is done (at most
    ``YIELD_AT_MOST_S``); elsewhere, or within the pass after the last pause, nothing. Returns
    the seconds waited. Call it where the thread holds no lock another thread may need."""
    if not getattr(_local, "background", False) or not (_active or gui_behind()):
        return 0.0
    now = time.monotonic()
    if now < getattr(_local, "free_until", 0.0):
        return 0.0
    if _active:
        with _cond:
            _cond.wait_for(lambda: not _active, timeout=YIELD_AT_MOST_S)
    while gui_behind() and time.monotonic() - now < YIELD_AT_MOST_S:  # the window, still behind
        time.sleep(0.005)
    waited = time.monotonic() - now
    _local.free_until = time.monotonic() + max(waited, YIELD_PASS_S)
    return waited


def lower_thread_priority(niceness: int = BACKGROUND_NICENESS) -> bool:
    """Lower the calling thread's priority by ``niceness`` steps and make it a background
    thread (it yields to foreground work); True if the priority change took effect."""
    _local.background = True
    setpriority = getattr(os, "setpriority", None)
    if setpriority is None or not hasattr(threading, "get_native_id"):
        return False
    tid = threading.get_native_id()
    try:
        current = os.getpriority(os.PRIO_PROCESS, tid)
        setpriority(os.PRIO_PROCESS, tid, min(19, current + niceness))
    except OSError:  # not Linux-like thread ids, or not permitted: run at normal priority
        return False
    return True
