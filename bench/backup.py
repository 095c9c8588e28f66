"""Backup, incremental backup and import of a large database, beside a plain ``json.dump``.

    .venv/bin/python bench/backup.py [--memories 100000] [--chats 10]

Builds a SQLite data folder with N memories (plus N/2 edges and N/5 messages) spread over
several chats, then measures, each step in its own forked child (so peak memory is that
step's): the floor (SELECT the same rows and ``json.dump`` them), the export written chat by
chat, a full backup (gzip, and encrypted: scrypt + AES-256-GCM), the encrypted one restored into
an empty store (read as a stream, twice: validated, then imported), an incremental backup after 1 % of the
memories changed
and 0.5 % were deleted for good (plain and encrypted), the chain restored into an empty
store, and an import of the full export in each mode into a copy of the source (skip and
merge: everything is already there; new: every memory again; replace). Prints seconds,
peak RSS (above the idle interpreter's) and the output size. The machine's load changes the
seconds: compare rows of the same run.
"""

from __future__ import annotations

import argparse
import gzip
import json
import multiprocessing
import os
import resource
import shutil
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from queue import Empty
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import select

from bme_desktop.core.backup.export import write_document
from bme_desktop.core.backup.files import (
    restore,
    restore_chain,
    write_full_backup,
    write_incremental_backup,
)
from bme_desktop.core.backup.stream import open_backup
from bme_desktop.core.model import Edge, MessageIn, Node
from bme_desktop.core.service import MemoryService
from bme_desktop.core.store import tables as t
from bme_desktop.core.store.rows import edge_to_row, node_to_row
from bme_desktop.core.store.unit_of_work import UnitOfWork

PASS = "benchmark passphrase"


def build(data_dir: Path, memories: int, chats: int) -> None:
    service = MemoryService.open(data_dir, attach=False)
    per_chat = memories // chats
    try:
        for c in range(chats):
            chat = f"chat-{c:02d}"
            service.sync(
                chat,
                [
                    MessageIn(
                        i,
                        "user" if i % 2 == 0 else "assistant",
                        f"消息 {i}: the caravan reaches gate {i} at dusk, 北门 {c}",
                    )
                    for i in range(per_chat // 5)
                ],
                character="GM",
                user="Ann",
            )

            def fill(uow: UnitOfWork, chat: str = chat, c: int = c) -> None:
                pk = uow.read.require_chat_pk(chat)
                nodes: list[dict[str, Any]] = []
                edges: list[dict[str, Any]] = []
                ids = []
                for i in range(per_chat):
                    node_id = uuid.uuid4().hex
                    ids.append(node_id)
                    nodes.append(
                        node_to_row(
                            Node(
                                id=node_id,
                                chat_id=chat,
                                type="event" if i % 3 else "character",
                                title=f"Memory {c}-{i}",
                                fields={"summary": f"Ann meets traveller {i} at the {c} gate; 记忆 {i}"}
                                if i % 3
                                else {"name": f"Traveller {c}-{i}", "traits": "quiet, 勇敢"},
                                importance=float(i % 10),
                                tier="long_term",
                                created_at=1_700_000_000.0 + i,
                                updated_at=1_700_000_000.0 + i,
                                source_indices=[i % max(1, per_chat // 5)],
                            ),
                            pk,
                        )
                    )
                for i in range(per_chat // 2):
                    edges.append(
                        edge_to_row(
                            Edge(
                                id=uuid.uuid4().hex,
                                chat_id=chat,
                                from_id=ids[i],
                                to_id=ids[(i * 7 + 1) % len(ids)],
                                relation="related",
                                created_at=1_700_000_000.0 + i,
                                updated_at=1_700_000_000.0 + i,
                            ),
                            pk,
                        )
                    )
                for table, rows in ((t.nodes, nodes), (t.edges, edges)):
                    for start in range(0, len(rows), 500):
                        uow.conn.execute(table.insert(), rows[start : start + 500])

            service.write(fill)
    finally:
        service.close()


def change_some(data_dir: Path, memories: int) -> None:
    """1 % of the memories edited, 0.5 % deleted for good (as an undone creation would)."""
    service = MemoryService.open(data_dir, attach=False)
    try:

        def op(uow: UnitOfWork) -> None:
            ids = list(uow.conn.execute(select(t.nodes.c.id).order_by(t.nodes.c.id)).scalars())
            for node_id in ids[: memories // 100]:
                uow.conn.execute(
                    t.nodes.update()
                    .where(t.nodes.c.id == node_id)
                    .values(importance=9.5, updated_at=1_800_000_000.0)
                )
            doomed = ids[-(memories // 200) :]
            uow.conn.execute(
                t.edges.delete().where(t.edges.c.from_id.in_(doomed) | t.edges.c.to_id.in_(doomed))
            )
            uow.conn.execute(t.nodes.delete().where(t.nodes.c.id.in_(doomed)))

        service.write(op)
    finally:
        service.close()


def floor(data_dir: Path, out: Path) -> int:
    """The same rows SELECTed as dicts and written with a plain json.dump."""
    service = MemoryService.open(data_dir, attach=False)
    try:

        def rows(r: Any) -> dict[str, list[dict[str, Any]]]:
            return {
                name: [dict(row) for row in r.conn.execute(select(table)).mappings()]
                for name, table in (("nodes", t.nodes), ("edges", t.edges), ("messages", t.messages))
            }

        data = service.read(rows)
        with out.open("w", encoding="utf-8") as fh:
            json.dump(data, fh, ensure_ascii=False)
        return out.stat().st_size
    finally:
        service.close()


def _child(step: Callable[[], int], queue: Any) -> None:
    start = time.perf_counter()
    size = step()
    queue.put((time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, size))


def measure(step: Callable[[], int]) -> tuple[float, int, int]:
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    proc = ctx.Process(target=_child, args=(step, queue))
    proc.start()
    while proc.is_alive() or not queue.empty():
        try:
            result = queue.get(timeout=1)
        except Empty:
            continue
        proc.join()
        return result  # type: ignore[no-any-return]
    return (float("nan"), 0, -1)  # the step failed (its traceback is above)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--memories", type=int, default=100_000)
    parser.add_argument("--chats", type=int, default=10)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="bme-bench-backup-"))
    src = root / "src"
    try:
        t0 = time.perf_counter()
        build(src, args.memories, args.chats)
        print(
            f"built {args.memories} memories, {args.memories // 2} edges, {args.memories // 5} messages "
            f"in {args.chats} chats: {time.perf_counter() - t0:.0f} s; pid {os.getpid()}",
            flush=True,
        )
        base = measure(lambda: 0)[1]
        rows: list[tuple[str, float, int, int]] = []

        def run(name: str, step: Callable[[], int]) -> None:
            seconds, peak, size = measure(step)
            rows.append((name, seconds, peak, size))
            print(
                f"{name:<34} {seconds:8.1f} s  peak +{(peak - base) / 1024:7.0f} MB  {size / 1e6:8.1f} MB",
                flush=True,
            )

        def opened(data_dir: Path, fn: Callable[[MemoryService], int]) -> Callable[[], int]:
            def step() -> int:
                service = MemoryService.open(data_dir, attach=False)
                try:
                    return fn(service)
                finally:
                    service.close()

            return step

        run("floor: SELECT + json.dump", lambda: floor(src, root / "floor.json"))

        def export_only(service: MemoryService) -> int:
            sizes: list[int] = []
            service.read(lambda r: write_document(r, lambda b: sizes.append(len(b)), now=service.now()))
            return sum(sizes)

        run("export document (streamed, no file)", opened(src, export_only))
        run(
            "full backup, gzip",
            opened(
                src, lambda s: write_full_backup(s, root / "full.json.gz", None, data_dir=src).stat().st_size
            ),
        )
        shutil.copy(src / "backup-watermark.json", root / "watermark-plain.json")
        run(
            "full backup, encrypted",
            opened(
                src, lambda s: write_full_backup(s, root / "full.bmebak", PASS, data_dir=src).stat().st_size
            ),
        )
        change_some(src, args.memories)
        run(
            "incremental (1% changed), encrypted",
            opened(
                src,
                lambda s: (
                    write_incremental_backup(s, PASS, data_dir=src, path=root / "inc.bmebak")
                    .path.stat()
                    .st_size
                ),
            ),
        )
        shutil.copy(root / "watermark-plain.json", src / "backup-watermark.json")
        run(
            "incremental (1% changed), gzip",
            opened(
                src,
                lambda s: (
                    write_incremental_backup(s, None, data_dir=src, path=root / "inc.json.gz")
                    .path.stat()
                    .st_size
                ),
            ),
        )
        run(
            "restore full backup (encrypted) into empty",
            opened(root / "restored", lambda s: restore(s, root / "full.bmebak", PASS, mode="replace").nodes),
        )
        run(
            "restore chain (gzip) into empty",
            opened(
                root / "chain",
                lambda s: (
                    restore_chain(
                        s, [root / "full.json.gz", root / "inc.json.gz"], None, mode="replace"
                    ).nodes
                ),
            ),
        )
        export = root / "export.json"
        with gzip.open(root / "full.json.gz") as fh:
            export.write_bytes(fh.read())
        for mode in ("skip", "merge", "new", "replace"):
            target = root / f"import-{mode}"
            shutil.copytree(src, target)

            def imp(service: MemoryService, mode: str = mode) -> int:
                plan = service.import_memories(open_backup(export, None), mode).value  # type: ignore[arg-type]
                return plan.changes

            run(f"import --mode {mode}", opened(target, imp))
        print("\n| step | seconds | peak RSS above idle | output |\n|---|---:|---:|---:|")
        for name, seconds, peak, size in rows:
            unit = f"{size / 1e6:.1f} MB" if not name.startswith(("import", "restore")) else f"{size} changes"
            print(f"| {name} | {seconds:.1f} | {(peak - base) / 1024:.0f} MB | {unit} |")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
