"""LoCoMo recall benchmark through the real bridge (see /work/shared/data/README.md).

    .venv/bin/python bench/locomo_recall.py /work/shared/data/locomo-dev.json [--limit-conversations N]

Each conversation is pushed turn pair by turn pair through ``bme-desktop serve --port 0`` (a
subprocess on a temporary data folder, sync with ``wait``); once its memories are embedded,
every question with evidence is recalled with ``top_k=25``. A question's evidence turn counts
as recalled when it is among the ``source_indices`` of a returned memory. Printed: R@1/5/10/25,
MRR, strict R@10 (only memories with <= 4 source turns count; wider ones still take their
rank), injected tokens per query, ingest time; per category and pooled (categories 1-4), with
two raw-turn baselines in the same run (BM25 with our tokenizer, dense with the default
local embedder, both over "speaker: text"). Questions are asked out of the chat's flow, so the recall sends
empty
``last_reply``/``previous_input`` (otherwise the end of the chat would be blended in).
Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bme_desktop.bridge.client import BridgeClient, chat_path  # noqa: E402
from bme_desktop.core.model import MessageIn  # noqa: E402

KS = (1, 5, 10, 25)
STRICT_SPAN = 4
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}


@dataclass
class Question:
    text: str
    evidence: set[int]
    category: int


@dataclass
class Scores:
    """Per-question figures, pooled by the caller."""

    recall: dict[int, list[float]] = field(default_factory=lambda: {k: [] for k in KS})
    strict10: list[float] = field(default_factory=list)
    rr: list[float] = field(default_factory=list)
    tokens: list[float] = field(default_factory=list)

    def add(self, ranked_sources: Sequence[Sequence[int]], evidence: set[int], tokens: float = 0.0) -> None:
        for k in KS:
            got: set[int] = set()
            for src in ranked_sources[:k]:
                got |= set(src)
            self.recall[k].append(len(got & evidence) / len(evidence))
        strict: set[int] = set()
        for src in ranked_sources[:10]:
            if len(src) <= STRICT_SPAN:
                strict |= set(src)
        self.strict10.append(len(strict & evidence) / len(evidence))
        rank = next((i + 1 for i, src in enumerate(ranked_sources) if set(src) & evidence), None)
        self.rr.append(1.0 / rank if rank else 0.0)
        self.tokens.append(tokens)

    def merge(self, other: Scores) -> None:
        for k in KS:
            self.recall[k] += other.recall[k]
        self.strict10 += other.strict10
        self.rr += other.rr
        self.tokens += other.tokens

    def summary(self) -> dict[str, float]:
        """The pooled figures by name (``n``, ``R@k``, ``MRR``, ``strict R@10``, ``tokens``)."""
        n = len(self.rr)
        out: dict[str, float] = {"n": float(n)}
        if n:
            out |= {f"R@{k}": sum(self.recall[k]) / n for k in KS}
            out |= {
                "MRR": sum(self.rr) / n,
                "strict R@10": sum(self.strict10) / n,
                "tokens": sum(self.tokens) / n,
            }
        return out

    def row(self, name: str) -> str:
        n = len(self.rr)
        if not n:
            return f"| {name} | 0 |"
        cells = [f"{sum(self.recall[k]) / n:.3f}" for k in KS]
        return (
            f"| {name} | {n} | " + " | ".join(cells) + f" | {sum(self.rr) / n:.3f} | "
            f"{sum(self.strict10) / n:.3f} | {sum(self.tokens) / n:.0f} |"
        )


HEADER = (
    "| method | n | R@1 | R@5 | R@10 | R@25 | MRR | strict R@10 | tokens/query |\n"
    "|---|---|---|---|---|---|---|---|---|"
)


# bridge -------------------------------------------------------------------------------------
@contextmanager
def running_bridge(
    settings: Mapping[str, Any] | None = None,
    extra_env: Mapping[str, str] | None = None,
    database_url: str | None = None,
) -> Iterator[BridgeClient]:
    """``bme-desktop serve`` on a fresh temporary data folder (with ``settings`` as its
    settings.json when given, ``extra_env`` in its environment, and on ``database_url``
    instead of the folder's SQLite file when given)."""
    token = secrets.token_urlsafe(24)
    with tempfile.TemporaryDirectory(prefix="bme-bench-") as data_dir:
        if settings:
            (Path(data_dir) / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
        env = {
            **os.environ,
            "BME_BRIDGE_TOKEN": token,
            "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
            **(extra_env or {}),
        }
        command = [sys.executable, "-m", "bme_desktop", "serve", "--port", "0", "--data-dir", data_dir]
        if database_url:
            command += ["--database-url", database_url]
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            if not line:
                raise RuntimeError("bme-desktop serve exited before it was ready")
            url = json.loads(line)["url"]
            with BridgeClient(url, token, timeout=600.0) as client:
                yield client
        finally:
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()


def recall(client: BridgeClient, chat_id: str, question: str, top_k: int = 25) -> dict[str, Any]:
    body = {
        "user_input": question,
        "top_k": top_k,
        "budget_tokens": 32000,
        "last_reply": "",
        "previous_input": "",
    }
    return dict(client.request("POST", chat_path(chat_id, "recall"), body=body))


def wait_for_vectors(client: BridgeClient, chat_id: str, probe: str, limit_s: float = 1800.0) -> float:
    """Recall a probe until no stage says memories are still being embedded."""
    start = time.monotonic()
    while time.monotonic() - start < limit_s:
        skipped = recall(client, chat_id, probe, top_k=1).get("skipped_stages", [])
        if not any("embedded" in s or "embedder busy" in s for s in skipped):
            return time.monotonic() - start
        time.sleep(1.0)
    return time.monotonic() - start


def ingest(
    client: BridgeClient, chat_id: str, messages: Sequence[MessageIn], character: str | None, user: str | None
) -> float:
    start = time.monotonic()
    pending: list[MessageIn] = []
    for m in messages:
        pending.append(m)
        if m.role == "assistant":
            client.sync(chat_id, pending, wait=True, character=character, user=user)
            pending = []
    if pending:
        client.sync(chat_id, pending, wait=True, character=character, user=user)
    return time.monotonic() - start


# baselines ----------------------------------------------------------------------------------
def turn_text(m: MessageIn) -> str:
    """A raw turn as the baselines index it: with its speaker's name, as the memories have it."""
    return f"{m.name}: {m.text}" if m.name else m.text


def bm25_turns(messages: Sequence[MessageIn]) -> Callable[[str], list[list[int]]]:
    from bme_desktop.core.recall.lexical import BM25Index

    index = BM25Index()
    index.add_many((str(m.index), {"body": turn_text(m)}) for m in messages)
    return lambda q: [[int(h.doc_id)] for h in index.search(q, k=25)]


def dense_turns(messages: Sequence[MessageIn]) -> Callable[[str], list[list[int]]]:
    import numpy as np

    from bme_desktop.core.providers.local_embedder import make_default_local_embedder

    embedder = make_default_local_embedder()
    matrix = np.concatenate(
        [embedder.embed([turn_text(m) for m in messages[i : i + 32]]) for i in range(0, len(messages), 32)]
    )

    def search(q: str) -> list[list[int]]:
        sims = matrix @ embedder.embed_query([q])[0]
        return [[messages[int(i)].index] for i in np.argsort(-sims)[:25]]

    return search


# LoCoMo -------------------------------------------------------------------------------------
def locomo_messages(sample: dict[str, Any]) -> tuple[list[MessageIn], dict[str, int], str, str]:
    conv = sample["conversation"]
    a, b = conv["speaker_a"], conv["speaker_b"]
    sessions = sorted(
        (int(k.split("_")[1]), v)
        for k, v in conv.items()
        if re.fullmatch(r"session_\d+", k) and isinstance(v, list)
    )
    messages: list[MessageIn] = []
    ids: dict[str, int] = {}
    for number, turns in sessions:
        when = iso_time(conv.get(f"session_{number}_date_time"))
        for turn in turns:
            text = turn["text"]
            if turn.get("blip_caption"):
                text += f" [shares a photo: {turn['blip_caption']}]"
            index = len(messages)
            ids[turn["dia_id"]] = index
            role = "user" if turn["speaker"] == a else "assistant"
            messages.append(MessageIn(index=index, role=role, text=text, name=turn["speaker"], time=when))
    return messages, ids, a, b


def iso_time(value: str | None) -> str | None:
    """ "1:56 pm on 8 May, 2023" -> "2023-05-08T13:56:00Z" (the bridge takes ISO 8601)."""
    if not value:
        return None
    from datetime import datetime

    try:
        return datetime.strptime(value.strip(), "%I:%M %p on %d %B, %Y").strftime("%Y-%m-%dT%H:%M:00Z")
    except ValueError:
        return None


def parse_evidence(raw: Sequence[str], ids: dict[str, int]) -> set[int]:
    out: set[int] = set()
    for item in raw:
        for session, turn in re.findall(r"D:?(\d+):(\d+)", str(item)):
            key = f"D{int(session)}:{int(turn)}"
            if key in ids:
                out.add(ids[key])
    return out


def locomo_questions(sample: dict[str, Any], ids: dict[str, int]) -> list[Question]:
    """The sample's questions that have evidence among the turns."""
    return [
        Question(q["question"], ev, int(q["category"]))
        for q in sample["qa"]
        if (ev := parse_evidence(q.get("evidence", []), ids))
    ]


def evaluate(
    client: BridgeClient,
    chat_id: str,
    questions: Sequence[Question],
    baselines: dict[str, Callable[[str], list[list[int]]]],
    results: dict[str, dict[int, Scores]],
    method: str = "bme hybrid recall",
) -> None:
    """Ask each question (lab style: no ``index``, ``top_k=25``) and score it under ``method`` in
    ``results``, and each baseline under its name."""
    for q in questions:
        answer = recall(client, chat_id, q.text)
        sources = [list(n.get("source_indices", [])) for n in answer["nodes"]]
        results[method].setdefault(q.category, Scores()).add(
            sources, q.evidence, float(answer["token_estimate"])
        )
        for name, search in baselines.items():
            results[name].setdefault(q.category, Scores()).add(search(q.text), q.evidence)


def pooled(per_cat: dict[int, Scores], categories: Sequence[int]) -> Scores:
    out = Scores()
    for cat in categories:
        if cat in per_cat:
            out.merge(per_cat[cat])
    return out


def report(
    results: dict[str, dict[int, Scores]], pooled_categories: Sequence[int], per_category: bool = True
) -> None:
    print(HEADER)
    for name, per_cat in results.items():
        print(pooled(per_cat, pooled_categories).row(f"{name} (pooled)"))
    if not per_category:
        return
    for cat in sorted({c for per in results.values() for c in per}):
        print(f"\ncategory {cat} ({CATEGORIES.get(cat, cat)})")
        print(HEADER)
        for name, per_cat in results.items():
            if cat in per_cat:
                print(per_cat[cat].row(name))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("path", type=Path)
    parser.add_argument("--limit-conversations", type=int, default=None)
    parser.add_argument("--no-dense-baseline", action="store_true")
    args = parser.parse_args()
    samples = json.loads(args.path.read_text(encoding="utf-8"))[: args.limit_conversations]
    names = ["bme hybrid recall", "BM25 raw turns", "dense raw turns (default local embedder)"]
    results: dict[str, dict[int, Scores]] = {n: {} for n in names}
    with running_bridge() as client:
        for sample in samples:
            messages, ids, a, b = locomo_messages(sample)
            chat_id = sample["sample_id"]
            ingest_s = ingest(client, chat_id, messages, character=b, user=a)
            embed_s = wait_for_vectors(client, chat_id, f"What did {a} do?")
            questions = locomo_questions(sample, ids)
            baselines = {"BM25 raw turns": bm25_turns(messages)}
            if not args.no_dense_baseline:
                baselines["dense raw turns (default local embedder)"] = dense_turns(messages)
            t0 = time.monotonic()
            evaluate(client, chat_id, questions, baselines, results)
            stats = client.chat(chat_id)
            print(
                f"{chat_id}: {len(messages)} turns, {stats.get('node_count')} memories, ingest "
                f"{ingest_s:.1f} s "
                f"(+{embed_s:.1f} s until embedded), {len(questions)} questions in "
                f"{time.monotonic() - t0:.1f} s",
                flush=True,
            )
    if args.no_dense_baseline:
        results.pop("dense raw turns (default local embedder)")
    print()
    report(results, (1, 2, 3, 4))


if __name__ == "__main__":
    main()
