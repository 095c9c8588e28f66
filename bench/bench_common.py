"""Pieces the benchmarks share: percentiles, and a bridge over a core with no pipelines."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent


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


def start_bridge(
    data_dir: Path,
    token: str,
    script: str,
    bare: bool,
    settings: dict[str, Any] | None = None,
    *,
    lift_rate_limit: bool = True,
    stderr: IO[str] | None = None,
) -> tuple[subprocess.Popen[str], str]:
    """Start a bridge as a child process over ``data_dir`` (rate limits lifted unless
    ``lift_rate_limit`` is false, plus ``settings``) and wait for its ready line; returns the
    process and the bridge's URL. Its stderr goes to ``stderr`` (default: this process's).

    ``bare`` runs ``script --serve-bare DATA_DIR`` (the calling benchmark, which then calls
    :func:`serve_bare`); otherwise the real ``bme-desktop serve``."""
    data_dir.mkdir(parents=True, exist_ok=True)
    lifted = {"bridge": {"rate_limit_per_s": 100000.0, "rate_burst": 1000000}} if lift_rate_limit else {}
    (data_dir / "settings.json").write_text(json.dumps({**lifted, **(settings or {})}), encoding="utf-8")
    env = {
        **os.environ,
        "BME_BRIDGE_TOKEN": token,
        "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
        "PYTHONPATH": str(ROOT),
    }
    env.pop("BME_PROXY_UPSTREAM_KEY", None)
    command = (
        [sys.executable, script, "--serve-bare", str(data_dir)]
        if bare
        else [sys.executable, "-m", "bme_desktop", "serve", "--port", "0", "--data-dir", str(data_dir)]
    )
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr, text=True, env=env, cwd=ROOT)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line:
        raise SystemExit("the bridge did not start")
    return proc, json.loads(line)["url"]


# The vocabulary of the bridge benches' synthetic chats (bridge_load, proxy).
WORDS = [
    "caravan",
    "river",
    "lantern",
    "silver",
    "key",
    "forest",
    "mill",
    "storm",
    "harbour",
    "sword",
    "letter",
    "tower",
    "garden",
    "bridge",
    "wolf",
    "market",
    "winter",
    "festival",
    "oath",
    "map",
]


def words(i: int, n: int) -> str:
    """``n`` words of the vocabulary, a different run for each ``i``."""
    return " ".join(WORDS[(i * 7 + k) % len(WORDS)] for k in range(n))
