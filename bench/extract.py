"""Throughput of the write path: sync + extraction.

1. A 2,000-message chat through the heuristic extractor, two ways: one complete sync of the
   whole chat (then waiting for extraction), and a live chat synced turn by turn with
   ``wait=True`` (the frontend's pattern).
2. Bookkeeping overhead per batch with a fake LLM that answers at once: wall time per batch
   minus the time spent inside the model call (prompt building, graph context, HTTP,
   parsing, validation, applying, journaling, committing).

    .venv/bin/python bench/extract.py [--messages 2000] [--llm-messages 200]

Only the extraction pipeline is attached, so other pipelines' background work is not
counted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bme_desktop.core.extract.llm_extractor import ModelProvider
from bme_desktop.core.extract.scheduler import attach
from bme_desktop.core.model import MessageIn
from bme_desktop.core.service import MemoryService
from bme_desktop.core.settings import Settings
from tests.fakes.openai_server import FakeOpenAIServer, Reply

NAMES = ("Marcus", "Alice", "Elena", "Borin", "Kael", "Mira")
PLACES = ("the Silver Tavern", "Rivertown", "the Old Mill", "Stormhold Castle", "the Ashwood Forest")
USER_LINES = (
    "Where did {n} go?",
    "I love {f}.",
    "Let us travel to {p}.",
    "My birthday is in {m}.",
    "Tell me more about {n}.",
    "What happens next?",
    "I never eat {f}.",
    "记住，我喜欢{zf}。",
)
REPLY_LINES = (
    "{n} walked into {p} and looked around.",
    "{n} says that you must always pay first.",
    "The wind howls over {p}. {n} smiles at {n2}.",
    "{n} remembers the old days in {p}.",
    "Nothing much happens; {n} waits.",
    "{n}在{zp}等你。",
)
FOODS = ("green tea", "apple pie", "fish", "mushrooms")
MONTHS = ("May", "June", "October")


def make_chat(count: int, seed: int = 7) -> list[MessageIn]:
    rng = random.Random(seed)
    out: list[MessageIn] = []
    for i in range(count):
        role = "user" if i % 2 == 0 else "assistant"
        lines = USER_LINES if role == "user" else REPLY_LINES
        text = " ".join(
            rng.choice(lines).format(
                n=rng.choice(NAMES),
                n2=rng.choice(NAMES),
                p=rng.choice(PLACES),
                f=rng.choice(FOODS),
                m=rng.choice(MONTHS),
                zf="喝茶",
                zp="北京",
            )
            for _ in range(rng.randint(1, 3))
        )
        out.append(MessageIn(i, role, text, name="Tom" if role == "user" else "Alice"))
    return out


def open_service(path: Path, settings: Settings | None = None) -> MemoryService:
    svc = MemoryService.open(path, settings=settings or Settings(), attach=False)
    attach(svc)
    return svc


def bench_bulk(messages: list[MessageIn]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        svc = open_service(Path(tmp))
        svc.sync("warm", messages[:2], complete=True, wait=True)  # loads jieba
        start = time.perf_counter()
        result = svc.sync("c", messages, complete=True, wait=True, wait_timeout=3600).value
        elapsed = time.perf_counter() - start
        stats = svc.chat_stats("c")
        svc.close()
    print(
        f"bulk sync of {len(messages)} messages: {elapsed:.2f} s = {len(messages) / elapsed:.0f} msg/s, "
        f"{result.done} batches ({elapsed / max(1, result.done) * 1000:.1f} ms/batch), "
        f"{stats.node_count} memories, {stats.edge_count} edges"
    )


def bench_live(messages: list[MessageIn]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        svc = open_service(Path(tmp))
        svc.sync("warm", messages[:2], complete=True, wait=True)
        per_turn: list[float] = []
        start = time.perf_counter()
        for i in range(0, len(messages), 2):
            t0 = time.perf_counter()
            svc.sync("c", messages[i : i + 2], wait=True, wait_timeout=600)
            per_turn.append(time.perf_counter() - t0)
        elapsed = time.perf_counter() - start
        svc.close()
    per_turn.sort()
    print(
        f"live sync turn by turn ({len(per_turn)} turns): {elapsed:.2f} s = {len(messages) / elapsed:.0f} "
        "msg/s; "
        f"per turn median {statistics.median(per_turn) * 1000:.1f} ms, "
        f"p95 {per_turn[int(len(per_turn) * 0.95)] * 1000:.1f} ms, max {per_turn[-1] * 1000:.1f} ms"
    )


def bench_llm_overhead(messages: list[MessageIn]) -> None:
    reply = Reply.json(
        {
            "operations": [
                {
                    "action": "create",
                    "type": "event",
                    "ref": "e",
                    "fields": {"summary": "Something happened"},
                    "links": [{"to": "c", "relation": "occurred_at"}],
                },
                {"action": "create", "type": "location", "ref": "c", "fields": {"name": "Rivertown"}},
                {
                    "action": "create",
                    "type": "character",
                    "ref": "m",
                    "fields": {"name": "Marcus", "state": "busy"},
                    "links": [{"to": "e", "relation": "involved_in"}],
                },
            ],
            "cognition": [{"owner": "Marcus", "knows": ["e"]}],
        }
    )
    with FakeOpenAIServer(responder=lambda _request: reply) as server, tempfile.TemporaryDirectory() as tmp:
        settings = Settings()
        settings.llm.enabled, settings.llm.base_url, settings.llm.model = True, server.base_url, "fake-chat"
        svc = open_service(Path(tmp), settings)
        provider = svc.extraction.runner.model  # type: ignore[attr-defined]
        assert isinstance(provider, ModelProvider)
        extractor = provider()
        assert extractor is not None
        in_model: list[float] = []
        original = extractor.client.chat_json

        def timed(*args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                in_model.append(time.perf_counter() - t0)

        extractor.client.chat_json = timed  # type: ignore[method-assign]
        svc.sync("warm", messages[:2], complete=True, wait=True)
        in_model.clear()
        start = time.perf_counter()
        result = svc.sync("c", messages, complete=True, wait=True, wait_timeout=3600).value
        elapsed = time.perf_counter() - start
        svc.close()
    batches = max(1, result.done)
    overhead = (elapsed - sum(in_model)) / batches * 1000
    print(
        f"fake-LLM extraction of {len(messages)} messages: {batches} batches, {elapsed / batches * 1000:.1f} "
        "ms/batch "
        f"wall, {sum(in_model) / batches * 1000:.1f} ms in the model call (HTTP round trip to the fake), "
        f"bookkeeping overhead {overhead:.1f} ms/batch"
    )


def main() -> None:
    from bme_desktop.runtime_tuning import limit_blas

    limit_blas()  # the process-wide BLAS cap, as the entry points apply it
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--llm-messages", type=int, default=200)
    args = parser.parse_args()
    chat = make_chat(args.messages)
    bench_bulk(chat)
    bench_live(chat)
    bench_llm_overhead(make_chat(args.llm_messages, seed=11))


if __name__ == "__main__":
    main()
