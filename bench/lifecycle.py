"""Time full upkeep passes over 10k and 100k memories (targets: < 1 s and < 10 s).

    .venv/bin/python bench/lifecycle.py [--sizes 10000 100000]

Memories are inserted directly (one executemany), a mix of types, tiers and fact
categories, each already with its card and current retrievability (as intake leaves them
right after extraction). Passes timed, each on the same database in simulated time:
  idle      — the same instant: a full scan that finds nothing to do (idempotence)
  +1 hour   — a routine scheduled pass
  +1 day    — retrievability updates, short-term expiry
  +6 months — a database opened after months: most memories fall dormant (every row changes)
These four run without the capacity cap (``max_memories_per_chat`` 0), so they time upkeep's own
steps at every size; then, with the default settings again (the cap of 20,000 per chat):
  cap       — retention: at 100k, 80k memories go to the recycle bin in one journaled batch
  cap again — the same instant again: nothing left to retire
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from bme_desktop.core.clock import ManualClock
from bme_desktop.core.lifecycle.schedule import new_card, retrievability
from bme_desktop.core.lifecycle.tasks import run_upkeep
from bme_desktop.core.model import Node
from bme_desktop.core.service import MemoryService
from bme_desktop.core.store import tables as t
from bme_desktop.core.store.rows import node_to_row

DAY = 86400.0
TYPES = [
    ("event", {"summary": "The caravan crossed the salt flats at dawn, number {i}."}),
    ("fact", {"statement": "Fact {i} about the northern pass", "category": "knowledge"}),
    ("fact", {"statement": "Mira prefers {i} kinds of tea", "category": "preference"}),
    ("location", {"name": "Place {i}", "state": "quiet"}),
    ("thread", {"title": "Thread {i}", "summary": "an open question"}),
    ("pov_memory", {"summary": "She remembers {i}", "about": "the fire"}),
]


def populate(service: MemoryService, chat_id: str, n: int, now: float) -> None:
    rng = random.Random(7)
    settings = service.settings.lifecycle

    def op(uow: object) -> None:
        pk = uow.ensure_chat(chat_id)  # type: ignore[attr-defined]
        rows = []
        for i in range(n):
            type_id, fields = TYPES[i % len(TYPES)]
            created = now - rng.uniform(0, 1.5) * DAY
            importance = rng.uniform(1, 7.5)
            node = Node(
                id=f"n{i:07d}",
                chat_id=chat_id,
                type=type_id,
                title=f"memory {i}",
                fields={k: v.format(i=i) for k, v in fields.items()},
                tier="short_term" if i % 5 == 0 else "long_term",
                importance=importance,
                created_at=created,
                updated_at=now,
                source_indices=[i],
                srs=new_card(created, importance, settings),
            )
            node.retrievability = retrievability(node, now, settings)
            rows.append(node_to_row(node, pk))
        uow.conn.execute(t.nodes.insert(), rows)  # type: ignore[attr-defined]

    service.write(op)  # type: ignore[arg-type]


def timed(label: str, service: MemoryService, chat_id: str) -> float:
    start = time.perf_counter()
    report = run_upkeep(service, chat_id)
    elapsed = time.perf_counter() - start
    counts = {k: v for k, v in report.counts().items() if v}
    counts.update({f"retired by {k}": v for k, v in report.retired.items()})
    print(f"  {label:<10} {elapsed:7.3f} s  {counts}")
    return elapsed


def bench(n: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        clock = ManualClock()
        service = MemoryService.open(Path(tmp), clock=clock, attach=False)
        default = service.settings.lifecycle
        service.settings.lifecycle = replace(default, max_memories_per_chat=0)
        try:
            populate(service, "bench", n, clock.now())
            print(f"{n} memories:")
            timed("idle", service, "bench")
            clock.advance(3600)
            timed("+1 hour", service, "bench")
            clock.advance(DAY)
            timed("+1 day", service, "bench")
            clock.advance(180 * DAY)
            timed("+6 months", service, "bench")
            service.settings.lifecycle = default
            timed("cap", service, "bench")
            timed("cap again", service, "bench")
        finally:
            service.close()


def main() -> None:
    from bme_desktop.runtime_tuning import limit_blas

    limit_blas()  # the process-wide BLAS cap, as the entry points apply it
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    for n in parser.parse_args().sizes:
        bench(n)


if __name__ == "__main__":
    main()
