"""MemoryBank-CN recall benchmark through the real bridge (see /work/shared/data/README.md).

    .venv/bin/python bench/memorybank_recall.py /work/shared/data/memorybank-cn-dev.json

Each user's messages are pushed through ``sync`` as given (pair by pair, with ``wait``); each
question is recalled with ``top_k=25`` and scored over ``evidence_indices`` like LoCoMo
(R@k, MRR, strict R@10, injected tokens), beside BM25 over raw messages (our tokenizer:
jieba words and character bigrams) in the same run. Printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from locomo_recall import (
    Question,
    Scores,
    bm25_turns,
    dense_turns,
    evaluate,
    ingest,
    report,
    running_bridge,
    wait_for_vectors,
)

from bme_desktop.core.model import MessageIn


def memorybank_messages(user: dict[str, Any]) -> list[MessageIn]:
    return [
        MessageIn(index=m["index"], role=m["role"], text=m["text"], name=m.get("name"), time=m.get("time"))
        for m in user["messages"]
    ]


def memorybank_questions(user: dict[str, Any]) -> list[Question]:
    return [
        Question(q["question"], set(q["evidence_indices"]), 0)
        for q in user["questions"]
        if q.get("evidence_indices")
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("path", type=Path)
    parser.add_argument("--no-dense-baseline", action="store_true")
    args = parser.parse_args()
    users = json.loads(args.path.read_text(encoding="utf-8"))
    names = ["bme hybrid recall", "BM25 raw messages", "dense raw messages (default local embedder)"]
    results: dict[str, dict[int, Scores]] = {n: {} for n in names}
    with running_bridge() as client:
        for number, user in enumerate(users):
            messages = memorybank_messages(user)
            chat_id = f"memorybank-{number}"
            character = next((m.name for m in messages if m.role == "assistant" and m.name), None)
            ingest_s = ingest(client, chat_id, messages, character=character, user=user["user"])
            embed_s = wait_for_vectors(client, chat_id, "我们聊过什么？")
            questions = memorybank_questions(user)
            baselines = {"BM25 raw messages": bm25_turns(messages)}
            if not args.no_dense_baseline:
                baselines["dense raw messages (default local embedder)"] = dense_turns(messages)
            t0 = time.monotonic()
            evaluate(client, chat_id, questions, baselines, results)
            print(
                f"{chat_id}: {len(messages)} messages, ingest {ingest_s:.1f} s (+{embed_s:.1f} s until "
                "embedded), "
                f"{len(questions)} questions in {time.monotonic() - t0:.1f} s",
                flush=True,
            )
    if args.no_dense_baseline:
        results.pop("dense raw messages (default local embedder)")
    print()
    report(results, (0,))


if __name__ == "__main__":
    main()
