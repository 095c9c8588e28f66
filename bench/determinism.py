"""Is extraction deterministic? The same messages through a real ``bme-desktop serve``, again and
again, on SQLite and PostgreSQL, split into syncs in different ways (issue 15.4).

    .venv/bin/python bench/determinism.py [--messages 240] [--runs 3] [--backends sqlite,postgres]
        [--batchings turns,bulk,random,rollback] [--locomo PATH] [--settings JSON]

The chat is the first ``--messages`` turns of LoCoMo conv-26 (speaker A the user, B the
character), or with ``--chat synthetic`` a seeded templated role-play whose replies repeat
themselves in other words. Batchings:

- ``turns``: one sync per reply, ``wait: true`` (how the SillyTavern extension syncs);
- ``bulk``: the whole chat in one sync, ``wait: true``;
- ``random``: seeded random groups of 1–40 messages, ``wait: false`` except the last (the
  scheduler wakes while syncs arrive; the vector index lags behind);
- ``rollback``: ``turns``, then message ``n/2`` edited and restored (two rollbacks and
  re-extractions), which must end where a clean run ends.

Per run: the memory count and a digest of the memories (type, title, sorted source indices);
then, per configuration, whether every run gave the reference memories (the first run of the
first configuration) and how many memories differ. PostgreSQL runs need
``BME_TEST_POSTGRES_URL`` (a database is created for each run and dropped after).
Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from locomo_recall import locomo_messages, running_bridge  # noqa: E402
from two_instances import fresh_database  # noqa: E402

from bme_desktop.bridge.client import BridgeClient  # noqa: E402
from bme_desktop.core.model import MessageIn  # noqa: E402

CHAT = "determinism"
Memory = tuple[str, str, tuple[int, ...]]


@contextmanager
def serve(backend: str, settings: dict[str, Any]) -> Iterator[BridgeClient]:
    settings = {"bridge": {"rate_limit_per_s": 100000.0, "rate_burst": 1000000}, **settings}
    if backend == "sqlite":
        with running_bridge(settings) as client:
            yield client
        return
    server = os.environ.get("BME_TEST_POSTGRES_URL")
    if not server:
        raise SystemExit("postgres runs need BME_TEST_POSTGRES_URL")
    with fresh_database(server) as url, running_bridge(settings, database_url=url) as client:
        yield client


def synthetic_chat(count: int, seed: int = 7) -> tuple[list[MessageIn], str, str]:
    """A role-play of ``count`` messages from a few templates: many replies say nearly the
    same thing in other words, where near-duplicate matching by cosine and by word overlap
    disagree (what a generated or repetitive chat looks like)."""
    rng = random.Random(seed)
    people, places = ["Mara", "Tobin", "Elsa"], ["the harbour", "the old mill", "the market", "the chapel"]
    verbs = [
        ("walks to", "strolls over to"),
        ("waits at", "lingers near"),
        ("searches", "looks around"),
        ("guards", "keeps watch over"),
    ]
    asks = ["What happens next?", "And then?", "Where does {p} go?", "Does {p} find anything?"]
    out: list[MessageIn] = []
    while len(out) < count:
        person, place, verb = rng.choice(people), rng.choice(places), rng.choice(verbs)
        out.append(
            MessageIn(index=len(out), role="user", text=rng.choice(asks).format(p=person), name="Alex")
        )
        reply = (
            f"{person} {rng.choice(verb)} {place}{rng.choice(['.', ' at dusk.', ' quietly.', ', alone.'])}"
        )
        out.append(MessageIn(index=len(out), role="assistant", text=reply, name="Narrator"))
    return out[:count], "Alex", "Narrator"


def groups(messages: Sequence[MessageIn], batching: str, seed: int) -> list[tuple[list[MessageIn], bool]]:
    """The syncs of one run: (messages, wait)."""
    if batching == "bulk":
        return [(list(messages), True)]
    if batching == "random":
        rng = random.Random(seed)
        out: list[tuple[list[MessageIn], bool]] = []
        i = 0
        while i < len(messages):
            n = rng.randint(1, 40)
            out.append((list(messages[i : i + n]), False))
            i += n
        out[-1] = (out[-1][0], True)
        return out
    out, pending = [], []
    for m in messages:
        pending.append(m)
        if m.role == "assistant":
            out.append((pending, True))
            pending = []
    if pending:
        out.append((pending, True))
    return out


def memories(client: BridgeClient) -> list[Memory]:
    out: list[Memory] = []
    offset = 0
    while True:
        page = client.nodes(CHAT, limit=500, offset=offset, order_by="created_at")
        out += [(n["type"], n["title"], tuple(sorted(n["source_indices"]))) for n in page["items"]]
        offset += len(page["items"])
        if not page["items"] or offset >= page["total"]:
            return sorted(out)


def one_run(
    backend: str,
    batching: str,
    messages: Sequence[MessageIn],
    user: str,
    character: str,
    seed: int,
    settings: dict[str, Any],
) -> tuple[list[Memory], float]:
    start = time.monotonic()
    with serve(backend, settings) as client:
        for part, wait in groups(messages, "turns" if batching == "rollback" else batching, seed):
            client.sync(CHAT, part, wait=wait, character=character, user=user)
        if batching == "rollback":
            k = len(messages) // 2
            original = messages[k]
            edited = MessageIn(
                index=k,
                role=original.role,
                text=original.text + " (edited)",
                name=original.name,
                time=original.time,
            )
            client.sync(CHAT, [edited], wait=True, character=character, user=user)
            client.sync(CHAT, [original], wait=True, character=character, user=user)
        return memories(client), time.monotonic() - start


def digest(mems: list[Memory]) -> str:
    return hashlib.sha256(json.dumps(mems, ensure_ascii=False).encode()).hexdigest()[:10]


def difference(a: list[Memory], b: list[Memory]) -> int:
    """How many memories one list has that the other lacks (both ways)."""
    ca, cb = Counter(a), Counter(b)
    return sum(((ca - cb) + (cb - ca)).values())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--locomo", default=str(ROOT.parent / "shared" / "data" / "locomo-dev.json"))
    parser.add_argument("--chat", choices=("locomo", "synthetic"), default="locomo")
    parser.add_argument("--messages", type=int, default=240)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--backends", default="sqlite,postgres")
    parser.add_argument("--batchings", default="turns,bulk,random,rollback")
    parser.add_argument("--settings", default="{}", help="JSON merged into each serve's settings.json")
    parser.add_argument("--show-diff", action="store_true", help="print the memories that differ")
    args = parser.parse_args(argv)
    if args.chat == "synthetic":
        messages, user, character = synthetic_chat(args.messages)
        name = "synthetic"
    else:
        sample = json.loads(Path(args.locomo).read_text(encoding="utf-8"))[0]
        messages, _, user, character = locomo_messages(sample)
        messages, name = messages[: args.messages], sample["sample_id"]
    settings = json.loads(args.settings)
    reference: list[Memory] | None = None
    rows = []
    print(f"chat: {name}, {len(messages)} messages; settings {settings or 'default'}")
    for backend in args.backends.split(","):
        for batching in args.batchings.split(","):
            counts, digests, diffs = [], [], []
            for run in range(args.runs):
                mems, elapsed = one_run(
                    backend, batching, messages, user, character, seed=run, settings=settings
                )
                if reference is None:
                    reference = mems
                diff = difference(mems, reference)
                counts.append(len(mems))
                digests.append(digest(mems))
                diffs.append(diff)
                print(
                    f"  {backend:8} {batching:8} run {run + 1}: {len(mems)} memories "
                    f"{dict(sorted(Counter(m[0] for m in mems).items()))} digest {digest(mems)} "
                    f"differs from reference by {diff} ({elapsed:.0f} s)",
                    flush=True,
                )
                if args.show_diff and diff:
                    ca, cb = Counter(mems), Counter(reference)
                    for m in sorted((ca - cb).elements()):
                        print(f"      + {m}")
                    for m in sorted((cb - ca).elements()):
                        print(f"      - {m}")
            rows.append((backend, batching, counts, len(set(digests)), max(diffs)))
    print(
        "\n| backend | batching | memories per run | distinct results | max differing memories vs reference |"
    )
    print("|---|---|---|---|---|")
    for backend, batching, counts, distinct, worst in rows:
        print(f"| {backend} | {batching} | {', '.join(map(str, counts))} | {distinct} | {worst} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
