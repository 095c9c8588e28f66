"""Ports: the small protocols the core's pipelines depend on, instead of ``MemoryService``.

A pipeline names only what it uses (``Reads``, ``Writes``, ``Clocked``, …, or one of the
composites at the end); ``MemoryService`` satisfies every one of them, and a test may hand a
pipeline anything else that does. No module here imports the service, so the pipelines do not
either (``tests/test_layering.py`` holds them to it).

The capabilities some recallers and extraction schedulers have and others lack (``knows_chat``,
``prepare``, ``vectors``, ``pause``, ``busy``) are declared here as runtime-checkable protocols:
code asks ``isinstance(recaller, HasVectors)`` instead of probing with ``getattr``.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar, runtime_checkable

if TYPE_CHECKING:
    from .cancel import CancelToken
    from .events import ChangeRecord, EventBus
    from .extract.api import ExtractionScheduler
    from .extract.progress import ExtractionProgress
    from .model import ChatStats, Edge, Message, Node, NodeQuery, RecallRequest, RecallResult
    from .operations import OpResult
    from .providers.chat_model import ModelLenders
    from .recall.api import Recaller
    from .settings import Settings
    from .store.reader import Reader
    from .store.store import Store
    from .store.unit_of_work import UnitOfWork

T = TypeVar("T")
MaintenanceTask = Callable[[str], "ChangeRecord"]


# --- the memory ---------------------------------------------------------------------------------


class Reads(Protocol):
    def read(self, fn: Callable[[Reader], T]) -> T:
        """Run ``fn`` with a reader on the caller's thread (its own connection)."""
        ...


class Writes(Protocol):
    def write(self, fn: Callable[[UnitOfWork], T]) -> T:
        """Run ``fn`` in one transaction on the writer thread; what changed is published."""
        ...


class LateWrites(Protocol):
    def write_later(self, fn: Callable[[UnitOfWork], object]) -> None:
        """Queue bookkeeping nobody waits for (kept recalls, recall hits) on the writer, written
        in order before any write asked for later."""
        ...

    def flush_later_writes(self) -> None:
        """Wait until the later writes queued so far are written (a read that must see them)."""
        ...


class Recalls(Protocol):
    def recall(self, request: RecallRequest, *, keep: bool = True) -> RecallResult:
        """Recall for ``request`` (kept for its message when it names one and ``keep``)."""
        ...


class ManualEdits(Protocol):
    def manual_write(self, chat_id: str, actor: str, action: str, fn: Callable[[UnitOfWork], T]) -> T:
        """A user's edit: one journaled, audited, undoable batch around ``fn``."""
        ...


class ChatQueries(Protocol):
    """The service's own read methods (each one transaction)."""

    def has_chat(self, chat_id: str) -> bool: ...

    def list_chats(self) -> list[ChatStats]: ...

    def messages(self, chat_id: str, start: int = 0, end: int | None = None) -> list[Message]: ...

    def get_node(self, chat_id: str, node_id: str, *, include_deleted: bool = False) -> Node: ...

    def search_nodes(self, chat_id: str, query: NodeQuery) -> tuple[list[Node], int]: ...

    def all_nodes(self, chat_id: str) -> list[Node]: ...

    def edges(
        self, chat_id: str, *, node_id: str | None = None, limit: int | None = None, offset: int = 0
    ) -> list[Edge]: ...


class StoreAccess(Protocol):
    """The database itself: for what works below transactions (claims, size, compaction)."""

    @property
    def store(self) -> Store: ...


# --- the surroundings ---------------------------------------------------------------------------


class Clocked(Protocol):
    def now(self) -> float:
        """Seconds since the UNIX epoch by the service's clock (a manual one in simulations)."""
        ...


class Publishes(Protocol):
    @property
    def events(self) -> EventBus: ...


class Configured(Protocol):
    @property
    def settings(self) -> Settings: ...

    @property
    def data_dir(self) -> Path | None: ...


class Lending(Protocol):
    @property
    def lenders(self) -> ModelLenders:
        """Models lent by the bridge (SillyTavern's connection, the proxy's upstream)."""
        ...


class Lifetime(Protocol):
    @property
    def closed(self) -> bool:
        """True once closing has begun: background workers take no new work."""
        ...

    def on_close(self, callback: Callable[[], None]) -> None: ...

    def on_writer_thread(self) -> bool:
        """Whether the caller runs on the writer thread (where ``write`` may not be called)."""
        ...


class FollowUps(Protocol):
    def wait_for_follow_up(self, chat_id: str, timeout: float | None = None) -> bool:
        """Wait until the work the chat's events queued on background workers is done (the life
        cycle's intake and after-extraction steps); False on timeout. Not from the writer or
        from such a worker's own thread (RuntimeError)."""
        ...


# --- the pipelines, as the service holds them ----------------------------------------------------


class Maintenance(Protocol):
    @property
    def maintenance_tasks(self) -> dict[str, MaintenanceTask]: ...

    @property
    def rewriting(self) -> set[str]:
        """Chats a recorded rewrite is running on (undo and redo wait for it)."""
        ...

    def run_maintenance(
        self, chat_id: str, task: str, *, cancel: CancelToken | None = None, origin: object | None = None
    ) -> OpResult[ChangeRecord]: ...


class Pipelines(Protocol):
    @property
    def extraction(self) -> ExtractionScheduler: ...

    @property
    def recaller(self) -> Recaller | None: ...

    def vector_index(self) -> VectorIndex | None:
        """The recaller's vector index, if it has one."""
        ...


class Wiring(Protocol):
    """How a pipeline hands itself to the service (``attach``): the service keeps it."""

    def use_recaller(self, recaller: Recaller) -> None: ...

    def use_extraction(self, extraction: ExtractionScheduler) -> None: ...

    def add_maintenance_task(self, name: str, task: MaintenanceTask) -> None: ...

    def add_follow_up(self, wait: Callable[[str, float | None], bool]) -> Callable[[], None]:
        """Have ``wait_for_follow_up`` wait with ``wait(chat_id, timeout)`` too (a worker the
        events queue work on); returns how to take it back."""
        ...


# --- capabilities some implementations have (probed with isinstance) ---------------------------


@runtime_checkable
class KnowsChat(Protocol):
    def knows_chat(self, chat_id: str) -> bool:
        """True when the chat's state is loaded and still stored (False: look it up)."""
        ...


@runtime_checkable
class WarmsUp(Protocol):
    def warm_up(self) -> None:
        """Load what the first recall needs (word lists, models) on a thread of its own, now."""
        ...


@runtime_checkable
class Prepares(Protocol):
    def prepare(
        self,
        chat_id: str,
        user_input: str,
        index: int | None = None,
        last_reply: str | None = None,
        previous_input: str | None = None,
    ) -> int: ...


class VectorIndex(Protocol):
    """A recaller's vector index, as callers outside recall see it."""

    def index(self, chat_id: str) -> object:
        """Load the chat's vectors (if no recall has yet)."""
        ...

    def status(self, chat_id: str) -> tuple[str | None, int | None, bool]:
        """(model, how many memories are embedded, whether some still wait)."""
        ...

    def engine(self) -> str | None: ...

    def wait_chat(self, chat_id: str, timeout: float | None = None) -> bool: ...


@runtime_checkable
class HasVectors(Protocol):
    @property
    def vectors(self) -> VectorIndex: ...


@runtime_checkable
class Pausable(Protocol):
    def pause(self) -> AbstractContextManager[None]: ...


@runtime_checkable
class ReportsBusy(Protocol):
    def busy(self, chat_id: str) -> bool: ...


@runtime_checkable
class ReportsProgress(Protocol):
    def progress(self, chat_id: str) -> ExtractionProgress | None: ...


@runtime_checkable
class RunsNow(Protocol):
    def run_now(self, chat_id: str, cancel: CancelToken | None = None) -> int:
        """Extract every due batch on the calling thread (cancellable); the batches committed."""
        ...


# --- composites ---------------------------------------------------------------------------------


class Memory(Reads, Writes, Clocked, Configured, Publishes, Protocol):
    """What most pipelines use: read, write, the clock, the settings, the events."""


class ModelSteps(Memory, Lending, Protocol):
    """A step that may ask a model (configured, or lent by the bridge) before it writes."""


class Background(Publishes, Lifetime, Protocol):
    """A background worker: it listens to the events and stops when the service closes."""


class RecallSource(Reads, ChatQueries, Publishes, Protocol):
    """What a recall state reads (messages, memories, links) and the events that make it stale."""


class Editing(Reads, Writes, ManualEdits, ChatQueries, Configured, Protocol):
    """Review decisions, persona rejections, waking: user edits next to plain writes."""


class Matching(Reads, Pipelines, Protocol):
    """Extraction's near-duplicate check: the memories and recall's vector index."""


class Backups(Memory, Pipelines, FollowUps, Protocol):
    """Export, backup, restore and import (an import pauses extraction meanwhile and waits for
    the intake of what it wrote)."""


class Extracting(ModelSteps, StoreAccess, Pipelines, FollowUps, Protocol):
    """An extraction run: the model, the per-chat claim on the database, the vector index, and
    waiting for the intake of each batch."""


class Rewriting(Reads, Writes, LateWrites, FollowUps, Maintenance, Protocol):
    """What a recorded rewrite needs: reads and writes, the later writes and the follow-up work
    (intake) settled before and after, the maintenance tasks and the set of chats being rewritten."""


class ChatOperations(Rewriting, ModelSteps, ChatQueries, Pipelines, Protocol):
    """What the chat operations (re-extract, evolve, rebuilds) coordinate: the rewrite's needs,
    the model, the chat's memories and the pipelines they restart."""


class Purging(Writes, LateWrites, StoreAccess, Publishes, Pipelines, Protocol):
    """What purging everything needs: one write, the store to compact, the events to announce it."""


class TaskRegistry(ModelSteps, Wiring, Protocol):
    """What registering the life-cycle tasks needs: model steps, and the service to register on."""


class Core(
    Memory,
    LateWrites,
    ManualEdits,
    ChatQueries,
    StoreAccess,
    Lending,
    Lifetime,
    FollowUps,
    Maintenance,
    Pipelines,
    Wiring,
    Protocol,
):
    """Everything the service offers its pipelines: for the wiring and the few that coordinate
    several pipelines (chat operations, the life-cycle worker). Narrow it where you can."""


__all__ = [
    "Background",
    "Backups",
    "ChatOperations",
    "ChatQueries",
    "Clocked",
    "Configured",
    "Core",
    "Editing",
    "Extracting",
    "FollowUps",
    "HasVectors",
    "KnowsChat",
    "LateWrites",
    "Lending",
    "Lifetime",
    "Maintenance",
    "MaintenanceTask",
    "ManualEdits",
    "Matching",
    "Memory",
    "ModelSteps",
    "Pausable",
    "Pipelines",
    "Prepares",
    "Publishes",
    "Purging",
    "Reads",
    "RecallSource",
    "Recalls",
    "ReportsBusy",
    "ReportsProgress",
    "Rewriting",
    "RunsNow",
    "StoreAccess",
    "TaskRegistry",
    "VectorIndex",
    "Wiring",
    "Writes",
]
