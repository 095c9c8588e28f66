"""Property: any edit history, backed up as a full backup and increments taken at random
points, restores (into an empty store) to exactly the source's state; and a plain export
imported into an empty store is the same state."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from backup_sample import fill_chat
from chain_helpers import state
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bme_desktop.core import editing
from bme_desktop.core.backup.export import dumps, export_document
from bme_desktop.core.backup.files import restore_chain, write_full_backup, write_incremental_backup
from bme_desktop.core.backup.importer import import_chats
from bme_desktop.core.backup.validate import load_document
from bme_desktop.core.clock import ManualClock
from bme_desktop.core.model import MessageIn
from bme_desktop.core.service import MemoryService

STEP = st.one_of(
    st.tuples(st.just("add"), st.integers(0, 50)),
    st.tuples(st.just("edit"), st.integers(0, 20)),
    st.tuples(st.just("recycle"), st.integers(0, 20)),
    st.tuples(st.just("restore"), st.integers(0, 20)),
    st.tuples(st.just("link"), st.integers(0, 20)),
    st.tuples(st.just("unlink"), st.integers(0, 20)),
    st.tuples(st.just("message"), st.integers(0, 3)),
    st.tuples(st.just("chat"), st.integers(0, 2)),
    st.tuples(st.just("drop"), st.integers(0, 2)),
    st.tuples(st.just("undo"), st.integers(0, 2)),  # undoing a creation deletes rows for good
    st.tuples(st.just("forget"), st.integers(0, 2)),  # a kept recall deleted for good
    st.tuples(st.just("backup"), st.just(0)),
)


def apply(service: MemoryService, step: tuple[str, int], files: list[Path], folder: Path) -> None:
    kind, k = step
    chats = sorted(c.chat_id for c in service.list_chats())
    if kind == "chat":
        if f"chat-{k}" not in chats:
            fill_chat(service, f"chat-{k}")
        return
    if kind == "backup":
        assert service.data_dir is not None
        files.append(
            write_incremental_backup(
                service, None, data_dir=service.data_dir, path=folder / f"inc-{len(files)}.json.gz"
            ).path
        )
        return
    if not chats:
        return
    chat = chats[k % len(chats)]
    nodes = sorted(service.read(lambda r: r.all_nodes(chat, include_deleted=True)), key=lambda n: n.id)
    live = [n for n in nodes if n.deleted_at is None]
    gone = [n for n in nodes if n.deleted_at is not None]
    if kind == "drop":
        service.delete_chat(chat)
    elif kind == "add":
        service.create_node(chat, editing.NodeDraft("location", {"name": f"Place {k}"}))
    elif kind == "message":
        count = len(service.messages(chat))
        service.sync(chat, [MessageIn(count, "user", f"message {k}")])
    elif kind == "edit" and live:
        service.update_node(chat, live[k % len(live)].id, {"importance": float(k % 10)})
    elif kind == "recycle" and live:
        service.delete_node(chat, live[k % len(live)].id)
    elif kind == "restore" and gone:
        service.restore_node(chat, gone[k % len(gone)].id)
    elif kind == "link" and len(live) >= 2:
        service.link(chat, live[k % len(live)].id, live[(k + 1) % len(live)].id, "related")
    elif kind == "undo":
        service.undo(chat)
    elif kind == "forget":
        service.delete_recall_record(chat, 2)
    elif kind == "unlink":
        edges = service.edges(chat)
        if edges:
            service.unlink(chat, edges[k % len(edges)].id)


@contextmanager
def two_stores() -> Iterator[tuple[Path, ManualClock, MemoryService, MemoryService]]:
    """A source holding the sample chat and an empty target, in a fresh folder."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        clock = ManualClock()
        source = MemoryService.open(root / "src", clock=clock, attach=False)
        target = MemoryService.open(root / "dst", clock=clock, attach=False)
        try:
            fill_chat(source)
            yield root, clock, source, target
        finally:
            source.close()
            target.close()


@settings(
    max_examples=8,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.lists(STEP, min_size=1, max_size=12))
def test_a_chain_of_increments_restores_exactly(steps: list[tuple[str, int]]) -> None:
    with two_stores() as (root, clock, source, target):
        files = [write_full_backup(source, root / "full.json.gz", None, data_dir=root / "src")]
        for step in steps:
            clock.advance(7)
            apply(source, step, files, root)
        apply(source, ("backup", 0), files, root)
        restore_chain(target, files, None, mode="replace")
        assert state(target) == state(source)


@settings(max_examples=4, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(STEP.filter(lambda s: s[0] != "backup"), min_size=1, max_size=10))
def test_export_then_import_into_an_empty_store_is_identical(steps: list[tuple[str, int]]) -> None:
    with two_stores() as (root, clock, source, target):
        for step in steps:
            clock.advance(7)
            apply(source, step, [], root)
        text = dumps(source.read(lambda r: export_document(r, now=0.0)))
        import_chats(target, load_document(text.encode("utf-8")), mode="new")
        assert state(target) == state(source)
