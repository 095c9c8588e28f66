"""Change records, the typed events and a small thread-safe publish/subscribe bus.

Every write collects a :class:`ChangeRecord` per chat; after the commit each goes out as a
:class:`GraphChanged` event (with its :class:`Initiator`). The same record drives the UI's
redraws, the bridge's ``graph.changed`` events and undo. Events are dataclasses, subscribed
to by class; ``WIRE_NAMES`` names them for the bridge's WebSocket.
"""

from __future__ import annotations

import dataclasses
import logging
import operator
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar, cast

from .work import KeyedWorker

log = logging.getLogger(__name__)


@dataclass
class ChangeRecord:
    chat_id: str
    nodes_added: set[str] = field(default_factory=set)
    nodes_changed: set[str] = field(default_factory=set)
    nodes_removed: set[str] = field(default_factory=set)
    edges_added: set[str] = field(default_factory=set)
    edges_changed: set[str] = field(default_factory=set)
    edges_removed: set[str] = field(default_factory=set)
    messages_changed: bool = False
    batch_id: int | None = None

    @property
    def empty(self) -> bool:
        """True when no node or edge changed (message changes alone do not count)."""
        return not (
            self.nodes_added
            or self.nodes_changed
            or self.nodes_removed
            or self.edges_added
            or self.edges_changed
            or self.edges_removed
        )

    def node_added(self, node_id: str) -> None:
        self.nodes_removed.discard(node_id)
        self.nodes_added.add(node_id)

    def node_changed(self, node_id: str) -> None:
        if node_id not in self.nodes_added:
            self.nodes_changed.add(node_id)

    def node_removed(self, node_id: str) -> None:
        if node_id in self.nodes_added:
            self.nodes_added.discard(node_id)
        else:
            self.nodes_removed.add(node_id)
        self.nodes_changed.discard(node_id)

    def edge_added(self, edge_id: str) -> None:
        self.edges_removed.discard(edge_id)
        self.edges_added.add(edge_id)

    def edge_changed(self, edge_id: str) -> None:
        if edge_id not in self.edges_added:
            self.edges_changed.add(edge_id)

    def edge_removed(self, edge_id: str) -> None:
        if edge_id in self.edges_added:
            self.edges_added.discard(edge_id)
        else:
            self.edges_removed.add(edge_id)
        self.edges_changed.discard(edge_id)

    def merge(self, other: ChangeRecord) -> None:
        for n in other.nodes_added:
            self.node_added(n)
        for n in other.nodes_changed:
            self.node_changed(n)
        for n in other.nodes_removed:
            self.node_removed(n)
        for e in other.edges_added:
            self.edge_added(e)
        for e in other.edges_changed:
            self.edge_changed(e)
        for e in other.edges_removed:
            self.edge_removed(e)
        self.messages_changed = self.messages_changed or other.messages_changed

    def counts(self) -> dict[str, int]:
        return {
            "nodes_added": len(self.nodes_added),
            "nodes_changed": len(self.nodes_changed),
            "nodes_removed": len(self.nodes_removed),
            "edges_added": len(self.edges_added),
            "edges_changed": len(self.edges_changed),
            "edges_removed": len(self.edges_removed),
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "nodes": {
                "added": sorted(self.nodes_added),
                "changed": sorted(self.nodes_changed),
                "removed": sorted(self.nodes_removed),
            },
            "edges": {
                "added": sorted(self.edges_added),
                "changed": sorted(self.edges_changed),
                "removed": sorted(self.edges_removed),
            },
            "messages_changed": self.messages_changed,
            "batch_id": self.batch_id,
        }


class Initiator(StrEnum):
    """Who started a write: a front end's user, or one of the core's own pipelines. It rides on
    ``GraphChanged`` and ``OpResult`` so a listener can tell an edit from background work."""

    USER = "user"  # a manual edit (the app, the bridge, the MCP server, the command line)
    UNDO = "undo"
    REDO = "redo"
    REVIEW = "review"  # a review decision
    SYNC = "sync"  # messages pushed (and the memories their change rolled back)
    EXTRACTION = "extraction"
    UPKEEP = "upkeep"  # the life cycle and maintenance tasks
    IMPORT = "import"  # backups, imports, World Info
    LOREBOOK = "lorebook"  # SillyTavern's lorebook
    RECALL = "recall"  # kept recalls
    OTHER = "other"  # a write that names no initiator


class _ByWireName(type):
    """``Event("graph.changed", chat_id, data)`` (the string-typed form of before) builds the
    typed event that wire name stands for: an adapter for callers not yet typed."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if cls is Event:
            return from_wire(*args, **kwargs)
        return super().__call__(*args, **kwargs)


@dataclass(frozen=True)
class Event(metaclass=_ByWireName):
    """An event on the bus. Subscribers subscribe by class (``EventBus.on``); ``type`` is the
    wire name the bridge's WebSocket gives it (``WIRE_NAMES``, the one table) and ``data`` its
    payload there, for the front ends that speak that protocol."""

    chat_id: str | None
    # Written by another instance on the same PostgreSQL database (``store/notify.py``):
    # refresh what you show or cache, but do not act on it as if this instance had written it.
    remote: bool = field(default=False, kw_only=True)

    @property
    def type(self) -> str:
        return WIRE_NAMES[type(self)]

    @property
    def data(self) -> dict[str, Any]:
        """The payload on the wire (beside ``type`` and ``chat_id``)."""
        return {}

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "chat_id": self.chat_id, **self.data}


@dataclass(frozen=True)
class GraphChanged(Event):
    """Memories or links changed (one per chat and write, after the commit)."""

    change: ChangeRecord
    initiator: Initiator = Initiator.OTHER
    # Who asked for the write, as the caller named it (a panel): told apart from others' edits.
    origin: object | None = field(default=None, compare=False)

    @property
    def data(self) -> dict[str, Any]:
        return dict(self.change.counts())

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "changes": self.change.to_json()}


@dataclass(frozen=True)
class ChatSynced(Event):
    """Messages were stored (``MemoryService.sync``)."""

    stored: int = 0
    changed_from: int | None = None
    revision: int | None = None
    members: list[dict[str, object]] | None = None  # the group's members, when the sync changed them
    rescoped: bool = False  # who shares memories with whom changed

    @property
    def data(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "stored": self.stored,
            "changed_from": self.changed_from,
            "revision": self.revision,
        }
        if self.members is not None:
            out["members"] = self.members
        if self.rescoped:
            out["rescoped"] = True
        return out


@dataclass(frozen=True)
class ChatDeleted(Event):
    pass


@dataclass(frozen=True)
class RecallFinished(Event):
    index: int | None = None
    nodes: int = 0
    elapsed_ms: float = 0.0

    @property
    def data(self) -> dict[str, Any]:
        return {"index": self.index, "nodes": self.nodes, "elapsed_ms": self.elapsed_ms}


@dataclass(frozen=True)
class ExtractionStarted(Event):
    start: int = 0  # the batch's first and last message (``from`` and ``to`` on the wire)
    end: int = 0

    @property
    def data(self) -> dict[str, Any]:
        return {"from": self.start, "to": self.end}


@dataclass(frozen=True)
class ExtractionFinished(Event):
    start: int | None = None
    end: int | None = None
    batch_id: int | None = None
    extractor: str | None = None
    model: str | None = None
    note: str | None = None
    report: dict[str, Any] = field(default_factory=dict)  # what the batch created, updated, dropped

    @property
    def data(self) -> dict[str, Any]:
        return {
            "from": self.start,
            "to": self.end,
            "batch_id": self.batch_id,
            "extractor": self.extractor,
            "model": self.model,
            "note": self.note,
            **self.report,
        }


@dataclass(frozen=True)
class ExtractionProgressed(Event):
    """How far the chat's extraction is (at most once a second while a pass runs)."""

    extracted: int = 0
    total: int = 0
    due: int = 0
    rate_per_s: float | None = None
    eta_s: float | None = None

    @property
    def data(self) -> dict[str, Any]:
        return {
            "extracted": self.extracted,
            "total": self.total,
            "due": self.due,
            "rate_per_s": self.rate_per_s,
            "eta_s": self.eta_s,
        }


@dataclass(frozen=True)
class MaintenanceProgressed(Event):
    task: str = ""
    done: int = 0
    total: int = 0

    @property
    def data(self) -> dict[str, Any]:
        return {"task": self.task, "done": self.done, "total": self.total}


@dataclass(frozen=True)
class ErrorReported(Event):
    """A step failed (and what it fell back to): ``detail`` holds its extra keys (``fallback``,
    ``model``, ``from``, ``to``) as the wire carries them."""

    stage: str = ""
    message: str = ""
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def data(self) -> dict[str, Any]:
        return {"stage": self.stage, "message": self.message, **self.detail}


@dataclass(frozen=True)
class VectorsSaved(Event):
    """Another instance stored these memories' vectors (load them, do not embed them)."""

    ids: tuple[str, ...] = ()

    @property
    def data(self) -> dict[str, Any]:
        return {"ids": list(self.ids)}


@dataclass(frozen=True)
class StoreResync(Event):
    """Another instance's writes may have gone unannounced: drop what is cached."""


@dataclass(frozen=True)
class Notice(Event):
    """An event named only by a string (the adapter's catch-all for names without a class)."""

    name: str = ""
    payload: dict[str, Any] = field(default_factory=dict)

    @property
    def type(self) -> str:
        return self.name

    @property
    def data(self) -> dict[str, Any]:
        return dict(self.payload)


# The one table of wire names: the bridge's WebSocket and the string-typed adapter use it.
WIRE_NAMES: dict[type[Event], str] = {
    GraphChanged: "graph.changed",
    ChatSynced: "chat.synced",
    ChatDeleted: "chat.deleted",
    RecallFinished: "recall.finished",
    ExtractionStarted: "extraction.started",
    ExtractionFinished: "extraction.finished",
    ExtractionProgressed: "extraction.progress",
    MaintenanceProgressed: "maintenance.progress",
    ErrorReported: "error",
    VectorsSaved: "vectors.saved",
    StoreResync: "store.resync",
}
_BY_NAME = {name: kind for kind, name in WIRE_NAMES.items()}
_RENAMED = {"from": "start", "to": "end"}


def from_wire(
    type: str,
    chat_id: str | None = None,
    data: dict[str, Any] | None = None,
    change: ChangeRecord | None = None,
    remote: bool = False,
) -> Event:
    """The typed event for a wire name and payload (the form ``Event(type, …)`` took before)."""
    data = dict(data or {})
    kind = _BY_NAME.get(type)
    if kind is GraphChanged:
        return GraphChanged(
            chat_id, change if change is not None else ChangeRecord(chat_id or ""), remote=remote
        )
    if kind is ErrorReported:
        return ErrorReported(
            chat_id, str(data.pop("stage", "")), str(data.pop("message", "")), data, remote=remote
        )
    if kind is VectorsSaved:
        return VectorsSaved(chat_id, tuple(map(str, data.get("ids") or ())), remote=remote)
    if kind is ExtractionFinished:
        known = {
            k: data.pop(k) for k in ("from", "to", "batch_id", "extractor", "model", "note") if k in data
        }
        return ExtractionFinished(
            chat_id, **{_RENAMED.get(k, k): v for k, v in known.items()}, report=data, remote=remote
        )
    if kind is not None:
        fields = {f.name for f in dataclasses.fields(kind)}
        kwargs = {_RENAMED.get(k, k): v for k, v in data.items() if _RENAMED.get(k, k) in fields}
        return kind(chat_id, **kwargs, remote=remote)
    return Notice(chat_id, type, data, remote=remote)


Subscriber = Callable[[Event], None]
E = TypeVar("E", bound=Event)


class EventBus:
    """Subscribers are called on the publishing thread; they only hand work to their own
    thread (a keyed worker's ``submit``, a queued Qt signal, ``loop.call_soon_threadsafe``) or
    mark what is stale, never run the work there, and return quickly. A caller that promises
    the work done waits for it (``MemoryService.wait_for_follow_up``: the life cycle's intake).

    ``on(GraphChanged, fn)`` calls ``fn`` with the events of that class (or classes);
    ``subscribe(fn)`` with every event. ``publish_soon`` is for a thread that must not run
    subscribers (the writer): the events are published in order on the bus's own thread (``bme-events``, a
    keyed worker started
    on first use); ``delivered`` waits for what was handed over so far."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: list[tuple[tuple[type[Event], ...], Subscriber]] = []
        self._soon: KeyedWorker[None, list[Event]] = KeyedWorker(
            "bme-events", self._publish_all, merge=operator.add, low_priority=False
        )

    def on(self, kinds: type[E] | tuple[type[E], ...], callback: Callable[[E], None]) -> Callable[[], None]:
        entry = (kinds if isinstance(kinds, tuple) else (kinds,), cast(Subscriber, callback))
        with self._lock:
            self._subscribers.append(entry)

        def unsubscribe() -> None:
            with self._lock:
                if entry in self._subscribers:
                    self._subscribers.remove(entry)

        return unsubscribe

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        return self.on(Event, callback)

    def publish_soon(self, events: list[Event]) -> None:
        """Publish ``events`` in order on the bus's own thread, after those handed over before."""
        if events and not self._soon.submit(None, list(events)):
            log.debug("events after the bus closed: %s", [e.type for e in events])

    def delivered(self, timeout: float | None = None) -> bool:
        """Wait until the events handed to ``publish_soon`` so far are published (at once on
        the bus's own thread); False on timeout."""
        return self._soon.on_thread() or self._soon.wait_idle(timeout)

    def close(self, timeout: float | None = 30.0) -> None:
        """Publish what ``publish_soon`` still holds (for at most ``timeout``), then stop its thread."""
        self.delivered(timeout)
        self._soon.close(timeout)

    def _publish_all(self, _key: None, events: list[Event]) -> None:
        for event in events:
            self.publish(event)

    def publish(self, event: Event) -> None:
        with self._lock:
            subscribers = list(self._subscribers)
        for kinds, callback in subscribers:
            if not isinstance(event, kinds):
                continue
            try:
                callback(event)
            except Exception:  # a broken subscriber must not break the writer
                log.exception("event subscriber failed on %s", type(event).__name__)
