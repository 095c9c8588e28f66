"""Soak: a real ``bme-desktop serve`` under 20 SillyTavern-like clients for 10 minutes (issue 15).

    .venv/bin/python bench/soak.py [--minutes 10] [--clients 20] [--json FILE]

Starts ``python -m bme_desktop serve --port 0`` on a fresh temporary data dir with the default
settings (extraction, recall and vectors as shipped; only the bridge's per-client rate limit is
raised, so the soak measures the server and not the limiter — ``--default-rate-limit`` keeps it)
and drives it on loopback as the SillyTavern extension does, one turn after another per client:

1. ``POST /recall`` for the user's new message (``user_input``, ``index`` = its place in the
   chat, ``top_k`` 8, ``budget_tokens`` 1500) within the extension's 3 s; on a failure the
   recall kept for that message (``GET /recall/{index}``), as the extension falls back;
2. ``POST /sync`` of the user's message (``complete: false``);
3. ``POST /sync`` of the reply (``complete: false``, ``wait: true``: answered once its
   extraction ran), then the user reads and types (``--think`` seconds, ±50 %).

Half the clients talk in chats shared with others (groups of ``--group`` clients take turns in
one chat: each turn takes the next two message indices), half in chats of their own, opening a
new chat (synced whole, ``complete: true``) every ``--turns-per-chat`` turns, so the server sees
ever more chats. Every client keeps a ``/v1/events`` WebSocket open (token as its first message,
as browsers must), reading every event, and opens a new one with each chat (a page reload).
Lines are English and Chinese from ``../shared/data`` (role-play chats, MemoryBank, LoCoMo), or a
few built-in ones when that folder is missing; clients alternate between the two languages.

Throughout, ``GET /v1/health`` is polled every 0.5 s, and the serve process's RSS, open files,
sockets and threads are read from ``/proc`` every ``--sample-every`` seconds. Printed at the end:
requests and errors by kind and status, p50/p95/p99 per kind, a per-minute table (latency cliffs),
RSS/open files when ready (no load yet), at the start (after a minute of load, or a quarter of a
shorter run), the middle and the end, and RSS growth over the last half (target < 5 %).

Bounded: loopback only, every request has a timeout, each client stops at the deadline (or after
``--max-turns``), the whole run is cut off ``--minutes`` + 3 minutes after it started, and the
server is stopped with SIGTERM (then killed if it has not exited within 60 s).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import random
import signal
import statistics
import subprocess
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from bench_common import ROOT, pct, start_bridge

TOKEN = "soak-token-" + "s" * 40
RECALL_TIMEOUT_S = 3.0  # the extension's timeoutMs
KEPT_TIMEOUT_S = 1.5  # its KEPT_RECALL_TIMEOUT_MS
SYNC_TIMEOUT_S = 30.0  # its syncTimeoutMs
WAIT_SYNC_TIMEOUT_S = 120.0  # a reply's sync waits for its extraction
HEALTH_EVERY_S = 0.5
KINDS = ("recall", "kept", "sync_user", "sync_reply", "sync_open", "health")

FALLBACK = {
    "en": [
        (
            "The caravan leaves at dawn. Did you pack the silver key and the map of the harbour?",
            "I packed both. The key is sewn into my cloak, and the map is in the oilcloth tube.",
        ),
        (
            "Who was the woman at the market who asked about the lantern?",
            "Her name is Mira Vance. She runs the mill by the river and she owes Tomas a favour.",
        ),
        (
            "Let's meet at the old tower after the winter festival, by the garden gate.",
            "Agreed. I will bring the letter from the harbour master and the wolf-pelt gloves.",
        ),
    ],
    "zh": [
        (
            "明天一早商队就出发了，你把银钥匙和港口地图带上了吗？",
            "都带上了。钥匙缝在斗篷里，地图放在油布筒中。",
        ),
        ("集市上那个打听灯笼的女人是谁？", "她叫林晚，在河边开磨坊，还欠着托马斯一个人情。"),
        ("冬节过后我们在老塔下见面，就在花园门口。", "好，我会带上港务长的信和狼皮手套。"),
    ],
}


# lines -------------------------------------------------------------------------------------
@dataclass
class Script:
    """One conversation to replay: (user line, reply) pairs and who speaks them."""

    lang: str
    user: str
    character: str
    pairs: list[tuple[str, str]]


def _pairs(messages: list[dict[str, Any]]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for first, second in itertools.pairwise(messages):
        if (
            first.get("role") == "user"
            and second.get("role") == "assistant"
            and first.get("text")
            and second.get("text")
        ):
            out.append((str(first["text"]), str(second["text"])))
    return out


def load_scripts(data: Path) -> dict[str, list[Script]]:
    """English and Chinese conversations from the shared benchmark data, else the built-in lines."""
    scripts: dict[str, list[Script]] = {"en": [], "zh": []}
    for path in sorted((data / "roleplay-dev").glob("*.json")):
        chat = json.loads(path.read_text(encoding="utf-8"))
        if chat.get("lang") in scripts:
            scripts[chat["lang"]].append(
                Script(chat["lang"], chat["user"], chat["character"], _pairs(chat["messages"]))
            )
    with contextlib.suppress(OSError, ValueError):
        for chat in json.loads((data / "memorybank-cn-dev.json").read_text(encoding="utf-8")):
            scripts["zh"].append(Script("zh", chat["user"], "AI伴侣", _pairs(chat["messages"])))
    with contextlib.suppress(OSError, ValueError):
        for sample in json.loads((data / "locomo-dev.json").read_text(encoding="utf-8")):
            conv = sample["conversation"]
            turns = [
                turn
                for key in sorted(k for k in conv if k.startswith("session_") and k[8:].isdigit())
                for turn in conv[key]
            ]
            messages = [
                {
                    "role": "user" if turn["speaker"] == conv["speaker_a"] else "assistant",
                    "text": turn["text"],
                }
                for turn in turns
            ]
            scripts["en"].append(Script("en", conv["speaker_a"], conv["speaker_b"], _pairs(messages)))
    for lang, lines in FALLBACK.items():
        if not any(s.pairs for s in scripts[lang]):
            scripts[lang] = [
                Script(lang, "Tomas" if lang == "en" else "托马斯", "Sera" if lang == "en" else "塞拉", lines)
            ]
    return {lang: [s for s in found if s.pairs] for lang, found in scripts.items()}


# measurements ------------------------------------------------------------------------------
@dataclass
class Record:
    at: float  # seconds since the load started
    kind: str
    ms: float
    status: int  # 599: no answer (timeout, connection error)


@dataclass
class Sample:
    at: float
    rss_kb: int
    fds: int
    sockets: int
    threads: int


@dataclass
class Run:
    started: float = field(default_factory=time.monotonic)
    records: list[Record] = field(default_factory=list)
    samples: list[Sample] = field(default_factory=list)
    events: Counter[str] = field(default_factory=Counter)
    socket_closes: Counter[str] = field(default_factory=Counter)
    turns: int = 0
    chats_opened: int = 0

    def now(self) -> float:
        return time.monotonic() - self.started

    def add(self, kind: str, started: float, status: int) -> None:
        self.records.append(Record(started - self.started, kind, (time.monotonic() - started) * 1000, status))


def proc_sample(pid: int, at: float) -> Sample | None:
    """RSS, open files (of which sockets) and threads of ``pid``, from /proc (Linux)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return None
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    sockets = 0
    for fd in fds:
        with contextlib.suppress(OSError):
            sockets += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
    return Sample(at, int(fields["VmRSS"].split()[0]), len(fds), sockets, int(fields["Threads"]))


# the clients -------------------------------------------------------------------------------
@dataclass
class SharedChat:
    chat_id: str
    script: Script
    next_index: int = 1  # 0 is the character's greeting
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    opened: bool = False

    async def take_turn(self) -> int:
        async with self.lock:
            index, self.next_index = self.next_index, self.next_index + 2
            return index


def greeting(script: Script) -> dict[str, Any]:
    return {"index": 0, "role": "assistant", "name": script.character, "text": script.pairs[0][1]}


class Client:
    def __init__(
        self,
        n: int,
        url: str,
        run: Run,
        args: argparse.Namespace,
        deadline: float,
        script: Script,
        shared: SharedChat | None,
    ) -> None:
        self.n, self.url, self.run, self.args, self.deadline = n, url, run, args, deadline
        self.script, self.shared = script, shared
        self.rng = random.Random(args.seed * 1000 + n)
        self.line = self.rng.randrange(len(script.pairs))
        self.chat_id = shared.chat_id if shared else f"solo-{n}-0"
        self.chat_no = 0
        self.next_index = 1
        self.turns_here = 0
        self.headers = {"Authorization": f"Bearer {TOKEN}", "X-BME-Client": f"soak/{n}"}

    async def request(
        self,
        session: aiohttp.ClientSession,
        kind: str,
        method: str,
        path: str,
        body: object | None,
        timeout: float,
    ) -> tuple[int, Any]:
        started = time.monotonic()
        answer: Any = None
        try:
            async with session.request(
                method, path, json=body, timeout=aiohttp.ClientTimeout(total=timeout)
            ) as r:
                raw = await r.read()
                status = r.status
            with contextlib.suppress(ValueError):
                answer = json.loads(raw)
        except (aiohttp.ClientError, TimeoutError):
            status = 599
        self.run.add(kind, started, status)
        return status, answer

    def body(self, messages: list[dict[str, Any]], complete: bool, wait: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "character": self.script.character,
            "user": self.script.user,
            "messages": messages,
            "complete": complete,
        }
        if wait:
            out["wait"] = True
        return out

    async def open_chat(self, session: aiohttp.ClientSession) -> None:
        """A freshly loaded chat goes whole (``complete: true``): here its greeting."""
        if self.shared is not None:
            async with self.shared.lock:
                if self.shared.opened:
                    return
                self.shared.opened = True
                await self.request(
                    session,
                    "sync_open",
                    "POST",
                    f"/v1/chats/{self.chat_id}/sync",
                    self.body([greeting(self.script)], True),
                    SYNC_TIMEOUT_S,
                )
            return
        self.run.chats_opened += 1
        await self.request(
            session,
            "sync_open",
            "POST",
            f"/v1/chats/{self.chat_id}/sync",
            self.body([greeting(self.script)], True),
            SYNC_TIMEOUT_S,
        )

    async def turn(self, session: aiohttp.ClientSession) -> None:
        user_text, reply_text = self.script.pairs[self.line % len(self.script.pairs)]
        self.line += 1
        if self.shared is not None:
            index = await self.shared.take_turn()
        else:
            index, self.next_index = self.next_index, self.next_index + 2
        path = f"/v1/chats/{self.chat_id}"
        status, _ = await self.request(
            session,
            "recall",
            "POST",
            f"{path}/recall",
            {"user_input": user_text, "index": index, "top_k": 8, "budget_tokens": 1500},
            RECALL_TIMEOUT_S,
        )
        if status != 200:  # the extension falls back on the recall kept for this message
            await self.request(session, "kept", "GET", f"{path}/recall/{index}", None, KEPT_TIMEOUT_S)
        await self.request(
            session,
            "sync_user",
            "POST",
            f"{path}/sync",
            self.body([{"index": index, "role": "user", "name": self.script.user, "text": user_text}], False),
            SYNC_TIMEOUT_S,
        )
        await self.request(
            session,
            "sync_reply",
            "POST",
            f"{path}/sync",
            self.body(
                [
                    {
                        "index": index + 1,
                        "role": "assistant",
                        "name": self.script.character,
                        "text": reply_text,
                    }
                ],
                False,
                wait=True,
            ),
            WAIT_SYNC_TIMEOUT_S,
        )
        self.run.turns += 1

    async def events(self, session: aiohttp.ClientSession, stop: asyncio.Event) -> None:
        """One events socket, read until ``stop`` (the client moved to another chat)."""
        try:
            async with session.ws_connect(
                "/v1/events", timeout=aiohttp.ClientWSTimeout(ws_close=5.0), heartbeat=None
            ) as ws:
                await ws.send_json({"token": TOKEN})
                reader = asyncio.ensure_future(self._read(ws))
                stopper = asyncio.ensure_future(stop.wait())
                await asyncio.wait({reader, stopper}, return_when=asyncio.FIRST_COMPLETED)
                for task in (reader, stopper):
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await task
                self.run.socket_closes["by client" if stop.is_set() else f"by server ({ws.close_code})"] += 1
        except (aiohttp.ClientError, TimeoutError) as exc:
            self.run.socket_closes[f"failed ({type(exc).__name__})"] += 1

    async def _read(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        async for msg in ws:
            if msg.type == aiohttp.WSMsgType.TEXT:
                with contextlib.suppress(ValueError, AttributeError):
                    self.run.events[str(json.loads(msg.data).get("type"))] += 1

    async def main(self) -> None:
        async with aiohttp.ClientSession(self.url, headers=self.headers) as session:
            await asyncio.sleep(self.rng.uniform(0.0, self.args.think))  # not all at once
            while time.monotonic() < self.deadline and self.run.turns < self.args.max_turns:
                stop = asyncio.Event()
                socket = asyncio.ensure_future(self.events(session, stop))
                await self.open_chat(session)
                for _ in range(self.args.turns_per_chat):
                    if time.monotonic() >= self.deadline or self.run.turns >= self.args.max_turns:
                        break
                    await self.turn(session)
                    await asyncio.sleep(self.args.think * self.rng.uniform(0.5, 1.5))
                stop.set()
                await socket
                if self.shared is None:  # the user opens another chat
                    self.chat_no += 1
                    self.chat_id = f"solo-{self.n}-{self.chat_no}"
                    self.next_index = 1


async def poll_health(url: str, run: Run, deadline: float) -> None:
    async with aiohttp.ClientSession(url) as session:
        while time.monotonic() < deadline:
            started = time.monotonic()
            try:
                async with session.get("/v1/health", timeout=aiohttp.ClientTimeout(total=10)) as r:
                    await r.read()
                    status = r.status
            except (aiohttp.ClientError, TimeoutError):
                status = 599
            run.add("health", started, status)
            await asyncio.sleep(max(0.0, HEALTH_EVERY_S - (time.monotonic() - started)))


async def sample_process(pid: int, run: Run, every: float, deadline: float) -> None:
    while True:
        found = proc_sample(pid, run.now())
        if found is not None:
            run.samples.append(found)
        if time.monotonic() >= deadline:
            return
        await asyncio.sleep(min(every, max(0.0, deadline - time.monotonic())))


async def soak(url: str, pid: int, args: argparse.Namespace, scripts: dict[str, list[Script]]) -> Run:
    run = Run()
    deadline = run.started + args.minutes * 60
    shared_clients = args.clients // 2
    groups = max(1, -(-shared_clients // args.group)) if shared_clients else 0
    shared = [
        SharedChat(
            f"shared-{k}",
            scripts["en" if k % 2 == 0 else "zh"][k // 2 % len(scripts["en" if k % 2 == 0 else "zh"])],
        )
        for k in range(groups)
    ]
    clients: list[Client] = []
    for n in range(args.clients):
        if n < shared_clients:
            chat = shared[n % groups]
            clients.append(Client(n, url, run, args, deadline, chat.script, chat))
        else:
            lang = "en" if n % 2 == 0 else "zh"
            clients.append(Client(n, url, run, args, deadline, scripts[lang][n % len(scripts[lang])], None))
    await asyncio.gather(
        poll_health(url, run, deadline),
        sample_process(pid, run, args.sample_every, deadline),
        *(c.main() for c in clients),
    )
    return run


# the report --------------------------------------------------------------------------------
def _ok(records: list[Record]) -> list[float]:
    return [r.ms for r in records if r.status < 400]


def _sample_at(samples: list[Sample], at: float) -> Sample:
    return min(samples, key=lambda s: abs(s.at - at))


def report(run: Run, args: argparse.Namespace, took: float) -> dict[str, Any]:
    by_kind = {kind: [r for r in run.records if r.kind == kind] for kind in KINDS}
    print(
        f"{run.turns} turns by {args.clients} clients in {took / 60:.1f} min; {run.chats_opened} chats of "
        f"their own opened; {sum(run.events.values())} events read "
        f"({', '.join(f'{k} {v}' for k, v in run.events.most_common())})"
    )
    print(f"events sockets closed: {dict(run.socket_closes)}")
    print(f"\n{'request':<12} {'count':>7} {'p50 ms':>9} {'p95 ms':>9} {'p99 ms':>9} {'max ms':>9}  statuses")
    out: dict[str, Any] = {
        "turns": run.turns,
        "clients": args.clients,
        "minutes": round(took / 60, 2),
        "events": dict(run.events),
        "socket_closes": dict(run.socket_closes),
        "requests": {},
    }
    for kind, records in by_kind.items():
        ok = _ok(records)
        statuses = dict(sorted(Counter(r.status for r in records).items()))
        print(
            f"{kind:<12} {len(records):>7} {pct(ok, 50):>9.1f} {pct(ok, 95):>9.1f} {pct(ok, 99):>9.1f} "
            f"{max(ok, default=float('nan')):>9.1f}  {statuses}"
        )
        out["requests"][kind] = {
            "count": len(records),
            "p50_ms": pct(ok, 50),
            "p95_ms": pct(ok, 95),
            "p99_ms": pct(ok, 99),
            "statuses": statuses,
        }
    # a 404 from GET /recall/{index} says no recall was kept for that message: an answer, not an error
    errors = Counter(
        r.status for r in run.records if r.status >= 400 and not (r.kind == "kept" and r.status == 404)
    )
    print(f"errors by status: {dict(sorted(errors.items())) or 'none'} (a kept recall's 404 is not one)")
    out["errors"] = dict(errors)

    print(
        f"\n{'minute':>6} {'turns':>6} {'sync p50':>9} {'sync p95':>9} {'recall p50':>11} {'recall p95':>11} "
        f"{'health p95':>11} {'errors':>7} {'RSS MB':>8} {'files':>6} {'socks':>6} {'threads':>8}"
    )
    minutes = max(1, int(-(-took // 60)))
    out["per_minute"] = []
    for m in range(minutes):
        here = [r for r in run.records if m * 60 <= r.at < (m + 1) * 60]
        sync = _ok([r for r in here if r.kind in ("sync_user", "sync_reply")])
        recall = _ok([r for r in here if r.kind == "recall"])
        health = _ok([r for r in here if r.kind == "health"])
        inside = [s for s in run.samples if m * 60 <= s.at < (m + 1) * 60] or run.samples[-1:]
        last = inside[-1]
        row = {
            "minute": m + 1,
            "turns": sum(1 for r in here if r.kind == "sync_reply"),
            "sync_p50": pct(sync, 50),
            "sync_p95": pct(sync, 95),
            "recall_p50": pct(recall, 50),
            "recall_p95": pct(recall, 95),
            "health_p95": pct(health, 95),
            "errors": sum(1 for r in here if r.status >= 400 and not (r.kind == "kept" and r.status == 404)),
            "rss_mb": last.rss_kb / 1024,
            "files": last.fds,
            "sockets": last.sockets,
            "threads": last.threads,
        }
        out["per_minute"].append(row)
        print(
            f"{m + 1:>6} {row['turns']:>6} {row['sync_p50']:>9.1f} {row['sync_p95']:>9.1f} "
            f"{row['recall_p50']:>11.1f} {row['recall_p95']:>11.1f} {row['health_p95']:>11.1f} "
            f"{row['errors']:>7} {row['rss_mb']:>8.1f} {row['files']:>6} {row['sockets']:>6} "
            f"{row['threads']:>8}"
        )

    if run.samples:
        ready, end = run.samples[0], run.samples[-1]
        start = _sample_at(run.samples, min(60.0, end.at / 4))  # the model loaded, every client at work
        middle = _sample_at(run.samples, end.at / 2)
        points = (("ready", ready), ("start", start), ("middle", middle), ("end", end))
        print(
            f"\n{'serve process':<14} {'at s':>7} {'RSS MB':>8} {'open files':>11} {'sockets':>8} "
            f"{'threads':>8}"
        )
        for label, s in points:
            print(
                f"{label:<14} {s.at:>7.0f} {s.rss_kb / 1024:>8.1f} {s.fds:>11} {s.sockets:>8} {s.threads:>8}"
            )
        peak = max(s.rss_kb for s in run.samples)
        growth = (end.rss_kb - middle.rss_kb) / middle.rss_kb * 100
        # a steadier reading: the median of the samples in the second and the last quarter
        quarter = [
            statistics.median(
                s.rss_kb for s in run.samples if q * end.at / 4 <= s.at <= (q + 1) * end.at / 4 or s is end
            )
            for q in (1, 3)
        ]
        steady = (quarter[1] - quarter[0]) / quarter[0] * 100
        verdict = "met" if growth < 5 else "NOT met"
        print(
            f"peak RSS {peak / 1024:.1f} MB; RSS growth over the last half {growth:+.1f} % (target < 5 %: "
            f"{verdict}); "
            f"median of the last quarter vs the second {steady:+.1f} %"
        )
        out["process"] = {
            label: {
                "at_s": round(s.at, 1),
                "rss_mb": round(s.rss_kb / 1024, 1),
                "open_files": s.fds,
                "sockets": s.sockets,
                "threads": s.threads,
            }
            for label, s in points
        }
        out["rss_growth_last_half_pct"] = round(growth, 2)
        out["rss_peak_mb"] = round(peak / 1024, 1)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--group", type=int, default=5, help="clients sharing one chat (the shared half)")
    parser.add_argument(
        "--turns-per-chat",
        type=int,
        default=12,
        help="turns before a client with chats of its own opens a new one",
    )
    parser.add_argument(
        "--think", type=float, default=2.0, help="seconds between a reply and the next message (mean; ±50 %%)"
    )
    parser.add_argument("--max-turns", type=int, default=100_000, help="stop after this many turns in all")
    parser.add_argument("--sample-every", type=float, default=5.0, help="seconds between /proc samples")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--data",
        type=Path,
        default=ROOT.parent / "shared" / "data",
        help="benchmark data folder for the lines (built-in lines without it)",
    )
    parser.add_argument(
        "--default-rate-limit",
        action="store_true",
        help="keep the bridge's default per-client rate limit (200/s, burst 400)",
    )
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--keep-log", type=Path, help="copy the server's log (stderr) here")
    args = parser.parse_args()
    if args.minutes <= 0 or args.clients < 1:
        parser.error("--minutes and --clients must be positive")
    scripts = load_scripts(args.data)
    print(
        f"lines: {sum(len(s.pairs) for s in scripts['en'])} English and "
        f"{sum(len(s.pairs) for s in scripts['zh'])} Chinese turn pairs; {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    with tempfile.TemporaryDirectory(prefix="bme-soak-") as tmp:
        log_path = Path(tmp) / "serve.log"
        with log_path.open("w", encoding="utf-8") as log:
            proc, url = start_bridge(
                Path(tmp) / "data",
                TOKEN,
                __file__,
                False,
                stderr=log,
                lift_rate_limit=not args.default_rate_limit,
            )
        ready = proc_sample(proc.pid, 0.0)
        if ready is not None:
            print(
                f"serve pid {proc.pid} at {url}, ready: RSS {ready.rss_kb / 1024:.1f} MB, {ready.fds} open "
                "files, "
                f"{ready.threads} threads"
            )
        started = time.monotonic()
        try:
            run = asyncio.run(asyncio.wait_for(soak(url, proc.pid, args, scripts), args.minutes * 60 + 180))
            figures = report(run, args, time.monotonic() - started)
        finally:
            stopping = time.monotonic()
            proc.send_signal(signal.SIGTERM)
            try:
                code = proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                code = proc.wait()
            print(f"serve exited with {code} {time.monotonic() - stopping:.1f} s after SIGTERM")
            text = log_path.read_text(encoding="utf-8", errors="replace")
            lines = text.splitlines()
            tracebacks = text.count("Traceback (most recent call last)")
            # serve logs warnings and errors, one message a line, with tracebacks indented below
            warnings = [ln for ln in lines if ln and not ln[0].isspace() and not ln.startswith("Traceback")]
            print(f"server log: {len(lines)} lines, {len(warnings)} messages, {tracebacks} tracebacks")
            for message, count in Counter(ln[:160] for ln in warnings).most_common(8):
                print(f"  {count} × {message}")
            if args.keep_log:
                args.keep_log.write_text(text, encoding="utf-8")
        if args.json:
            figures["serve_exit"] = code
            figures["log"] = {"lines": len(lines), "tracebacks": tracebacks, "warnings": len(warnings)}
            args.json.write_text(json.dumps(figures, indent=2, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
