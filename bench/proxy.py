"""What the OpenAI-compatible memory proxy adds over calling the upstream directly.

    .venv/bin/python bench/proxy.py                    # defaults: 200-message chat, 150 turns
    .venv/bin/python bench/proxy.py --history 1000 --turns 100 --stream-turns 40

Starts the fake OpenAI-compatible server (tests/fakes) in this process and
``python -m bme_desktop serve`` (all pipelines: extraction, embeddings, recall) on a fresh data
dir whose proxy points at the fake. A chat of ``--history`` messages with ``--memories``
memories is seeded, then every turn sends the whole history plus a new user message three
ways, interleaved: straight to the fake ("direct"), through the proxy with memory off
(``X-BME-Memory: off``: the relay alone), and through the proxy with memory (sync, recall,
injection, relay, reply sync). The chat grows by one exchange per turn, as a real one does.

The proxy reports its own time before forwarding in ``Server-Timing`` (bme-sync, bme-recall,
bme-proxy); "added besides recall" is each turn's proxied time minus its direct time minus its
recall. Streaming: time to the first content chunk (TTFT) and to the end, direct vs proxied.

``--bare`` serves the bridge over a core with no pipelines attached (no extraction, keyword
recall), so no background extraction or embedding competes with the proxy for the CPU: what
the proxy itself costs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from bench_common import WORDS, pct, serve_bare, start_bridge, words  # noqa: E402
from fakes.openai_server import FakeOpenAIServer, Reply  # noqa: E402

TOKEN = "bench-token-" + "p" * 40
AUTH = {"Authorization": f"Bearer {TOKEN}"}
CHAT = "bench-proxy"
REPLY = (
    "The ferry rocks as the lantern swings; Sera points at the far bank where the mill stands, "
    "its wheel still turning in the storm."
)


def server_timing(header: str | None) -> dict[str, float]:
    out: dict[str, float] = {}
    for part in (header or "").split(","):
        name, _, rest = part.strip().partition(";dur=")
        if rest:
            out[name] = float(rest)
    return out


def seed(bridge: httpx.Client, history: list[dict[str, Any]], memories: int) -> float:
    started = time.perf_counter()
    messages = [{"index": i, "role": m["role"], "text": m["content"]} for i, m in enumerate(history[1:])]
    r = bridge.post(
        f"/v1/chats/{CHAT}/sync", json={"messages": messages, "complete": True, "wait": True}, timeout=600
    )
    r.raise_for_status()
    for i in range(memories):
        bridge.post(
            f"/v1/chats/{CHAT}/nodes",
            json={
                "type": "event",
                "fields": {"summary": f"Memory {i}: {words(i, 12)}."},
                "source_indices": [i % max(1, len(messages))],
            },
        ).raise_for_status()
    return time.perf_counter() - started


def timed_post(
    client: httpx.Client, path: str, body: dict[str, Any], headers: dict[str, str] | None = None
) -> tuple[float, httpx.Response]:
    started = time.perf_counter()
    r = client.post(path, json=body, headers=headers)
    r.read()
    elapsed = (time.perf_counter() - started) * 1000
    if r.status_code != 200:
        raise SystemExit(f"{path}: {r.status_code} {r.text[:300]}")
    return elapsed, r


def timed_stream(
    client: httpx.Client, body: dict[str, Any], headers: dict[str, str] | None = None
) -> tuple[float, float]:
    """(ms to the first content chunk, ms to the end)."""
    started = time.perf_counter()
    first = float("nan")
    with client.stream("POST", "/chat/completions", json={**body, "stream": True}, headers=headers) as r:
        if r.status_code != 200:
            raise SystemExit(f"stream: {r.status_code}")
        for line in r.iter_lines():
            if (
                first != first
                and line.startswith("data: {")
                and '"content": "' in line
                and '"content": ""' not in line
            ):
                first = (time.perf_counter() - started) * 1000
    return first, (time.perf_counter() - started) * 1000


def row(label: str, values: list[float]) -> str:
    return (
        f"  {label:<34} p50 {pct(values, 50):8.2f}   p95 {pct(values, 95):8.2f}"
        f"   mean {statistics.fmean(values):8.2f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--history", type=int, default=200, help="messages in the chat before the first turn")
    parser.add_argument("--memories", type=int, default=300, help="memories seeded for recall to find")
    parser.add_argument("--turns", type=int, default=150)
    parser.add_argument("--stream-turns", type=int, default=40)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--bare", action="store_true", help="a core with no pipelines (keyword recall)")
    parser.add_argument("--serve-bare", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_bare:
        return serve_bare(Path(args.serve_bare), TOKEN)

    history: list[dict[str, Any]] = [
        {"role": "system", "content": "You are Sera, a ferrywoman. " + words(1, 60)}
    ]
    for i in range(args.history):
        role = "user" if i % 2 == 0 else "assistant"
        history.append({"role": role, "content": f"Turn {i}: {words(i, 40)}."})
    if history[-1]["role"] == "user":
        history.append({"role": "assistant", "content": REPLY})

    with FakeOpenAIServer() as fake, tempfile.TemporaryDirectory(prefix="bme-bench-proxy-") as tmp:
        fake.responder = lambda _request: Reply.text(REPLY, chunk_size=8)
        proc, url = start_bridge(
            Path(tmp) / "data", TOKEN, __file__, args.bare, {"proxy": {"upstream_base_url": fake.base_url}}
        )
        try:
            with (
                httpx.Client(base_url=url, headers=AUTH, timeout=120) as bridge,
                httpx.Client(
                    base_url=url + "/v1", headers={**AUTH, "X-BME-Chat": CHAT}, timeout=120
                ) as proxy,
                httpx.Client(base_url=fake.base_url, timeout=120) as direct,
            ):
                seconds = seed(bridge, history, args.memories)
                print(
                    f"{'bare core (keyword recall, no extraction)' if args.bare else 'all pipelines'}: "
                    "seeded "
                    f"{args.history} messages and {args.memories} memories in {seconds:.1f} s"
                )
                results: dict[str, list[float]] = {
                    k: []
                    for k in (
                        "direct",
                        "relay",
                        "proxied",
                        "sync",
                        "recall",
                        "before",
                        "added",
                        "added_relay",
                        "besides_recall",
                    )
                }
                injected = 0
                for n in range(args.warmup + args.turns):
                    user = {
                        "role": "user",
                        "content": f"What about the {WORDS[n % len(WORDS)]}? {words(n, 12)}",
                    }
                    body = {"model": "fake-chat", "messages": [*history, user]}
                    order = n % 3
                    times: dict[str, float] = {}
                    response: httpx.Response | None = None
                    for step in range(3):
                        kind = ("direct", "relay", "proxied")[(order + step) % 3]
                        if kind == "direct":
                            times[kind], _ = timed_post(direct, "/chat/completions", body)
                        elif kind == "relay":
                            times[kind], _ = timed_post(
                                proxy, "/chat/completions", body, {"X-BME-Memory": "off"}
                            )
                        else:
                            times[kind], response = timed_post(proxy, "/chat/completions", body)
                    assert response is not None
                    history += [user, {"role": "assistant", "content": REPLY}]
                    if n < args.warmup:
                        continue
                    timing = server_timing(response.headers.get("server-timing"))
                    injected += response.headers.get("x-bme-memory") == "injected"
                    for kind in ("direct", "relay", "proxied"):
                        results[kind].append(times[kind])
                    results["sync"].append(timing["bme-sync"])
                    results["recall"].append(timing["bme-recall"])
                    results["before"].append(timing["bme-proxy"])
                    results["added"].append(times["proxied"] - times["direct"])
                    results["added_relay"].append(times["relay"] - times["direct"])
                    results["besides_recall"].append(
                        times["proxied"] - times["direct"] - timing["bme-recall"]
                    )

                stream_direct: list[tuple[float, float]] = []
                stream_proxied: list[tuple[float, float]] = []
                fake.responder = lambda _request: Reply.text(REPLY, chunk_size=8, chunk_delay=0.002)
                for n in range(args.stream_turns):
                    user = {
                        "role": "user",
                        "content": f"And the {WORDS[(n + 3) % len(WORDS)]}? {words(n + 5, 12)}",
                    }
                    body = {"model": "fake-chat", "messages": [*history, user]}
                    if n % 2:
                        stream_direct.append(timed_stream(direct, body))
                        stream_proxied.append(timed_stream(proxy, body))
                    else:
                        stream_proxied.append(timed_stream(proxy, body))
                        stream_direct.append(timed_stream(direct, body))
                    history += [user, {"role": "assistant", "content": REPLY}]
                chat = bridge.get(f"/v1/chats/{CHAT}").json()
        finally:
            proc.terminate()
            proc.wait(30)

    final = args.history + 2 * (args.warmup + args.turns + args.stream_turns)
    print(
        f"\nnon-streaming, {args.turns} turns (chat grows {args.history} -> {final} messages; "
        f"memory injected on {injected}/{args.turns}; stored messages at the end: {chat['message_count']})"
    )
    print("latency (ms)")
    print(row("direct to the fake upstream", results["direct"]))
    print(row("proxy, memory off (relay only)", results["relay"]))
    print(row("proxy, memory on", results["proxied"]))
    print("inside the proxy, before forwarding (Server-Timing, ms)")
    print(row("sync of the request's chat", results["sync"]))
    print(row("recall", results["recall"]))
    print(row("all of it (parse, sync, recall, inject)", results["before"]))
    print("added over direct, paired per turn (ms)")
    print(row("relay only", results["added_relay"]))
    print(row("memory on", results["added"]))
    print(row("memory on, besides recall", results["besides_recall"]))
    ttft_d = [f for f, _ in stream_direct]
    ttft_p = [f for f, _ in stream_proxied]
    print(f"\nstreaming, {args.stream_turns} turns ({len(REPLY) // 8 + 1} content chunks 2 ms apart)")
    print(row("TTFT direct", ttft_d))
    print(row("TTFT proxy, memory on", ttft_p))
    print(row("TTFT added (paired)", [p - d for p, d in zip(ttft_p, ttft_d, strict=True)]))
    print(row("whole stream direct", [t for _, t in stream_direct]))
    print(row("whole stream proxy", [t for _, t in stream_proxied]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
