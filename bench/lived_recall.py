"""Lived recall: LoCoMo and MemoryBank replayed as a user lives the chat (issue 14, item 3).

    .venv/bin/python bench/lived_recall.py [--dataset locomo|memorybank|both] [--limit N] [--no-lab]
                                           [--json out.json] [--settings '{"lifecycle": {"audit_mode":
                                           "none"}}']

Needs libfaketime (Debian/Ubuntu: ``apt-get install -y faketime``); without it the bench says
so and exits 2.

The lab benchmarks (``locomo_recall.py``, ``memorybank_recall.py``) push a whole conversation
with the server's clock at today's date, then ask every question. Here each conversation gets
its own ``bme-desktop serve`` (a subprocess on its own temporary data folder, default settings
plus ``--settings``; the rate limits are lifted so that a fast replay is never refused) and is
replayed message by message the way the SillyTavern extension drives a chat
(``resources/sillytavern-extension/lib/core.js`` and ``lib/sync.js``):

- the chat is opened: a complete sync of the (still empty) chat, as on ``CHAT_CHANGED``;
- a user turn is first recalled before generation with
  ``{"user_input": text, "index": i, "top_k": 8, "budget_tokens": 1500}`` (the extension's
  body with its default settings; no ``last_reply``/``previous_input``: the bridge derives
  them), then synced alone: ``{"messages": [turn i], "complete": false}`` (``MESSAGE_SENT``;
  no ``wait``, as the extension);
- a reply is synced alone with ``complete: false`` and ``wait: true`` (the extension does not
  wait; the bench does, so that extraction has finished before the next turn, as it would
  have while the model generates and the user reads and types);
- ``character`` and ``user`` go with every sync, as the extension sends them. The extension's
  ``/recall/prepare`` while typing is only a warm-up and is not sent.

The server's clock is the messages' time: ``serve`` runs under libfaketime
(``LD_PRELOAD=libfaketimeMT.so.1``, ``FAKETIME_TIMESTAMP_FILE`` holding an offset from the
real clock, ``FAKETIME_NO_CACHE=1``, ``FAKETIME_DONT_FAKE_MONOTONIC=1``) and the bench moves the
clock by rewriting the file before each message. The product has no clock a user could set
(``MemoryService`` is built with ``SystemClock`` by ``serve``), and none was added for this.
``FAKETIME_FORCE_MONOTONIC_FIX=0`` too: with libfaketime 0.9.10 (Debian 12) and an unfaked
monotonic clock, its ``pthread_cond_timedwait`` wrapper otherwise cuts the GIL's 1 ms waits
short, so threads hand the GIL to each other in a busy loop (the replay ran 5 times slower).
That version also fails ``time.sleep`` (EINVAL, its ``clock_nanosleep`` wrapper); the offline
server never calls it (only the remote providers' retry back-off does).
A message's clock is its ``time`` (MemoryBank: one a minute; LoCoMo: the session's date);
when that is not later than the previous message's, one minute later (a LoCoMo session's
turns are a minute apart). Between clock settings the faked clock runs at the real pace.

Upkeep: the life-cycle scheduler counts its interval (``upkeep_interval_minutes``, 30) on the
monotonic clock, which is not faked, so it does not notice a clock jump; its own passes (60 s
after start, then every 30 real minutes) are left to run at whatever the faked time is then.
The bench runs the ``upkeep`` task explicitly (``POST /v1/chats/{id}/maintenance``) before a
message whenever the faked clock has moved on by the interval or more since the last pass —
i.e. at the start of every session and every 30 minutes within one, as a scheduler that had
been running all along (or the app opened that day) would have. After a gap of more than an
hour (a new session) the bench also waits until the chat's vector index has caught up
(``GET /v1/chats/{id}``, ``vectors.pending``), as it would have between sessions.

An empty recall is an in-chat recall that returned no memories although the chat already
had some (``node_count`` > 0 just before it). After the last message the clock moves
``ASK_AFTER_DAYS`` days on, upkeep runs, the vectors are waited for, and every question is
asked and scored exactly as the lab benchmark does it (``locomo_recall.evaluate``: no
``index``, ``top_k=25``, R@k over the evidence turns among the returned memories'
``source_indices``). The lab flow runs on the same conversations in the same run (one
``serve``, ``locomo_recall.ingest`` + ``wait_for_vectors`` + ``evaluate``, the same
settings), beside BM25 over the raw turns. Printed: the lab and lived figures side by side
(LoCoMo: R@1/5/10/25 and MRR pooled over categories 1-4 and per category; MemoryBank: pooled),
the share of empty recalls in the chat, and each flow's memories at the end by tier
(``nodes_by_tier``) and review status (``GET /v1/chats/{id}/nodes?review_status=…``), then the
targets. Figures are printed next to their targets, never asserted.
"""

from __future__ import annotations

import argparse
import glob
import itertools
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from locomo_recall import (
    Question,
    Scores,
    bm25_turns,
    evaluate,
    ingest,
    locomo_messages,
    locomo_questions,
    pooled,
    report,
    running_bridge,
    wait_for_vectors,
)
from memorybank_recall import memorybank_messages, memorybank_questions

from bme_desktop.bridge.client import BridgeClient
from bme_desktop.core.model import MessageIn

DATA = Path("/work/shared/data")
LOCOMO_PATH = DATA / "locomo-dev.json"
MEMORYBANK_PATH = DATA / "memorybank-cn-dev.json"
FAKETIME_GLOBS = (
    "/usr/lib/*/faketime/libfaketimeMT.so.1",
    "/usr/lib/faketime/libfaketimeMT.so.1",
    "/usr/local/lib/faketime/libfaketimeMT.so.1",
    "/usr/lib64/faketime/libfaketimeMT.so.1",
)
FAKETIME_MISSING = (
    "lived_recall.py moves the server's clock with libfaketime, which is not installed.\n"
    "Install it with:  sudo apt-get install -y faketime   (Debian/Ubuntu: the package libfaketime\n"
    "provides libfaketimeMT.so.1), or give its path in $FAKETIME_LIB."
)
TURN_S = 60.0  # a turn a minute when the data gives no later time
SESSION_GAP_S = 3600.0  # a longer pause starts a new session
ASK_AFTER_DAYS = 3.0
EXTENSION_TOP_K, EXTENSION_BUDGET = 8, 1500  # the extension's defaults (lib/constants.js)
VECTOR_WAIT_S = 120.0
BRIDGE_SETTINGS = {"bridge": {"rate_limit_per_s": 100000.0, "rate_burst": 1000000}}
TIERS = ("short_term", "long_term", "dormant", "archived")
REVIEW_STATUSES = ("pending", "approved", "rejected")
LOCOMO_CATEGORIES = (1, 2, 3, 4)
LAB, LIVED = "lab (whole chat, then asked)", "lived (replayed as the extension drives it)"


@dataclass
class Conversation:
    chat_id: str
    messages: list[MessageIn]
    questions: list[Question]
    character: str | None
    user: str | None
    probe: str  # the lab's wait_for_vectors probe


@dataclass
class Dataset:
    name: str
    bm25_name: str
    conversations: list[Conversation]
    categories: Sequence[int]
    per_category: bool


@dataclass
class ChatCounts:
    """In-chat recalls of the lived flow and the memories at the end."""

    recalls: int = 0
    empty: int = 0  # returned nothing although the chat had memories
    with_memories: int = 0  # recalls made when the chat had memories
    upkeeps: int = 0
    tiers: dict[str, int] = field(default_factory=dict)
    reviews: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)  # time spent, by kind of request

    @contextmanager
    def timed(self, kind: str) -> Iterator[None]:
        start = time.monotonic()
        try:
            yield
        finally:
            self.seconds[kind] = self.seconds.get(kind, 0.0) + time.monotonic() - start

    def add_state(self, state: tuple[dict[str, int], dict[str, int]]) -> None:
        for into, counts in zip((self.tiers, self.reviews), state, strict=True):
            for key, n in counts.items():
                into[key] = into.get(key, 0) + n

    def merge(self, other: ChatCounts) -> None:
        self.recalls += other.recalls
        self.empty += other.empty
        self.with_memories += other.with_memories
        self.upkeeps += other.upkeeps
        self.add_state((other.tiers, other.reviews))
        for kind, s in other.seconds.items():
            self.seconds[kind] = self.seconds.get(kind, 0.0) + s

    def empty_share(self) -> float:
        return self.empty / self.with_memories if self.with_memories else float("nan")

    def to_json(self) -> dict[str, Any]:
        return {
            "recalls": self.recalls,
            "recalls_with_memories": self.with_memories,
            "empty": self.empty,
            "empty_share": self.empty_share(),
            "upkeep_passes": self.upkeeps,
            "tiers": self.tiers,
            "review_status": self.reviews,
            "seconds": self.seconds,
        }


# data --------------------------------------------------------------------------------------------
def locomo_dataset(limit: int | None) -> Dataset:
    convs = []
    for sample in json.loads(LOCOMO_PATH.read_text(encoding="utf-8"))[:limit]:
        messages, ids, a, b = locomo_messages(sample)
        convs.append(
            Conversation(
                sample["sample_id"], messages, locomo_questions(sample, ids), b, a, f"What did {a} do?"
            )
        )
    return Dataset("LoCoMo", "BM25 raw turns", convs, LOCOMO_CATEGORIES, True)


def memorybank_dataset(limit: int | None) -> Dataset:
    convs = []
    for number, user in enumerate(json.loads(MEMORYBANK_PATH.read_text(encoding="utf-8"))[:limit]):
        messages = memorybank_messages(user)
        character = next((m.name for m in messages if m.role == "assistant" and m.name), None)
        convs.append(
            Conversation(
                f"memorybank-{number}",
                messages,
                memorybank_questions(user),
                character,
                user["user"],
                "我们聊过什么？",
            )
        )
    return Dataset("MemoryBank", "BM25 raw messages", convs, (0,), False)


def clock_times(messages: Sequence[MessageIn]) -> list[float]:
    """The server's clock for each message: its ``time``, or a minute after the previous one's
    when that is missing or not later."""
    out: list[float] = []
    for m in messages:
        t = datetime.fromisoformat(m.time).timestamp() if m.time else None
        if out and (t is None or t <= out[-1]):
            t = out[-1] + TURN_S
        if t is None:
            raise SystemExit(f"message {m.index} has no time to set the clock to")
        out.append(t)
    return out


# the faked clock ---------------------------------------------------------------------------------
def faketime_library() -> str:
    explicit = os.environ.get("FAKETIME_LIB")
    found = [explicit] if explicit else [p for pattern in FAKETIME_GLOBS for p in sorted(glob.glob(pattern))]
    for path in found:
        if path and Path(path).is_file():
            return path
    print(FAKETIME_MISSING, file=sys.stderr)
    raise SystemExit(2)


class FakeClock:
    """The clock of a process run under libfaketime with ``FAKETIME_TIMESTAMP_FILE``: the file
    holds an offset from the real clock, so the faked clock runs on at the real pace."""

    def __init__(self, library: str, folder: Path) -> None:
        self.file = folder / "faketime.rc"
        self.set(time.time())
        self.env = {
            "LD_PRELOAD": library,
            "FAKETIME_TIMESTAMP_FILE": str(self.file),
            "FAKETIME_NO_CACHE": "1",
            "FAKETIME_DONT_FAKE_MONOTONIC": "1",
            "FAKETIME_FORCE_MONOTONIC_FIX": "0",
        }

    def set(self, when: float) -> None:
        tmp = self.file.with_suffix(".tmp")
        tmp.write_text(f"{when - time.time():+.0f}\n", encoding="ascii")
        tmp.replace(self.file)  # never a half-written file for the server to read


def when(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d %H:%M")


# bridge helpers ----------------------------------------------------------------------------------
def memory_state(client: BridgeClient, chat_id: str) -> tuple[dict[str, int], dict[str, int]]:
    """The chat's memories by tier and by review status."""
    by_tier = client.chat(chat_id).get("nodes_by_tier", {})
    tiers = {t: int(by_tier.get(t, 0)) for t in TIERS}
    reviews = {s: int(client.nodes(chat_id, review_status=s, limit=1)["total"]) for s in REVIEW_STATUSES}
    return tiers, reviews


def wait_vectors_idle(client: BridgeClient, chat_id: str, limit_s: float = VECTOR_WAIT_S) -> float:
    """Wait until the chat's vector index has no embedding work queued (asks the chat's stats,
    not a recall, so nothing is recorded as a recall hit)."""
    start = time.monotonic()
    while time.monotonic() - start < limit_s and (client.chat(chat_id).get("vectors") or {}).get("pending"):
        time.sleep(0.25)
    return time.monotonic() - start


@contextmanager
def lived_bridge(library: str, settings: Mapping[str, Any]) -> Iterator[tuple[BridgeClient, FakeClock]]:
    with tempfile.TemporaryDirectory(prefix="bme-lived-clock-") as folder:
        clock = FakeClock(library, Path(folder))
        with running_bridge(settings, clock.env) as client:
            yield client, clock


def check_clock(client: BridgeClient, chat_id: str, expected: float) -> None:
    """The chat's ``last_activity`` (the server's clock at the sync) must be the faked time."""
    seen = client.chat(chat_id).get("last_activity")
    got = datetime.fromisoformat(seen.replace("Z", "+00:00")).timestamp() if seen else None
    if got is None or abs(got - expected) > 3600:
        raise SystemExit(
            f"the server's clock is not faked (last_activity {seen}, expected about {when(expected)}): "
            "libfaketime did not take; is the LD_PRELOAD library for this platform?"
        )


# the two flows -----------------------------------------------------------------------------------
def run_lived(
    conv: Conversation,
    library: str,
    settings: Mapping[str, Any],
    upkeep_s: float,
    results: dict[str, dict[int, Scores]],
) -> ChatCounts:
    counts = ChatCounts()
    times = clock_times(conv.messages)
    starts = {i + 1 for i, (a, b) in enumerate(itertools.pairwise(times)) if b - a > SESSION_GAP_S}
    sessions = 1 + len(starts)
    started = time.monotonic()
    chat_id = conv.chat_id
    with lived_bridge(library, settings) as (client, clock):

        def sync(messages: list[MessageIn], *, complete: bool = False, wait: bool = False) -> None:
            client.sync(
                chat_id, messages, complete=complete, wait=wait, character=conv.character, user=conv.user
            )

        clock.set(times[0])
        sync([], complete=True)  # the extension opens the (empty) chat
        check_clock(client, chat_id, times[0])
        last_upkeep, session, node_count = times[0], 1, 0
        for i, m in enumerate(conv.messages):
            if i in starts:
                session += 1
                if session % 5 == 0 or session == sessions:
                    print(
                        f"  {chat_id} lived: session {session}/{sessions} ({when(times[i])}), message {i}/"
                        f"{len(times)}, {node_count} memories, empty recalls {counts.empty}/"
                        f"{counts.with_memories}, {time.monotonic() - started:.0f} s",
                        flush=True,
                    )
            clock.set(times[i])
            if upkeep_s > 0 and times[i] - last_upkeep >= upkeep_s:
                with counts.timed("upkeep"):
                    client.maintenance(chat_id, "upkeep")
                last_upkeep, counts.upkeeps = times[i], counts.upkeeps + 1
            if i in starts:
                with counts.timed("vector wait"):
                    wait_vectors_idle(client, chat_id)
            if m.role == "user":
                with counts.timed("stats"):
                    node_count = int(client.chat(chat_id).get("node_count") or 0)
                with counts.timed("recall"):
                    answer = client.recall(
                        chat_id, m.text, index=m.index, top_k=EXTENSION_TOP_K, budget_tokens=EXTENSION_BUDGET
                    )
                counts.recalls += 1
                if node_count:
                    counts.with_memories += 1
                    counts.empty += not answer.get("nodes")
                with counts.timed("user sync"):
                    sync([m])
            else:
                with counts.timed("reply sync (wait)"):
                    sync([m], wait=True)
        asked_at = times[-1] + ASK_AFTER_DAYS * 86400
        clock.set(asked_at)
        if upkeep_s > 0:
            client.maintenance(chat_id, "upkeep")
            counts.upkeeps += 1
        wait_vectors_idle(client, chat_id)
        with counts.timed("questions"):
            evaluate(client, chat_id, conv.questions, {}, results, method=LIVED)
        counts.add_state(memory_state(client, chat_id))
    print(
        f"{chat_id} lived: {len(times)} messages in {sessions} sessions ({when(times[0])} … "
        f"{when(times[-1])}), "
        f"{counts.recalls} recalls in the chat, {counts.empty} empty of {counts.with_memories} with memories,"
        " "
        f"{counts.upkeeps} upkeep passes, {len(conv.questions)} questions at {when(asked_at)}; "
        f"{time.monotonic() - started:.0f} s ("
        + ", ".join(f"{k} {v:.0f} s" for k, v in counts.seconds.items())
        + ")",
        flush=True,
    )
    return counts


def run_lab(data: Dataset, settings: Mapping[str, Any], results: dict[str, dict[int, Scores]]) -> ChatCounts:
    counts = ChatCounts()
    with running_bridge(settings) as client:
        for conv in data.conversations:
            started = time.monotonic()
            ingest(client, conv.chat_id, conv.messages, character=conv.character, user=conv.user)
            wait_for_vectors(client, conv.chat_id, conv.probe)
            evaluate(client, conv.chat_id, conv.questions, {}, results, method=LAB)
            counts.add_state(memory_state(client, conv.chat_id))
            print(
                f"{conv.chat_id} lab: {len(conv.messages)} messages, {len(conv.questions)} questions; "
                f"{time.monotonic() - started:.0f} s",
                flush=True,
            )
    return counts


def run_bm25(data: Dataset, results: dict[str, dict[int, Scores]]) -> None:
    for conv in data.conversations:
        search = bm25_turns(conv.messages)
        for q in conv.questions:
            results[data.bm25_name].setdefault(q.category, Scores()).add(search(q.text), q.evidence)


# report ------------------------------------------------------------------------------------------
def counts_table(counts: Mapping[str, ChatCounts | None]) -> None:
    print(
        "| flow | recalls in the chat | with memories | empty | empty share | "
        + " | ".join(TIERS)
        + " | "
        + " | ".join(REVIEW_STATUSES)
        + " |"
    )
    print("|---" * (5 + len(TIERS) + len(REVIEW_STATUSES)) + "|")
    for name, c in counts.items():
        if c is None:
            continue
        chat = (
            f"{c.recalls} | {c.with_memories} | {c.empty} | {100 * c.empty_share():.1f} %"
            if c.recalls
            else "– | – | – | –"
        )
        print(
            f"| {name} | {chat} | "
            + " | ".join(str(c.tiers.get(t, 0)) for t in TIERS)
            + " | "
            + " | ".join(str(c.reviews.get(s, 0)) for s in REVIEW_STATUSES)
            + " |"
        )


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def targets(data: Dataset, results: dict[str, dict[int, Scores]], lived: ChatCounts) -> list[str]:
    fig = {name: pooled(per, data.categories).summary() for name, per in results.items()}
    live = fig.get(LIVED, {})
    lines = []
    if data.name == "LoCoMo":
        r10 = live.get("R@10", float("nan"))
        lab = fig.get(LAB, {}).get("R@10")
        if lab is not None:
            lines.append(
                f"lived R@10 {r10:.3f} within 0.03 of lab {lab:.3f}: {verdict(abs(r10 - lab) <= 0.03)}"
            )
        lines.append(f"lived R@10 {r10:.3f} >= 0.70: {verdict(r10 >= 0.70)}")
    else:
        r5 = live.get("R@5", float("nan"))
        lines.append(f"lived R@5 {r5:.3f} >= 0.85: {verdict(r5 >= 0.85)}")
    share = lived.empty_share()
    lines.append(f"empty recalls in the chat {100 * share:.1f} % <= 2 %: {verdict(share <= 0.02)}")
    return lines


def scores_json(per_cat: dict[int, Scores], categories: Sequence[int]) -> dict[str, Any]:
    return {
        "pooled": pooled(per_cat, categories).summary(),
        "per_category": {str(cat): s.summary() for cat, s in sorted(per_cat.items())},
    }


def run_dataset(
    data: Dataset, library: str, settings: Mapping[str, Any], upkeep_s: float, lab: bool
) -> dict[str, Any]:
    n_q = sum(len(c.questions) for c in data.conversations)
    print(
        f"\n## {data.name}: {len(data.conversations)} conversations, "
        f"{sum(len(c.messages) for c in data.conversations)} messages, {n_q} questions",
        flush=True,
    )
    results: dict[str, dict[int, Scores]] = {data.bm25_name: {}}
    if lab:
        results[LAB] = {}
    results[LIVED] = {}
    run_bm25(data, results)
    started = time.monotonic()
    lab_counts = run_lab(data, settings, results) if lab else None
    lab_s = time.monotonic() - started
    lived_counts, per_conv = ChatCounts(), {}
    started = time.monotonic()
    for conv in data.conversations:
        c = run_lived(conv, library, settings, upkeep_s, results)
        lived_counts.merge(c)
        per_conv[conv.chat_id] = c.to_json()
    lived_s = time.monotonic() - started
    cats = "categories 1-4 pooled" if data.per_category else "pooled"
    print(f"\n### {data.name} recall ({cats}; lab {lab_s:.0f} s, lived {lived_s:.0f} s)\n")
    report(results, data.categories, per_category=data.per_category)
    print(f"\n### {data.name}: in the chat and at the end\n")
    counts_table({LAB: lab_counts, LIVED: lived_counts})
    lines = targets(data, results, lived_counts)
    print(f"\n### {data.name} targets\n")
    for line in lines:
        print(f"- {line}")
    return {
        "conversations": [c.chat_id for c in data.conversations],
        "questions": n_q,
        "seconds": {"lab": lab_s, "lived": lived_s},
        "recall": {name: scores_json(per, data.categories) for name, per in results.items()},
        "chat": {
            "lab": lab_counts.to_json() if lab_counts else None,
            "lived": lived_counts.to_json(),
            "lived_per_conversation": per_conv,
        },
        "targets": lines,
    }


def merged(base: Mapping[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in extra.items():
        out[key] = (
            merged(out[key], value)
            if isinstance(value, Mapping) and isinstance(out.get(key), Mapping)
            else value
        )
    return out


def checked_settings(extra: Mapping[str, Any]) -> tuple[dict[str, Any], float]:
    """The servers' settings.json, validated by the product's own loader, and the upkeep interval
    (seconds) those settings give."""
    from bme_desktop.core.settings import SettingsError, load_settings

    settings = merged(BRIDGE_SETTINGS, extra)
    with tempfile.TemporaryDirectory(prefix="bme-lived-settings-") as folder:
        (Path(folder) / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
        try:
            loaded = load_settings(Path(folder))
        except SettingsError as exc:
            raise SystemExit(f"--settings: {exc}") from exc
    return settings, float(loaded.lifecycle.upkeep_interval_minutes) * 60.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--dataset", choices=("locomo", "memorybank", "both"), default="both")
    parser.add_argument("--limit", type=int, default=None, help="the first N conversations of each dataset")
    parser.add_argument("--no-lab", action="store_true", help="skip the lab flow")
    parser.add_argument("--json", type=Path, default=None, help="write every figure to this file")
    parser.add_argument(
        "--settings", type=json.loads, default={}, help="JSON merged into each server's settings.json"
    )
    args = parser.parse_args()
    if not isinstance(args.settings, dict):
        raise SystemExit("--settings must be a JSON object")
    library = faketime_library()
    settings, upkeep_s = checked_settings(args.settings)
    loaders: dict[str, Callable[[int | None], Dataset]] = {
        "locomo": locomo_dataset,
        "memorybank": memorybank_dataset,
    }
    chosen = list(loaders) if args.dataset == "both" else [args.dataset]
    print(
        f"settings.json: {json.dumps(settings, ensure_ascii=False)}; upkeep every {upkeep_s / 60:g} min of "
        "the "
        f"faked clock; questions {ASK_AFTER_DAYS:g} days after the last message",
        flush=True,
    )
    out: dict[str, Any] = {"settings": settings}
    for key in chosen:
        out[key] = run_dataset(loaders[key](args.limit), library, settings, upkeep_s, not args.no_lab)
    if args.json:
        args.json.write_text(json.dumps(out, indent=2, ensure_ascii=False), encoding="utf-8")
        print(f"\nwrote {args.json}")


if __name__ == "__main__":
    main()
