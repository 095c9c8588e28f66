"""Keeps each chat's vector index in step with its memories, off the writer thread.

It listens to ``graph.changed``: removed memories leave the index at once; added and changed
ones are queued and embedded on this maintainer's own background thread, then persisted in
the ``vectors`` table (through ``MemoryService.write``) and put into the in-memory matrix. A
chat's index is loaded from the table the first time it is asked for; rows of another model,
or whose text hash no longer matches, are re-embedded. An embedder that fails (endpoint down,
wrong dimension) is retried later; recall meanwhile runs without vectors.

Several instances on one PostgreSQL database (``store/notify.py``): the instance that wrote a
memory embeds it and stores its vector; the others are told (a remote ``graph.changed``, then
``vectors.saved``) and load that vector from the table instead of embedding the text again.
A memory another instance wrote waits for its vector at most ``REMOTE_GRACE_S``; after that
(that instance stopped, or embeds with another model) this one embeds it itself. On
``store.resync`` (notifications may have been missed) every loaded index is dropped: the next
use loads it again from the table and checks it against the memories.

While a chat is being extracted (a long chat's first import), a memory whose text changed
after it was embedded (a character's description grows with every mention) keeps its old
vector for now: it is embedded again once that chat's extraction is idle, or after
``REFRESH_DEFER_S`` at most, so a memory mentioned a thousand times is embedded a few times,
not a thousand. New memories are embedded at once, those of the newest messages first.

A chat's index also holds the vectors of the memories other chats share with it (their
character, persona and world memories, ``Reader.shared_nodes``), so recall finds those by
meaning too. They are taken from the table where the chat that owns them stored them (for the
same text), else embedded here and kept in memory only (a vector is stored once, by its own
chat). A change in one chat is checked against the other loaded indexes: a memory newly shared
with one of them is added, one no longer shared (moved, deleted) leaves it.

The indexes of the ``MAX_INDEXES`` chats used last are kept in memory; an older one (with no
work queued) is dropped and loaded again from the table when its chat is recalled.

The work runs on a keyed worker (``core/work.py``, ``bme-vectors``): a chat's queued memory ids
are merged (all of them once any asked for all), the chat queued last goes first, and the
worker's tick hands over what the grace periods and the deferral release. Its lock is this
maintainer's, so the queue and the indexes change together.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..background import yield_to_foreground
from ..cancel import CancelToken, checkpoint
from ..events import (
    ChangeRecord,
    ChatDeleted,
    Event,
    GraphChanged,
    MaintenanceProgressed,
    StoreResync,
    VectorsSaved,
)
from ..model import Node
from ..ports import ReportsBusy
from ..recall.documents import embed_text
from ..recall.embedding import RecallEmbedder, embedder_engine
from ..work import KeyedWorker
from . import vector_store
from .vector_index import VectorIndex

if TYPE_CHECKING:
    from ..ports import Core
    from ..store.unit_of_work import UnitOfWork

YIELD_EVERY = 512  # memories between two yield points of a whole chat's pass
log = logging.getLogger(__name__)
EMBED_BATCH = 16  # small batches keep a query's wait for the (shared) model short
RETRY_AFTER_S = 20.0
REMOTE_GRACE_S = 30.0  # how long a memory another instance wrote waits for that instance's vector
MAX_INDEXES = 32  # chat indexes kept in memory (the chats used last)
REFRESH_DEFER_S = 120.0  # longest a changed memory keeps its old vector while its chat is extracted


class VectorMaintainer:
    def __init__(
        self, service: Core, factory: Callable[[], RecallEmbedder], max_indexes: int = MAX_INDEXES
    ) -> None:
        self.service = service
        self._factory = factory
        self.max_indexes = max_indexes
        self._embedder: RecallEmbedder | None = None
        self.last_error: str | None = None
        self._failed_at = 0.0
        self._cond = threading.Condition(threading.RLock())  # the worker's lock too
        self._build_lock = threading.Lock()  # one embedder build at a time, outside _cond
        self._indexes: OrderedDict[str, VectorIndex] = OrderedDict()  # least recently used first
        # chat → memory ids to embed (None: check every memory of the chat)
        self._work: KeyedWorker[str, set[str] | None] = KeyedWorker(
            "bme-vectors", self._run, merge=_merge_ids, tick=self._tick, newest_first=True, cond=self._cond
        )
        self._stale: set[str] = set()  # chats whose embedding failed part-way
        # Changed memories whose new text waits for the chat's extraction to be idle: chat →
        # memory ids, and when the first of them was put off.
        self._deferred: dict[str, set[str]] = {}
        self._deferred_at: dict[str, float] = {}
        self._rebuilding: set[str] = set()  # chats that ``rebuild`` embeds itself
        # Memories another instance wrote, whose vector that instance stores: chat → memory →
        # when to embed it here after all. Looked up in the table before anything is embedded.
        self._awaiting: dict[str, dict[str, float]] = {}
        self._clock: Callable[[], float] = time.monotonic
        self._stopped = False
        self._unsubscribe = service.events.on(
            (GraphChanged, ChatDeleted, VectorsSaved, StoreResync), self._on_event
        )
        service.on_close(self.stop)

    # embedder --------------------------------------------------------------------------
    def embedder(self, *, wait: bool = True) -> RecallEmbedder | None:
        """The embedder, built on first use; None while it cannot be built or keeps failing
        (and, without ``wait``, while another thread builds it: a recall does not wait for that).

        The model is loaded outside ``_cond`` (one load at a time): loading takes seconds, and
        everything else that takes the lock — a chat's stats, ``pending``, a sync waiting for
        its vectors, the queue — must not wait for it."""
        with self._cond:
            if self._embedder is not None or time.monotonic() - self._failed_at <= RETRY_AFTER_S:
                return self._embedder
        if not wait and self._build_lock.locked():
            return None
        with self._build_lock:
            with self._cond:  # built by another caller while this one waited for the build lock
                if self._embedder is not None or time.monotonic() - self._failed_at <= RETRY_AFTER_S:
                    return self._embedder
            try:
                built = self._factory()
            except Exception as exc:  # a missing package or bad settings: recall goes on without vectors
                with self._cond:
                    self._failed(f"embedder unavailable: {exc}")
                return None
            with self._cond:
                self._embedder = built
                self._cond.notify_all()
                return built

    def embedder_loading(self) -> bool:
        """Whether a thread is building the embedder now (loading the model)."""
        return self._build_lock.locked()

    def _failed(self, message: str) -> None:
        self.last_error = message
        self._failed_at = time.monotonic()
        log.warning("vectors: %s", message)

    # indexes ---------------------------------------------------------------------------
    def index(self, chat_id: str) -> VectorIndex | None:
        """The chat's index as it is now (loading it from the table on first use)."""
        with self._cond:
            found = self._indexes.get(chat_id)
            if found is not None:
                self._indexes.move_to_end(chat_id)
            stale = chat_id in self._stale
        if found is not None:
            if stale and self.embedder() is not None:
                with self._cond:
                    self._stale.discard(chat_id)
                self.schedule(chat_id, None)
            return found
        index = self._load(chat_id, probe=False)
        self.schedule(chat_id, None)
        return index

    def _load(self, chat_id: str, *, probe: bool) -> VectorIndex | None:
        """Load the chat's stored vectors. A model of unknown dimension is asked once, but only
        with ``probe`` (on the worker thread: a recall never waits for it)."""
        embedder = self.embedder()
        if embedder is None:
            return None
        stored = self.service.read(lambda r: vector_store.load_vectors(r, chat_id, embedder.name))
        dim = embedder.dim or (stored[0].dim if stored else None)
        if dim is None:
            if not probe:
                return None
            dim = int(embedder.embed(["dimension probe"]).shape[1])
        index = VectorIndex(embedder.name, dim)
        rows = [s for s in stored if s.dim == dim]
        if rows:
            index.upsert(
                [s.node_id for s in rows], np.stack([s.vector for s in rows]), [s.text_hash for s in rows]
            )
        with self._cond:
            kept = self._indexes.setdefault(chat_id, index)
            self._evict(chat_id)
            return kept

    def _evict(self, keep: str) -> None:
        """Drop the least recently used indexes beyond ``max_indexes`` that have no work
        queued or running, other than ``keep`` (holding ``_cond``)."""
        idle = [
            c for c in self._indexes if not self._work.pending(c) and c not in self._rebuilding and c != keep
        ]
        for chat_id in idle[: max(0, len(self._indexes) - self.max_indexes)]:
            del self._indexes[chat_id]
            self._stale.discard(chat_id)

    def status(self, chat_id: str) -> tuple[str | None, int | None, bool]:
        """(model, memories embedded, work pending) without loading anything: (None, None, …)
        while the chat's index has not been loaded yet (it is on the first recall)."""
        with self._cond:
            index = self._indexes.get(chat_id)
        if index is None:
            return None, None, self.pending(chat_id)
        return index.model, len(index), self.pending(chat_id)

    def engine(self) -> str | None:
        """How the built embedder runs (e.g. ``"onnxruntime"``) when it says so; None while it
        is not built (nothing is built here) or for embedders with one way to run."""
        with self._cond:
            embedder = self._embedder
        return embedder_engine(embedder) if embedder is not None else None

    def pending(self, chat_id: str) -> bool:
        """Whether memories of this chat are waiting to be embedded (or for the vectors
        another instance stores for them)."""
        with self._cond:
            return self._waiting(chat_id)

    def _waiting(self, chat_id: str) -> bool:
        return (
            self._work.pending(chat_id)
            or chat_id in self._deferred
            or (bool(self._awaiting.get(chat_id)) and chat_id in self._indexes)
        )

    def schedule(self, chat_id: str, ids: set[str] | None) -> None:
        with self._cond:
            if not self._stopped:
                self._work.submit(chat_id, None if ids is None else set(ids))

    def _awaited(self) -> bool:
        """Whether a loaded index still waits for vectors from another instance (holding ``_cond``)."""
        return any(waiting and chat_id in self._indexes for chat_id, waiting in self._awaiting.items())

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Block until nothing is queued or being embedded (tests, benchmarks, rebuilds)."""
        return self._wait_while(
            lambda: bool(
                self._work.keys() or self._work.running() is not None or self._awaited() or self._deferred
            ),
            timeout,
        )

    def wait_chat(self, chat_id: str, timeout: float | None = None) -> bool:
        """Block until no memory of ``chat_id`` waits to be embedded (a sync with ``wait: true``
        answers once its memories can be found by meaning too); False on timeout, or at once
        when the embedder cannot be loaded."""
        return self._wait_while(lambda: self._waiting(chat_id), timeout)

    def _wait_while(self, busy: Callable[[], bool], timeout: float | None) -> bool:
        """Block while ``busy()`` (checked holding ``_cond``); False on timeout or a failed embedder."""
        end = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while busy():
                if self._embedder is None and self.last_error and self._work.running() is None:
                    return False
                left = None if end is None else end - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._cond.wait(0.05 if left is None else min(left, 0.05))
        return True

    def rebuild(self, chat_id: str, cancel: CancelToken | None = None) -> ChangeRecord:
        """Embed every memory of the chat again with the embedder as configured now, then
        swap the chat's stored vectors in one transaction. Recall keeps the old vectors until
        the swap; cancelled (``cancel``, checked between batches), nothing has changed."""
        fresh = self._factory()  # a missing package or bad settings raise here, changing nothing
        with self._cond:
            self._rebuilding.add(chat_id)
        try:
            nodes = [n for n in self.service.all_nodes(chat_id) if n.deleted_at is None]
            texts = [embed_text(n) for n in nodes]
            parts: list[npt.NDArray[np.float32]] = []
            events = self.service.events
            events.publish(MaintenanceProgressed(chat_id, "rebuild_vectors", 0, len(texts)))
            for start in range(0, len(texts), EMBED_BATCH):
                checkpoint(cancel)
                parts.append(np.asarray(fresh.embed(texts[start : start + EMBED_BATCH]), dtype=np.float32))
                events.publish(
                    MaintenanceProgressed(
                        chat_id, "rebuild_vectors", min(len(texts), start + EMBED_BATCH), len(texts)
                    )
                )
            checkpoint(cancel)
            dim = (
                int(parts[0].shape[1])
                if parts
                else int(fresh.dim or fresh.embed(["dimension probe"]).shape[1])
            )
            vectors = np.concatenate(parts) if parts else np.zeros((0, dim), dtype=np.float32)
            if vectors.shape != (len(texts), dim):
                raise ValueError(f"embedder returned shape {vectors.shape} for {len(texts)} memories")
            ids = [n.id for n in nodes]
            hashes = [vector_store.text_hash(t) for t in texts]

            def swap(uow: UnitOfWork) -> None:
                checkpoint(cancel)
                vector_store.delete_vectors(uow, chat_id)
                vector_store.save_vectors(uow, chat_id, fresh.name, ids, hashes, vectors)

            self.service.write(swap)
            index = VectorIndex(fresh.name, dim)
            if ids:
                index.upsert(ids, vectors, hashes)
            with self._cond:
                old, self._embedder = self._embedder, fresh
                self.last_error, self._failed_at = None, 0.0
                if old is not None and old is not fresh:  # other chats reload with the new model
                    self._indexes.clear()
                    self._stale.clear()
                self._indexes[chat_id] = index
                self._evict(chat_id)
            if old is not None and old is not fresh:
                _close(old)
        finally:
            with self._cond:
                self._rebuilding.discard(chat_id)
        self.schedule(chat_id, None)  # memories edited during the rebuild: re-embedded by their hash
        self.wait_idle()
        return ChangeRecord(chat_id)

    def stop(self) -> None:
        """Stop embedding (called when the service closes) and let a running batch finish."""
        self._unsubscribe()
        with self._cond:
            self._stopped = True
        self._work.close(30)
        _close(self._embedder)

    # events ----------------------------------------------------------------------------
    def _on_event(self, event: Event) -> None:
        if isinstance(event, StoreResync):  # another instance's writes may have gone unnoticed
            with self._cond:
                self._indexes.clear()
                self._stale.clear()
            return
        if event.chat_id is None:
            return
        if isinstance(event, ChatDeleted):
            with self._cond:
                self._indexes.pop(event.chat_id, None)
                self._work.cancel(event.chat_id)
                self._awaiting.pop(event.chat_id, None)
                self._deferred.pop(event.chat_id, None)
                self._deferred_at.pop(event.chat_id, None)
            return
        if isinstance(event, VectorsSaved):
            if event.remote:
                self._remote_vectors(event.chat_id, set(event.ids))
            return
        if not isinstance(event, GraphChanged):
            return
        change = event.change
        with self._cond:
            index = self._indexes.get(event.chat_id)
        if index is not None and change.nodes_removed:
            index.remove(change.nodes_removed)
        touched = change.nodes_added | change.nodes_changed
        if event.remote:  # the instance that wrote them embeds them: wait for its vectors
            with self._cond:
                waiting = self._awaiting.setdefault(event.chat_id, {})
                for node_id in change.nodes_removed:
                    waiting.pop(node_id, None)
                if touched and not self._stopped:
                    due = self._clock() + REMOTE_GRACE_S
                    for node_id in touched:
                        waiting.setdefault(node_id, due)
                    self._work.start()  # its tick embeds what is still missing when that is due
            return
        if touched:  # an index not loaded yet is loaded (and fully checked) by the worker
            self.schedule(event.chat_id, set(touched) if index is not None else None)
        self._share_change(event.chat_id, change, touched)

    def _share_change(self, chat_id: str, change: ChangeRecord, touched: set[str]) -> None:
        """The other loaded indexes hold the memories ``chat_id`` shares with them: a removed
        one leaves them now, a touched one is checked (may be shared now, or no longer)."""
        with self._cond:
            others = [(c, index) for c, index in self._indexes.items() if c != chat_id]
        for other, index in others:
            if change.nodes_removed:
                index.remove(change.nodes_removed)
            if touched:
                self.schedule(other, set(touched))

    def _remote_vectors(self, chat_id: str, ids: set[str]) -> None:
        """Another instance stored vectors of these memories: a loaded index takes them from
        the table (an index not loaded reads the table when it loads)."""
        with self._cond:
            if chat_id not in self._indexes or not ids:
                return
            waiting = self._awaiting.setdefault(chat_id, {})
            due = self._clock() + REMOTE_GRACE_S
            for node_id in ids:  # looked up in the table first
                waiting.setdefault(node_id, due)
        self.schedule(chat_id, ids)

    # worker ----------------------------------------------------------------------------
    def _tick(self) -> float:
        """Before each chat and at least every second (the worker's tick): stop once the
        service closes, else hand over what is due (``_due``)."""
        with self._cond:
            if self.service.closed:
                self._stopped = True
            if self._stopped:
                self._work.close(0)
                return 1.0
            return self._due()

    def _due(self) -> float:
        """Stop waiting for another instance's vectors where the grace period is over: those
        memories are queued to be embedded here (an index not loaded checks the table when it
        loads), and changed memories whose chat's extraction is idle (or that waited long
        enough). Holding ``_cond``; returns the seconds until the next one is due (at most 1)."""
        now, wait = self._clock(), 1.0
        for chat_id in list(self._deferred):
            if not self._extracting(chat_id) or now - self._deferred_at[chat_id] >= REFRESH_DEFER_S:
                ids = self._deferred.pop(chat_id)
                del self._deferred_at[chat_id]
                self._work.submit(chat_id, ids)
        for chat_id in list(self._awaiting):
            waiting = self._awaiting[chat_id]
            due = [node_id for node_id, at in waiting.items() if at <= now]
            for node_id in due:
                del waiting[node_id]
            if due and chat_id in self._indexes:
                self._work.submit(chat_id, set(due))
            wait = min([wait, *(at - now for at in waiting.values())])
            if not waiting:
                del self._awaiting[chat_id]
        return max(0.01, wait)

    def _extracting(self, chat_id: str) -> bool:
        """Whether the chat's extraction is running or queued (not paused)."""
        extraction = self.service.extraction
        return bool(extraction.busy(chat_id)) if isinstance(extraction, ReportsBusy) else False

    def _run(self, chat_id: str, ids: set[str] | None) -> None:
        """One chat's queued work, on the worker's low-priority thread (embedding yields to recalls)."""
        try:
            self._embed_chat(chat_id, ids)
        except Exception as exc:
            self._failed(f"embedding memories of {chat_id!r} failed: {exc}")
            with self._cond:
                self._embedder = None
                self._stale.add(chat_id)

    def _embed_chat(self, chat_id: str, ids: set[str] | None) -> None:
        if not self.service.has_chat(chat_id):
            return
        with self._cond:
            if chat_id in self._rebuilding:  # the rebuild covers it, and checks again when done
                return
        with self._cond:
            index = self._indexes.get(chat_id)
        if index is None:
            index = self._load(chat_id, probe=True)
            ids = None
        embedder = self.embedder()
        if index is None or embedder is None:
            return
        if ids is None:
            nodes = self.service.all_nodes(chat_id)
            shared = self._shared(chat_id, None)
            live = {n.id for n in nodes} | {n.id for n in shared}
            index.remove([i for i in index.ids() if i not in live])
        else:
            nodes = self.service.read(lambda r: r.nodes_by_ids(chat_id, sorted(ids)))
            shared = self._shared(chat_id, sorted(ids))
            known = {n.id for n in nodes} | {n.id for n in shared}
            index.remove(
                [n.id for n in nodes if n.deleted_at is not None] + [i for i in ids if i not in known]
            )
        shared_ids = {n.id for n in shared}
        todo: list[tuple[str, str, str]] = []
        later: set[str] = set()
        extracting = self._extracting(chat_id)
        # newest messages first: during a long import, recall has the current scene's vectors first
        ordered = sorted(nodes, key=lambda n: (-max(n.source_indices, default=-1), n.id)) + shared
        for k, node in enumerate(ordered):
            if k % YIELD_EVERY == YIELD_EVERY - 1:
                yield_to_foreground()  # a recall, or a window that is behind, goes first
            if node.deleted_at is not None:
                continue
            text = embed_text(node)
            hashed = vector_store.text_hash(text)
            held = index.text_hash(node.id)
            if held == hashed:
                continue
            if held is not None and extracting and node.id not in shared_ids:
                later.add(node.id)  # changed while the chat is extracted: refreshed when it is idle
            else:
                todo.append((node.id, text, hashed))
        if later:
            with self._cond:
                self._deferred.setdefault(chat_id, set()).update(later)
                self._deferred_at.setdefault(chat_id, self._clock())
        todo = self._from_other_instances(chat_id, index, ids, todo)
        todo = self._stored_elsewhere(index, shared_ids, todo)
        for start in range(0, len(todo), EMBED_BATCH):
            if self._stopped:
                return
            batch = todo[start : start + EMBED_BATCH]
            vectors = embedder.embed([text for _, text, _ in batch])
            if vectors.shape != (len(batch), index.dim):
                raise ValueError(
                    f"embedder returned shape {vectors.shape}, index holds dimension {index.dim}"
                )
            ids_ = [b[0] for b in batch]
            hashes = [b[2] for b in batch]
            saved = self.service.write(_saver(chat_id, index.model, ids_, hashes, vectors))
            stored = set(saved) | shared_ids  # another chat's memory: in memory here, stored by its chat
            keep = [k for k, node_id in enumerate(ids_) if node_id in stored]
            if keep:
                index.upsert([ids_[k] for k in keep], vectors[keep], [hashes[k] for k in keep])

    def _shared(self, chat_id: str, ids: list[str] | None) -> list[Node]:
        """The live memories other chats share with this one (only those of ``ids`` when given)."""
        return self.service.read(lambda r: r.shared_nodes(r.chat_scope(chat_id), ids))

    def _stored_elsewhere(
        self, index: VectorIndex, shared_ids: set[str], todo: list[tuple[str, str, str]]
    ) -> list[tuple[str, str, str]]:
        """Of ``todo``, the shared memories whose own chat stored a vector for the same text take
        it from the table; the rest are left to embed."""
        look = [node_id for node_id, _, _ in todo if node_id in shared_ids]
        if not look:
            return todo
        wanted = {node_id: hashed for node_id, _, hashed in todo}
        stored = [
            v
            for v in self.service.read(lambda r: vector_store.load_vectors_by_ids(r, look, index.model))
            if v.dim == index.dim and wanted.get(v.node_id) == v.text_hash
        ]
        if stored:
            index.upsert(
                [v.node_id for v in stored],
                np.stack([v.vector for v in stored]),
                [v.text_hash for v in stored],
            )
        taken = {v.node_id for v in stored}
        return [item for item in todo if item[0] not in taken]

    def _from_other_instances(
        self, chat_id: str, index: VectorIndex, examined: set[str] | None, todo: list[tuple[str, str, str]]
    ) -> list[tuple[str, str, str]]:
        """Of ``todo`` (memory, text, hash) among the memories ``examined`` (None: all of the
        chat's), what is left to embed here: memories another instance wrote take their vector
        from the table when it is stored for the same text, and wait (are left out) while their
        grace period lasts."""
        with self._cond:
            waiting = dict(self._awaiting.get(chat_id, {}))
        if not waiting:
            return todo
        look = [node_id for node_id, _, _ in todo if node_id in waiting]
        wanted = {node_id: hashed for node_id, _, hashed in todo}
        stored = (
            [
                v
                for v in self.service.read(lambda r: vector_store.load_vectors(r, chat_id, index.model, look))
                if v.dim == index.dim and wanted.get(v.node_id) == v.text_hash
            ]
            if look
            else []
        )
        if stored:
            index.upsert(
                [v.node_id for v in stored],
                np.stack([v.vector for v in stored]),
                [v.text_hash for v in stored],
            )
        taken = {v.node_id for v in stored}
        now = self._clock()
        left = [item for item in todo if item[0] not in taken and waiting.get(item[0], now) <= now]
        still = {
            node_id for node_id, _, _ in todo if node_id not in taken and waiting.get(node_id, now) > now
        }
        with self._cond:  # settled: found, embedded below, or nothing to do; the rest keeps waiting
            mine = self._awaiting.get(chat_id, {})
            for node_id in (set(waiting) if examined is None else examined) - still:
                mine.pop(node_id, None)
            if not mine:
                self._awaiting.pop(chat_id, None)
        return left


def _merge_ids(queued: set[str] | None, more: set[str] | None) -> set[str] | None:
    """A chat's queued memory ids with more of them (None: every memory of the chat)."""
    return None if queued is None or more is None else queued | more


def _close(embedder: object) -> None:
    close = getattr(embedder, "close", None)
    if callable(close):  # e.g. the query cache's prefetch thread
        close()


def _saver(
    chat_id: str, model: str, ids: list[str], hashes: list[str], vectors: npt.NDArray[np.float32]
) -> Callable[[UnitOfWork], list[str]]:
    def save(uow: UnitOfWork) -> list[str]:
        return vector_store.save_vectors(uow, chat_id, model, ids, hashes, vectors)

    return save
