"""Change records and a small thread-safe publish/subscribe bus.

Every mutation returns a :class:`ChangeRecord`. The same record drives the UI's
redraws, the bridge's ``graph.changed`` events and undo.
"""

from __future__ import annotations

import logging
import operator
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

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
        return not (self.nodes_added or self.nodes_changed or self.nodes_removed or self.edges_added
                    or self.edges_changed or self.edges_removed)

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
            "nodes_added": len(self.nodes_added), "nodes_changed": len(self.nodes_changed),
            "nodes_removed": len(self.nodes_removed), "edges_added": len(self.edges_added),
            "edges_changed": len(self.edges_changed), "edges_removed": len(self.edges_removed),
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "nodes": {"added": sorted(self.nodes_added), "changed": sorted(self.nodes_changed),
                      "removed": sorted(self.nodes_removed)},
            "edges": {"added": sorted(self.edges_added), "changed": sorted(self.edges_changed),
                      "removed": sorted(self.edges_removed)},
            "messages_changed": self.messages_changed,
            "batch_id": self.batch_id,
        }


@dataclass(frozen=True)
class Event:
    """A typed event. ``type`` is one of the bridge's event names (``chat.synced``,
    ``extraction.started``, ``extraction.finished``, ``graph.changed``, ``recall.finished``,
    ``error``) or an internal one (``settings.changed``, ``job.progress``)."""

    type: str
    chat_id: str | None = None
    data: dict[str, Any] = field(default_factory=dict)
    change: ChangeRecord | None = None
    # Written by another instance on the same PostgreSQL database (``store/notify.py``):
    # refresh what you show or cache, but do not act on it as if this instance had written it.
    remote: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "chat_id": self.chat_id, **self.data}
        if self.change is not None:
            out["changes"] = self.change.to_json()
        return out


Subscriber = Callable[[Event], None]


class EventBus:
    """Subscribers are called on the publishing thread; they hand work to their own thread
    (a queued Qt signal, ``loop.call_soon_threadsafe``) and must return quickly.

    ``publish_soon`` is for a thread that must not run subscribers (the writer): the events
    are published in order on the bus's own thread (``bme-events``, a keyed worker started
    on first use); ``delivered`` waits for what was handed over so far."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: list[Subscriber] = []
        self._soon: KeyedWorker[None, list[Event]] = KeyedWorker(
            "bme-events", self._publish_all, merge=operator.add, low_priority=False)

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        with self._lock:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._subscribers:
                    self._subscribers.remove(callback)

        return unsubscribe

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
        for callback in subscribers:
            try:
                callback(event)
            except Exception:  # a broken subscriber must not break the writer
                log.exception("event subscriber failed on %s", event.type)
