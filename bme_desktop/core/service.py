"""MemoryService: the one façade the bridge and the UI call.

All writes run on one writer thread, each in one transaction, and return what changed;
after the commit the change records go out as ``graph.changed`` events. Every mutating method
is an operation (``core/operations.py``): it returns an ``OpResult`` — its value with the
change records, initiator and origin — and takes ``origin=`` (who asked). Reads run on the
caller's thread with their own connection and return plain values. Nothing here knows about
Qt or HTTP.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from . import editing, operations
from .background import foreground, yield_to_foreground
from .cancel import CancellableTask, CancelToken, checkpoint
from .clock import Clock, SystemClock
from .errors import Conflict, NotFound, ValidationError
from .events import ChangeRecord, ChatDeleted, ChatSynced, EventBus, GraphChanged, Initiator, RecallFinished
from .extract.api import ExtractionScheduler, ExtractionTicket, NoExtraction
from .ingest.history import SyncOutcome, apply_sync, store_members, validate_messages
from .lorebook import LoreReport, check_writable
from .model import (
    ChatStats,
    Edge,
    HistorySteps,
    Knowledge,
    Message,
    MessageIn,
    Node,
    NodeQuery,
    PatrolReport,
    Persona,
    RecallRecord,
    ReviewCard,
    VectorStatus,
)
from .operations import OpResult, acting, operation
from .ports import HasVectors, KnowsChat, Prepares, ReportsProgress, RunsNow, VectorIndex, WarmsUp
from .providers.chat_model import ModelLenders
from .recall.api import Recaller, RecallRequest, RecallResult
from .scopes import ChatIdentity
from .settings import Settings, load_settings
from .store import journal
from .store.database import sqlite_url
from .store.notify import ChangeListener
from .store.reader import ChatNotFound, Reader
from .store.store import Store
from .store.unit_of_work import UnitOfWork
from .worldinfo import LoreEntry
from .writer import Writer

if TYPE_CHECKING:
    from .backup.importer import ImportMode, ImportResult
    from .backup.memory_import import ImportPlan, MemoryMode
    from .backup.purge import PurgeResult
    from .backup.validate import ChatDoc
    from .chat_ops import ChatFacts, OperationResult
    from .demo_story import DemoReport
    from .extract.progress import ExtractionProgress
    from .overview import OverviewSeries
    from .rewrites import RewritePlan

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass(frozen=True)
class CharacterGraph:
    """One character's memories across its chats (``MemoryService.character_graph``)."""

    chat_ids: list[str]  # the character's chats, the asked one first
    nodes: list[Node]  # each with the chat it belongs to (``Node.chat_id``)
    edges: list[Edge]


MAINTENANCE_TASKS = (
    "upkeep",
    "consolidate",
    "compress",
    "summarize",
    "fold",
    "reflect",
    "persona",
    "rebuild",
    "rebuild_vectors",
)


@dataclass
class SyncResult:
    chat_id: str
    stored: int
    changed_from: int | None
    rolled_back_batches: int
    rolled_back_nodes: int
    queued: int
    done: int
    revision: int
    # The extraction this sync queued: ``ticket.wait()`` waits for it and its follow-up work (a
    # caller that must not hold a worker thread meanwhile syncs without ``wait`` and waits on a
    # thread of its own).
    ticket: ExtractionTicket | None = field(default=None, repr=False, compare=False)


def _writable(chat_id: str, node_id: str, fn: Callable[[UnitOfWork], T]) -> Callable[[UnitOfWork], T]:
    """``fn``, refused (409) for a memory SillyTavern's lorebook owns (core/lorebook.py)."""

    def op(uow: UnitOfWork) -> T:
        check_writable(editing.require_node(uow, chat_id, node_id))
        return fn(uow)

    return op


class MemoryService:
    def __init__(
        self,
        store: Store,
        *,
        settings: Settings | None = None,
        clock: Clock | None = None,
        data_dir: Path | None = None,
    ) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.clock: Clock = clock or SystemClock()
        self.data_dir = data_dir
        self.events = EventBus()
        self.extraction: ExtractionScheduler = NoExtraction()
        self.recaller: Recaller | None = None
        # Models lent by the bridge (SillyTavern's connection, the proxy's upstream): providers/chat_model.py
        self.lenders = ModelLenders()
        # Every transaction, in order; bookkeeping callers need not wait for (kept recalls,
        # recall hits) is queued on it too (``write_later``), its events published off it.
        self._writer = Writer(store, self.now, self._publish_changes_soon)
        self._closing = False
        self._closed = False
        self._close_callbacks: list[Callable[[], None]] = []
        # Maintenance tasks registered by the life-cycle and extraction subsystems.
        self.maintenance_tasks: dict[str, Callable[[str], ChangeRecord]] = {}
        # Chats a recorded rewrite (``rewrites.run_recorded``) is running on: undo and redo wait for it.
        self.rewriting: set[str] = set()
        # How to wait for the work a chat's events queued on background workers that the wait
        # paths promise done (the life cycle's intake and after-extraction steps).
        self._follow_ups: list[Callable[[str, float | None], bool]] = []
        # Other instances on the same PostgreSQL database: what they write arrives as events.
        self._listener: ChangeListener | None = None
        if store.backend == "postgresql":
            self._listener = ChangeListener(store.url, store.instance_id, self.events.publish).start()

    @classmethod
    def open(
        cls,
        data_dir: Path,
        *,
        database_url: str | None = None,
        settings: Settings | None = None,
        clock: Clock | None = None,
        attach: bool = True,
    ) -> MemoryService:
        """Open (creating if needed) the memory kept in ``data_dir``, with the default
        extraction, recall and life-cycle pipelines attached (``attach=False``: none)."""
        settings = settings if settings is not None else load_settings(data_dir)
        url = database_url or settings.database_url or sqlite_url(data_dir)
        service = cls(Store(url), settings=settings, clock=clock, data_dir=data_dir)
        if attach:
            from .pipelines import attach_pipelines

            attach_pipelines(service)
        return service

    def on_close(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` when the service closes, before the writer stops (background
        workers stop here, so nothing writes to a closed service)."""
        self._close_callbacks.append(callback)

    @property
    def closed(self) -> bool:
        """True once closing has begun: background workers take no new work."""
        return self._closing

    def close(self) -> None:
        """Stop background work (letting what is in flight finish its writes), then refuse
        writes, stop the writer and release the database."""
        if self._closing:
            return
        self._closing = True
        if self._listener is not None:
            self._listener.stop()
        for callback in reversed(self._close_callbacks):
            try:
                callback()
            except Exception:
                log.exception("a close callback failed")
        self._writer.settle()  # the later writes queued so far, and their events
        self.events.close()
        self.extraction.shutdown(wait=True)
        self._closed = True
        self._writer.stop()
        self.store.close()

    # wiring: the pipelines hand themselves over here (``core/pipelines.py``) ----------------
    def use_recaller(self, recaller: Recaller) -> None:
        self.recaller = recaller

    def use_extraction(self, extraction: ExtractionScheduler) -> None:
        self.extraction = extraction

    def add_maintenance_task(self, name: str, task: Callable[[str], ChangeRecord]) -> None:
        self.maintenance_tasks[name] = task

    def add_follow_up(self, wait: Callable[[str, float | None], bool]) -> Callable[[], None]:
        """Register ``wait(chat_id, timeout)``: it blocks until the work a background worker
        queued from the chat's events is done (False on timeout). ``wait_for_follow_up`` and
        the wait paths call it; the returned function unregisters it."""
        self._follow_ups.append(wait)

        def remove() -> None:
            if wait in self._follow_ups:
                self._follow_ups.remove(wait)

        return remove

    def wait_for_follow_up(self, chat_id: str, timeout: float | None = None) -> bool:
        """Wait until the work the chat's events queued so far on background workers is done
        (the life cycle's intake and after-extraction steps: new memories wait in the review
        centre); False on timeout. The bus's subscribers only queue work, so ``sync(wait=True)``,
        ``extract_now``, a recorded step and an import wait here. Refused (RuntimeError) on the
        writer thread and on a worker whose work it would wait for: that would never return."""
        if self.on_writer_thread():
            raise RuntimeError("wait_for_follow_up() called from the writer thread: it would wait for itself")
        end = None if timeout is None else time.monotonic() + timeout
        for wait in list(self._follow_ups):
            if not wait(chat_id, None if end is None else max(0.0, end - time.monotonic())):
                return False
        return True

    def vector_index(self) -> VectorIndex | None:
        """The recaller's vector index, if it has one (recall by meaning)."""
        return self.recaller.vectors if isinstance(self.recaller, HasVectors) else None

    # what the pipelines report ---------------------------------------------------------------
    def vector_status(self, chat_id: str, *, load: bool = False) -> VectorStatus | None:
        """How far recall's vector index is for the chat; None when recall has no vector index.
        With ``load`` the chat's vectors are read first if no recall has yet (recall then finds them)."""
        vectors = self.vector_index()
        if vectors is None:
            return None
        if load:
            vectors.index(chat_id)
        model, embedded, pending = vectors.status(chat_id)
        return VectorStatus(model, embedded, pending, vectors.engine())

    def wait_for_vectors(self, chat_id: str, timeout: float | None = None) -> bool:
        """Wait until the chat's memories have their vectors (True at once without a vector index)."""
        vectors = self.vector_index()
        return True if vectors is None else vectors.wait_chat(chat_id, timeout)

    def can_extract(self) -> bool:
        """Whether an extractor is attached (a service opened without pipelines has none)."""
        return not isinstance(self.extraction, NoExtraction)

    def can_extract_now(self) -> bool:
        """Whether ``extract_now`` runs on the caller's thread and can be cancelled."""
        return isinstance(self.extraction, RunsNow)

    @operation(Initiator.EXTRACTION)
    def extract_now(
        self, chat_id: str, cancel: CancelToken | None = None, *, origin: object | None = None
    ) -> int:
        """Extract the chat's due batches now; the number of batches extracted. Runs on the
        caller's thread where the extractor can (``can_extract_now``), else waits for it (then
        the extraction's writes, made on its own thread, are no part of this operation's result)."""
        if isinstance(self.extraction, RunsNow):
            done = self.extraction.run_now(chat_id, cancel)
        else:
            done = self.extraction.schedule(chat_id, force=True).wait()
        self.wait_for_follow_up(chat_id)  # what the batches' events queued (intake) is done too
        return done

    def extraction_progress(self, chat_id: str) -> ExtractionProgress | None:
        """How far the chat's extraction is, with its pace and the time left (None: not known)."""
        return self.extraction.progress(chat_id) if isinstance(self.extraction, ReportsProgress) else None

    # plumbing ------------------------------------------------------------------------------
    def now(self) -> float:
        return self.clock.now()

    def on_writer_thread(self) -> bool:
        """Whether the caller runs on the writer thread (where ``write`` may not be called)."""
        return self._writer.on_thread()

    def write(self, fn: Callable[[UnitOfWork], T]) -> T:
        """Run ``fn`` in one transaction on the writer thread and publish what changed."""
        if self._closed:
            raise Conflict("the memory service is closed")
        if self.on_writer_thread():
            raise RuntimeError("write() called from the writer thread; call the unit of work directly")
        yield_to_foreground()  # an extraction's or the vector thread's write waits for a running recall
        result, changes = self._writer.run(fn)
        operations.collect(changes)
        initiator, origin = operations.current()
        with operations.outside():  # subscribers only queue: their workers' writes are no part of it
            for change in changes:
                self.events.publish(GraphChanged(change.chat_id, change, initiator, origin))
        return result

    def operate(self, call: Callable[[], T], *, origin: object | None = None) -> OpResult[T]:
        """Run a mutating call (``lambda: service.update_node(…)``) as one operation: its value
        with the change records of its writes and its initiator (``core/operations.py``).
        ``origin`` (who asked) rides on the operation's ``GraphChanged`` events."""
        return operations.operate(call, origin)

    def write_later(self, fn: Callable[[UnitOfWork], object]) -> None:
        """Queue ``fn`` to be written soon on the writer, in order with the other later writes
        and before any write asked for after it; a failure is logged, not raised. Later writes
        that queue while the first of them waits are written in one transaction
        (``core/writer.py``). ``flush_later_writes`` waits for everything queued so far (a read
        that must see it; writes need not)."""
        if not self._closing:
            self._writer.later(fn)

    def _publish_changes_soon(self, changes: list[ChangeRecord]) -> None:
        """What later writes changed, published off the writer thread (on the writer: only queued)."""
        self.events.publish_soon(
            [GraphChanged(change.chat_id, change, Initiator.RECALL) for change in changes]
        )

    def flush_later_writes(self) -> None:
        """Wait until the later writes queued so far are written and their events published."""
        if self._closing:
            return
        self._writer.settle()
        self.events.delivered()

    def read(self, fn: Callable[[Reader], T]) -> T:
        try:
            with self.store.read() as reader:
                return fn(reader)
        except ChatNotFound as exc:
            raise NotFound(str(exc)) from exc

    def _write_checked(self, fn: Callable[[UnitOfWork], T]) -> T:
        try:
            return self.write(fn)
        except ChatNotFound as exc:
            raise NotFound(str(exc)) from exc

    # chats ---------------------------------------------------------------------------------
    def list_chats(self) -> list[ChatStats]:
        return self.read(lambda r: [r.chat_stats(c) for c in r.chat_ids()])

    def chat_stats(self, chat_id: str) -> ChatStats:
        return self.read(lambda r: r.chat_stats(chat_id))

    def has_chat(self, chat_id: str) -> bool:
        return self.read(lambda r: r.chat_pk(chat_id) is not None)

    @operation(Initiator.USER)
    def delete_chat(self, chat_id: str, *, origin: object | None = None) -> None:
        self._write_checked(lambda uow: uow.delete_chat(chat_id))
        self.events.publish(ChatDeleted(chat_id))

    # reads for the front ends (each one transaction) ------------------------------------------
    def chat_ids(self) -> list[str]:
        return self.read(lambda r: r.chat_ids())

    def chat_state(self, chat_id: str) -> dict[str, Any]:
        """What the pipelines keep about the chat (``last_extractor``, ``extracted_to``, …); {} when none."""
        row = self.read(lambda r: r.chat_row(chat_id))
        state = row.get("state") if row is not None else None
        return state if isinstance(state, dict) else {}

    def stored_fingerprints(self, chat_id: str) -> dict[int, str]:
        """The stored messages' fingerprints by index ({} for a chat not stored yet)."""

        def read(r: Reader) -> dict[int, str]:
            pk = r.chat_pk(chat_id)
            return {} if pk is None else r.fingerprints(pk)

        return self.read(read)

    def overview_series(self, chat_id: str) -> OverviewSeries:
        """The Overview's charts: memories over time, recall latency, retrievability histogram."""
        from .overview import overview_series

        return self.read(lambda r: overview_series(r, chat_id))

    def chat_facts(self, chat_id: str) -> ChatFacts:
        """The chat's last message index and how far extraction and evolution have read."""
        from .chat_ops import chat_facts

        return self.read(lambda r: chat_facts(r, chat_id))

    def export_document(self, chat_ids: Sequence[str] | None = None) -> dict[str, Any]:
        """The open JSON export of the given chats (all when None), as of now."""
        from .backup.export import export_document

        return self.read(lambda r: export_document(r, chat_ids, now=self.now()))

    def graph_of(self, chat_ids: Sequence[str] | None = None) -> tuple[list[Node], list[Edge]]:
        """The live memories and links of the given chats (all when None), for GraphML/GEXF."""
        from .backup.graph_formats import graph_of

        return self.read(lambda r: graph_of(r, chat_ids))

    def audit(self, chat_id: str | None, *, limit: int = 200) -> list[dict[str, Any]]:
        """The newest audit entries (of one chat, or all), newest first."""
        return self.read(lambda r: r.audit(chat_id, limit=limit))

    # messages ------------------------------------------------------------------------------
    @operation(Initiator.SYNC)
    def sync(
        self,
        chat_id: str,
        messages: Sequence[MessageIn],
        *,
        complete: bool = False,
        character: str | None = None,
        user: str | None = None,
        wait: bool = False,
        wait_timeout: float | None = None,
        identity: ChatIdentity | None = None,
        origin: object | None = None,
    ) -> SyncResult:
        """Store pushed messages; roll back memories derived from changed or deleted ones;
        queue extraction. With ``wait`` the call returns when that extraction has finished and
        the work its events queued is done (``wait_for_follow_up``: its new memories wait in the
        review centre); those writes, on the extraction's and the life cycle's threads, are no
        part of this operation's result."""
        validate_messages(chat_id, messages, complete=complete)

        # A kept recall queued before lands before a rollback that may drop it: the writer keeps the order.
        def op(uow: UnitOfWork) -> tuple[SyncOutcome, ChatSynced]:
            if identity is not None:  # who is who first: a chat id bound to another character is refused
                uow.ensure_chat(chat_id, identity=identity)
            outcome = apply_sync(uow, chat_id, messages, complete=complete, character=character, user=user)
            members = None
            if identity is not None and identity.members is not None:
                members = store_members(
                    uow, chat_id, identity.members
                )  # recall's kept state takes them from the event
            synced = ChatSynced(
                chat_id, outcome.stored, outcome.changed_from, outcome.revision, members, bool(uow.rescoped)
            )
            uow.synced.append((chat_id, synced.data))  # told to other instances on the same database
            return outcome, synced

        outcome, synced = self.write(op)
        self.events.publish(synced)
        ticket = self._followed(
            chat_id, self.extraction.schedule(chat_id, force=outcome.changed_from is not None)
        )
        done = ticket.wait(wait_timeout) if wait else ticket.done
        return SyncResult(
            chat_id=chat_id,
            stored=outcome.stored,
            changed_from=outcome.changed_from,
            rolled_back_batches=outcome.rolled_back_batches,
            rolled_back_nodes=outcome.rolled_back_nodes,
            queued=ticket.queued,
            done=done,
            revision=outcome.revision,
            ticket=ticket,
        )

    def _followed(self, chat_id: str, ticket: ExtractionTicket) -> ExtractionTicket:
        """``ticket`` whose ``wait`` also waits for the follow-up work of the chat (the intake of
        the memories extracted, ``wait_for_follow_up``) within the same timeout."""

        def wait(timeout: float | None) -> int:
            end = None if timeout is None else time.monotonic() + timeout
            done = ticket.wait(timeout)
            self.wait_for_follow_up(chat_id, None if end is None else max(0.0, end - time.monotonic()))
            return done

        return replace(ticket, waiter=wait)

    def messages(self, chat_id: str, start: int = 0, end: int | None = None) -> list[Message]:
        return self.read(lambda r: r.messages(chat_id, start, end))

    # nodes and edges ----------------------------------------------------------------------
    def get_node(self, chat_id: str, node_id: str, *, include_deleted: bool = False) -> Node:
        node = self.read(lambda r: r.node(chat_id, node_id, include_deleted=include_deleted))
        if node is None:
            raise NotFound(f"no memory {node_id!r} in chat {chat_id!r}")
        return node

    def find_node(self, chat_id: str, node_id: str, *, include_deleted: bool = False) -> Node | None:
        """The memory, or None where ``get_node`` raises ``NotFound``."""
        return self.read(lambda r: r.node(chat_id, node_id, include_deleted=include_deleted))

    def nodes_by_ids(self, chat_id: str, ids: Iterable[str]) -> list[Node]:
        return self.read(lambda r: r.nodes_by_ids(chat_id, ids))

    def nodes_and_edges(
        self, chat_id: str, node_ids: Sequence[str], edge_ids: Sequence[str]
    ) -> tuple[list[Node], list[Edge]]:
        """The named memories and links that exist (in one transaction)."""

        def read(r: Reader) -> tuple[list[Node], list[Edge]]:
            nodes = r.nodes_by_ids(chat_id, node_ids) if node_ids else []
            edges = [e for e in (r.edge(chat_id, i) for i in edge_ids) if e is not None]
            return nodes, edges

        return self.read(read)

    def search_nodes(self, chat_id: str, query: NodeQuery) -> tuple[list[Node], int]:
        return self.read(lambda r: r.search_nodes(chat_id, query))

    def all_nodes(self, chat_id: str) -> list[Node]:
        return self.read(lambda r: r.all_nodes(chat_id))

    def character_graph(self, chat_id: str) -> CharacterGraph:
        """The chat's character across all its chats: every chat's own memories and links,
        and the persona and world memories those chats draw in from elsewhere (each memory
        once, with the chat it belongs to)."""

        def read(r: Reader) -> CharacterGraph:
            chat_ids = r.character_chat_ids(r.chat_scope(chat_id))
            nodes = [n for c in chat_ids for n in r.all_nodes(c)]
            edges = [e for c in chat_ids for e in r.edges(c)]
            seen = {n.id for n in nodes}
            for c in chat_ids:
                drawn = [n for n in r.shared_nodes(r.chat_scope(c)) if n.id not in seen]
                seen |= {n.id for n in drawn}
                nodes += drawn
            return CharacterGraph(chat_ids, nodes, edges)

        return self.read(read)

    def lends_to_character(self, chat_id: str, other_chat: str, node_ids: Sequence[str]) -> bool:
        """Whether a change in ``other_chat`` belongs in :meth:`character_graph` of ``chat_id``:
        it is one of the character's chats, or one of ``node_ids`` is drawn into one of them (a
        persona or world memory of another character's chat, e.g. its first)."""

        def read(r: Reader) -> bool:
            chat_ids = r.character_chat_ids(r.chat_scope(chat_id))
            if other_chat in chat_ids:
                return True
            ids = list(node_ids)
            return bool(ids) and any(r.shared_nodes(r.chat_scope(c), ids) for c in chat_ids)

        return self.read(read)

    def edges(
        self, chat_id: str, *, node_id: str | None = None, limit: int | None = None, offset: int = 0
    ) -> list[Edge]:
        return self.read(lambda r: r.edges(chat_id, node_id=node_id, limit=limit, offset=offset))

    def manual_write(self, chat_id: str, actor: str, action: str, fn: Callable[[UnitOfWork], T]) -> T:
        """A user's edit: one journaled batch (undoable), audited; it clears the redo stack."""

        def op(uow: UnitOfWork) -> T:
            uow.read.require_chat_pk(chat_id)
            uow.begin_batch(chat_id, "manual", actor=actor, description=action)
            result = fn(uow)
            batch_id = uow.end_batch()
            uow.discard_redo(chat_id, keep=batch_id)
            uow.audit(chat_id, actor, action, getattr(result, "id", None))
            return result

        with acting(Initiator.USER):
            return self._write_checked(op)

    @operation(Initiator.USER)
    def create_node(
        self, chat_id: str, draft: editing.NodeDraft, *, actor: str = "user", origin: object | None = None
    ) -> Node:
        return self.manual_write(
            chat_id, actor, "create_node", lambda uow: editing.create_node(uow, chat_id, draft)
        )

    @operation(Initiator.USER)
    def update_node(
        self,
        chat_id: str,
        node_id: str,
        patch: dict[str, Any],
        *,
        actor: str = "user",
        origin: object | None = None,
    ) -> Node:
        return self.manual_write(
            chat_id,
            actor,
            "update_node",
            _writable(chat_id, node_id, lambda uow: editing.patch_node(uow, chat_id, node_id, patch)),
        )

    @operation(Initiator.USER)
    def move_scope(
        self, chat_id: str, node_id: str, kind: str, *, actor: str = "user", origin: object | None = None
    ) -> Node:
        """Share a memory with the chat's character, persona or world, or keep it to the chat
        (one undoable edit; see ``editing.move_scope``)."""
        return self.manual_write(
            chat_id,
            actor,
            "move_scope",
            _writable(chat_id, node_id, lambda uow: editing.move_scope(uow, chat_id, node_id, kind)),
        )

    @operation(Initiator.LOREBOOK)
    def sync_lorebook(
        self, chat_id: str, entries: list[LoreEntry], *, origin: object | None = None
    ) -> LoreReport:
        """Make the chat's lorebook memories what SillyTavern resolves for it now (not undoable:
        SillyTavern owns them; see ``lorebook.sync_lorebook``)."""
        from .lorebook import sync_lorebook

        return self._write_checked(lambda uow: sync_lorebook(uow, chat_id, entries))

    @operation(Initiator.IMPORT)
    def import_worldinfo(
        self,
        chat_id: str,
        entries: list[LoreEntry],
        kind: str,
        *,
        actor: str = "user",
        origin: object | None = None,
    ) -> LoreReport:
        """A World Info file's entries as memories of scope ``kind`` in the chat (one undo step;
        none when every entry is here already)."""
        from .lorebook import import_entries, imported_here

        here = self.read(lambda r: imported_here(r, chat_id, entries))
        if len(here) == len(entries):
            return LoreReport(skipped=len(here))
        return self.manual_write(
            chat_id, actor, "import_worldinfo", lambda uow: import_entries(uow, chat_id, entries, kind)
        )

    def worldinfo_entries(self, chat_id: str, node_ids: Sequence[str]) -> list[LoreEntry]:
        """The chosen memories as World Info entries, in the order asked (an unknown id is a 404)."""
        from .lorebook import node_entry

        def entries(r: Reader) -> list[LoreEntry]:
            out = []
            for node_id in node_ids:
                node = r.node(chat_id, node_id)
                if node is None:
                    raise NotFound(f"no memory {node_id!r} in chat {chat_id!r}")
                out.append(node_entry(node))
            return out

        return self.read(entries)

    @operation(Initiator.USER)
    def delete_node(
        self, chat_id: str, node_id: str, *, actor: str = "user", origin: object | None = None
    ) -> Node:
        return self.manual_write(
            chat_id,
            actor,
            "delete_node",
            _writable(chat_id, node_id, lambda uow: editing.delete_node(uow, chat_id, node_id)),
        )

    @operation(Initiator.USER)
    def restore_node(
        self, chat_id: str, node_id: str, *, actor: str = "user", origin: object | None = None
    ) -> Node:
        return self.manual_write(
            chat_id, actor, "restore_node", lambda uow: editing.restore_node(uow, chat_id, node_id)
        )

    @operation(Initiator.USER)
    def link(
        self,
        chat_id: str,
        from_id: str,
        to_id: str,
        relation: str,
        *,
        strength: float | None = None,
        actor: str = "user",
        origin: object | None = None,
    ) -> Edge:
        return self.manual_write(
            chat_id,
            actor,
            "link",
            lambda uow: editing.link(uow, chat_id, from_id, to_id, relation, strength=strength),
        )

    @operation(Initiator.USER)
    def unlink(
        self, chat_id: str, edge_id: str, *, actor: str = "user", origin: object | None = None
    ) -> Edge:
        return self.manual_write(chat_id, actor, "unlink", lambda uow: editing.unlink(uow, chat_id, edge_id))

    @operation(Initiator.USER)
    def merge_nodes(
        self, chat_id: str, keep_id: str, other_id: str, *, actor: str = "user", origin: object | None = None
    ) -> Node:
        """Merge ``other_id`` into ``keep_id`` (one undoable edit); see :mod:`.merging`."""
        from .merging import merge_nodes

        return merge_nodes(self, chat_id, keep_id, other_id, actor=actor)

    # undo / redo ---------------------------------------------------------------------------
    def _undo_target(self, uow: UnitOfWork, chat_id: str, status: str) -> int | None:
        """Undo takes the newest applied manual batch; redo the oldest undone one (the most
        recently undone, since undos walk backwards)."""
        batches = uow.read.batches(chat_id, status=status, kind="manual")
        if not batches:
            return None
        return batches[-1].id if status == "applied" else batches[0].id

    def history_steps(self, chat_id: str) -> HistorySteps:
        """What :meth:`undo` and :meth:`redo` would step over now (for the Edit menu's labels)."""

        def read(reader: Reader) -> HistorySteps:
            if reader.chat_pk(chat_id) is None:
                return HistorySteps(None, None)
            applied = reader.batches(chat_id, status="applied", kind="manual")
            undone = reader.batches(chat_id, status="undone", kind="manual")
            return HistorySteps(
                applied[-1].description if applied else None, undone[0].description if undone else None
            )

        return self.read(read)

    @operation(Initiator.UNDO)
    def undo(self, chat_id: str, *, origin: object | None = None) -> bool:
        """Undo the newest manual edit of this chat (or recorded rewrite, see :mod:`.rewrites`);
        False when there is nothing to undo."""
        from . import rewrites

        return self._step_history(chat_id, "applied", rewrites.undo_batch, "undo")

    @operation(Initiator.REDO)
    def redo(self, chat_id: str, *, origin: object | None = None) -> bool:
        """Redo the most recently undone manual edit; False when there is nothing to redo."""
        from . import rewrites

        return self._step_history(chat_id, "undone", rewrites.redo_batch, "redo")

    def _step_history(
        self, chat_id: str, status: str, apply: Callable[[UnitOfWork, int], None], action: str
    ) -> bool:
        if chat_id in self.rewriting:
            from .rewrites import RewriteRunning

            raise RewriteRunning(f"cannot {action} while a maintenance task is rewriting chat {chat_id!r}")

        def op(uow: UnitOfWork) -> bool:
            batch_id = self._undo_target(uow, chat_id, status)
            if batch_id is None:
                return False
            try:
                apply(uow, batch_id)
            except journal.JournalConflict as exc:
                raise Conflict(f"cannot {action}: {exc}") from exc
            uow.audit(chat_id, "user", action, str(batch_id))
            return True

        return self._write_checked(op)

    # recall --------------------------------------------------------------------------------
    def recall(self, request: RecallRequest, *, keep: bool = True) -> RecallResult:
        """Recall for ``request``. With an ``index`` (and ``keep``) the result is kept for that
        message; the record is written just after the answer (``write_later``)."""
        if self.recaller is None:
            from .recall.keyword import KeywordRecaller

            self.recaller = KeywordRecaller(self)
        # A recaller that holds the chat's state already checks it is still stored (one
        # database round trip less a recall); otherwise look before it loads anything.
        knows = isinstance(self.recaller, KnowsChat) and self.recaller.knows_chat(request.chat_id)
        if not knows and not self.has_chat(request.chat_id):
            raise NotFound(f"no chat named {request.chat_id!r}")
        with foreground():  # background threads pause at their next yield point meanwhile
            result = self.recaller.recall(request)
        if keep and request.index is not None:
            from .store.recall_records import store_recall_record

            self.write_later(lambda uow: store_recall_record(uow, request, result))
        self.events.publish(
            RecallFinished(request.chat_id, request.index, len(result.nodes), round(result.elapsed_ms, 2))
        )
        return result

    def warm_up(self) -> None:
        """Start loading what the first recall would otherwise wait for (the Chinese word list,
        the embedding model) in the background: ``serve`` calls it at start, so a chat that
        connects later, or a long history pushed at once, is recalled without that wait."""
        if isinstance(self.recaller, WarmsUp):
            self.recaller.warm_up()

    def prepare_recall(
        self,
        chat_id: str,
        user_input: str,
        index: int | None = None,
        last_reply: str | None = None,
        previous_input: str | None = None,
    ) -> int:
        """Get ready for a recall of ``user_input`` (the message being typed): the chat's state
        is brought up to date and the query embedded in the background, so the recall itself
        only ranks. Returns how many texts were queued for embedding (0 when all were ready
        or the recaller has nothing to prepare)."""
        if not self.has_chat(chat_id):
            raise NotFound(f"no chat named {chat_id!r}")
        if not isinstance(self.recaller, Prepares):
            return 0
        return int(self.recaller.prepare(chat_id, user_input, index, last_reply, previous_input))

    @operation(Initiator.RECALL)
    def put_recall_record(
        self, request: RecallRequest, result: RecallResult, *, origin: object | None = None
    ) -> None:
        from .store.recall_records import store_recall_record

        self._write_checked(lambda uow: store_recall_record(uow, request, result))

    def recall_record(self, chat_id: str, index: int) -> RecallRecord | None:
        self.flush_later_writes()
        return self.read(lambda r: r.recall_record(chat_id, index))

    def recall_records(self, chat_id: str) -> list[RecallRecord]:
        self.flush_later_writes()
        return self.read(lambda r: r.recall_records(chat_id))

    @operation(Initiator.USER)
    def edit_recall_record(
        self, chat_id: str, index: int, injection: str, *, origin: object | None = None
    ) -> RecallRecord:
        from .store.recall_records import edit_recall_injection

        return self._write_checked(lambda uow: edit_recall_injection(uow, chat_id, index, injection))

    @operation(Initiator.USER)
    def delete_recall_record(self, chat_id: str, index: int, *, origin: object | None = None) -> bool:
        from .store.recall_records import delete_recall

        return self._write_checked(lambda uow: delete_recall(uow, chat_id, index))

    # retention (core/lifecycle/retention.py) ---------------------------------------------------
    def retention_preview(self, chat_id: str) -> dict[str, Any]:
        """What the next upkeep would retire to the recycle bin and delete from it for good, as
        of now: ``{"total", "by_rule", "refused", "refused_text", "bin_expiring"}``; reads only."""
        from .lifecycle.retention import plan_retention

        if not self.has_chat(chat_id):
            raise NotFound(f"no chat named {chat_id!r}")
        now, settings = self.now(), self.settings.lifecycle
        plan = self.read(lambda r: plan_retention(r, chat_id, now, settings))
        return {
            "total": len(plan.retire),
            "by_rule": plan.by_rule,
            "refused": plan.refused,
            "refused_text": plan.refusal_text(),
            "bin_expiring": plan.bin_expiring,
        }

    # the life cycle: review, patrol, meta-memory, persona ----------------------------------------
    def review_card(self, chat_id: str, node_id: str) -> ReviewCard:
        """A pending memory as the reviewer sees it: why it waits and the messages it came from."""
        from .lifecycle.review_queue import review_card

        return review_card(self, chat_id, node_id)

    @operation(Initiator.REVIEW)
    def decide_review(
        self,
        chat_id: str,
        node_ids: Sequence[str],
        status: str,
        *,
        actor: str = "user",
        reason: str | None = None,
        origin: object | None = None,
    ) -> list[Node]:
        """Approve, reject or reopen memories (a review decision, not an edit). The intake queued
        for the chat runs first (``wait_for_follow_up``): run after the decision, it would send
        a new memory the user just approved back to review."""
        from .lifecycle.review import decide

        self.wait_for_follow_up(chat_id)
        return decide(self, chat_id, node_ids, status, actor=actor, reason=reason)

    def patrol_report(self, chat_id: str) -> PatrolReport:
        """Today's look over the chat's memories (one read, nothing written)."""
        from .lifecycle.patrol import patrol_report

        return patrol_report(self, chat_id)

    def latest_patrol(self, chat_id: str) -> dict[str, Any] | None:
        """The daily patrol report kept in the chat's state (None before the first)."""
        from .lifecycle.patrol_daily import latest_patrol

        return latest_patrol(self, chat_id)

    @operation(Initiator.UPKEEP)
    def run_patrol(self, chat_id: str, *, origin: object | None = None) -> dict[str, Any]:
        """Patrol now and keep the report as the chat's latest."""
        from .lifecycle.patrol_daily import run_patrol

        return run_patrol(self, chat_id)

    def what_do_i_know(self, chat_id: str, about: str) -> Knowledge:
        """Meta-memory: the memories about ``about`` and how sure they are (read-only)."""
        from .lifecycle.knowledge import what_do_i_know

        return what_do_i_know(self, chat_id, about)

    def current_persona(self, chat_id: str) -> Persona | None:
        from .lifecycle.persona import current_persona

        return current_persona(self, chat_id)

    def persona_history(self, chat_id: str) -> list[Persona]:
        from .lifecycle.persona import persona_history

        return persona_history(self, chat_id)

    @operation(Initiator.USER)
    def reject_trait(
        self, chat_id: str, trait: str, *, actor: str = "user", origin: object | None = None
    ) -> None:
        from .lifecycle.persona import reject_trait

        reject_trait(self, chat_id, trait, actor=actor)

    @operation(Initiator.USER)
    def unreject_trait(
        self, chat_id: str, trait: str, *, actor: str = "user", origin: object | None = None
    ) -> None:
        from .lifecycle.persona import unreject_trait

        unreject_trait(self, chat_id, trait, actor=actor)

    # maintenance ---------------------------------------------------------------------------
    @operation(Initiator.UPKEEP)
    def run_maintenance(
        self, chat_id: str, task: str, *, cancel: CancelToken | None = None, origin: object | None = None
    ) -> ChangeRecord:
        """Run a maintenance task. With ``cancel``, a task that honours it (``CancellableTask``)
        stops at its next checkpoint raising ``Cancelled`` (its write rolled back); any other
        task only checks the token before it starts."""
        if task not in MAINTENANCE_TASKS:
            raise ValidationError("task", f"must be one of {', '.join(MAINTENANCE_TASKS)}")
        if not self.has_chat(chat_id):
            raise NotFound(f"no chat named {chat_id!r}")
        runner = self.maintenance_tasks.get(task)
        if runner is None:
            raise Conflict(f"this version of BME Desktop cannot run {task!r} yet")
        checkpoint(cancel)
        if isinstance(runner, CancellableTask):
            return runner.run(chat_id, cancel)
        return runner(chat_id)

    @operation(Initiator.UPKEEP)
    def run_recorded(
        self,
        chat_id: str,
        task: str,
        cancel: CancelToken | None = None,
        *,
        plan: RewritePlan | None = None,
        origin: object | None = None,
    ) -> ChangeRecord:
        """Run a maintenance task as one step of the chat's undo history (``rewrites.run_recorded``)."""
        from .rewrites import run_recorded

        return run_recorded(self, chat_id, task, cancel, plan=plan)

    @operation(Initiator.UPKEEP)
    def run_chat_operation(
        self,
        chat_id: str,
        task: str,
        *,
        start: int | None = None,
        end: int | None = None,
        cancel: CancelToken | None = None,
        progress: Callable[[int, int], None] | None = None,
        origin: object | None = None,
    ) -> OperationResult:
        """One of ST-BME's hand-run operations (re-extract, evolve, rebuilds; ``chat_ops``)."""
        from .chat_ops import run_operation

        return run_operation(self, chat_id, task, start=start, end=end, cancel=cancel, progress=progress)

    # backups, imports, the demo ------------------------------------------------------------
    @operation(Initiator.IMPORT)
    def import_chats(
        self,
        chats: Collection[ChatDoc],
        *,
        mode: ImportMode = "new",
        as_chat: str | None = None,
        delete: Sequence[str] = (),
        origin: object | None = None,
    ) -> ImportResult:
        """Import (or restore) whole chats of a backup in one transaction (``backup.importer``)."""
        from .backup.importer import import_chats

        return import_chats(self, chats, mode=mode, as_chat=as_chat, delete=delete)

    @operation(Initiator.IMPORT)
    def import_memories(
        self, chats: Collection[ChatDoc], mode: MemoryMode = "skip", *, origin: object | None = None
    ) -> ImportPlan:
        """Import an export's memories into the chats here (``backup.memory_import``)."""
        from .backup.memory_import import import_memories

        return import_memories(self, chats, mode)

    @operation(Initiator.USER)
    def purge_all(self, *, origin: object | None = None) -> PurgeResult:
        """Delete every chat for good, then compact the database (``backup.purge``)."""
        from .backup.purge import purge_all

        return purge_all(self)

    @operation(Initiator.IMPORT)
    def build_demo(self, *, seed: int = 7, scale: int = 8, origin: object | None = None) -> DemoReport:
        """Two demo chats, when there is no chat yet (``demo_story``)."""
        from .demo_story import build_demo

        return build_demo(self, seed=seed, scale=scale)
