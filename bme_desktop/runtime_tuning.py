"""Interpreter settings for a process that answers while it works in the background.

The app and ``bme-desktop serve`` run recalls beside background threads (extraction,
embedding new memories, the life cycle) that all need the GIL. Python hands the GIL to a
waiting thread only every *switch interval* (5 ms by default), so a recall that a generation
waits for could wait 5 ms at every hand-over. At 1 ms, measured with ``bench/bridge_load.py``
(20 clients, 10k memories, full pipelines, this 2-core machine): recall p95 with a turn per
client every 5 s 41 → 35 ms, sync p95 38 → 26 ms, and closed-loop recall throughput 62.5 →
71.7 a second (p95 398 → 338 ms).

numpy's matrix products run on one BLAS thread (``core/blas_threads.py``): the memory core's
parallelism comes from running stages and recalls side by side. Both are settings of the whole
process, so the entry points apply them once at start-up (the app, ``serve`` and the MCP server
``tune_interpreter``; every other command and the benchmarks that attach recall ``limit_blas``),
never a library call.
"""

from __future__ import annotations

import gc
import sys

SWITCH_INTERVAL_S = 0.001


def tune_interpreter() -> None:
    """Apply the settings above to this process (the entry points call it once)."""
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    limit_blas()


def limit_blas() -> bool:
    """Load numpy's BLAS library and cap it at one thread; True if a BLAS library was found."""
    import numpy  # noqa: F401 - the library the cap applies to must be loaded first

    from .core.blas_threads import limit_blas_threads

    return limit_blas_threads()


def freeze_long_lived() -> int:
    """Leave what exists now (modules, classes, the window's widgets and their wrappers) out of
    every later garbage collection; the number of objects frozen.

    A full collection walks every container object, holding the GIL: with the window built and a
    10k-memory chat open that was ~250k objects and 150-170 ms of CPU, in whatever thread it
    struck (issue 19, "never freeze": the window waited 100-350 ms for the GIL at random steps);
    with these frozen, ~40 ms. Frozen objects are still freed when nothing refers to them; only
    reference cycles among them would wait for ``thaw_long_lived``. The app calls it once its
    window is up, after a collection (no garbage frozen)."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


def thaw_long_lived() -> None:
    """Undo ``freeze_long_lived`` (the window closed: its objects may be collected again)."""
    gc.unfreeze()
