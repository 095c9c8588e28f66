"""Background threads yield the CPU to the ones a user is waiting for.

Embedding new memories, prefetching query vectors, extraction and the life cycle run at a
lower scheduling priority (a higher nice value for that thread alone, on Linux), so a recall
that a generation waits for gets the cores first; the background still uses every idle
cycle. Where a platform has no per-thread priority this does nothing.
"""

from __future__ import annotations

import os
import threading

BACKGROUND_NICENESS = 10


def lower_thread_priority(niceness: int = BACKGROUND_NICENESS) -> bool:
    """Lower the calling thread's priority by ``niceness`` steps; True if it took effect."""
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
