"""Interpreter settings for a process that answers while it works in the background.

The app and ``bme-desktop serve`` run recalls beside background threads (extraction,
embedding new memories, the life cycle) that all need the GIL. Python hands the GIL to a
waiting thread only every *switch interval* (5 ms by default), so a recall that a generation
waits for could wait 5 ms at every hand-over. At 1 ms, measured with ``bench/bridge_load.py``
(20 clients, 10k memories, full pipelines, this 2-core machine): recall p95 with a turn per
client every 5 s 41 → 35 ms, sync p95 38 → 26 ms, and closed-loop recall throughput 62.5 →
71.7 a second (p95 398 → 338 ms).
"""

from __future__ import annotations

import sys

SWITCH_INTERVAL_S = 0.001


def tune_interpreter() -> None:
    """Apply the settings above to this process (the entry points call it once)."""
    sys.setswitchinterval(SWITCH_INTERVAL_S)
