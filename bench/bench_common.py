"""Pieces the benchmarks share: percentiles, and a bridge over a core with no pipelines."""

from __future__ import annotations

import json
import signal
import threading
from pathlib import Path


def pct(values: list[float], q: float) -> float:
    """The ``q``-th percentile (nearest rank); NaN for no values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))] if ordered else float("nan")


def serve_bare(data_dir: Path, token: str) -> int:
    """The bridge over a core with no pipelines attached (no extraction, keyword recall), run
    as a child process: what the bridge itself costs. Prints one ready line; stops on SIGTERM."""
    from bme_desktop.bridge.config import BridgeConfig
    from bme_desktop.bridge.server import BridgeServer
    from bme_desktop.core.service import MemoryService

    service = MemoryService.open(data_dir, attach=False)
    server = BridgeServer(service, token, BridgeConfig(port=0, rate_per_s=100000.0, rate_burst=1000000))
    server.start()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    print(json.dumps({"event": "ready", "url": server.url}), flush=True)
    while not stop.wait(0.5):
        pass
    server.stop()
    service.close()
    return 0
