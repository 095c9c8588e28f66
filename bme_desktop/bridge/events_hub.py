"""Fan-out of the service's events to WebSocket clients, on the bridge's loop."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core.events import (
    ChatDeleted,
    ChatSynced,
    ErrorReported,
    Event,
    EventBus,
    ExtractionFinished,
    ExtractionProgressed,
    ExtractionStarted,
    GraphChanged,
    MaintenanceProgressed,
    RecallFinished,
)

log = logging.getLogger(__name__)

# The protocol's events, plus the extras the protocol allows: ``chat.deleted``,
# ``maintenance.progress`` (an operation's progress, ``core.chat_ops``) and
# ``extraction.progress`` (how far a chat's extraction is, ``core.extract.scheduler``). Each
# goes out under its wire name (``core.events.WIRE_NAMES``) as ``event.to_json()`` renders it.
FORWARDED = (
    ChatSynced,
    ExtractionStarted,
    ExtractionFinished,
    GraphChanged,
    RecallFinished,
    ErrorReported,
    ChatDeleted,
    MaintenanceProgressed,
    ExtractionProgressed,
)


OVERFLOW = "\x00overflow"  # queued in place of events a slow client missed; it is then closed


@dataclass(eq=False)
class Subscriber:
    queue: asyncio.Queue[str]
    chat_id: str | None = None
    overflowed: bool = False


class EventHub:
    """Subscribes once to the service's bus; each client gets its own bounded queue.
    A client that falls ``queue_size`` events behind is marked overflowed (and closed)."""

    def __init__(self, queue_size: int = 1000) -> None:
        self.queue_size = queue_size
        self.subscribers: set[Subscriber] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._unsubscribe: Callable[[], None] | None = None

    def attach(self, bus: EventBus, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._unsubscribe = bus.on(FORWARDED, self._on_event)

    def detach(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def _on_event(self, event: Event) -> None:
        """Called on the publishing thread: hand the event to the loop and return."""
        if self._loop is None or self._loop.is_closed():
            return
        try:
            payload = json.dumps(event.to_json(), ensure_ascii=False, default=str)
        except (TypeError, ValueError):
            log.exception("cannot render event %s", event.type)
            return
        with contextlib.suppress(RuntimeError):  # the loop closed between the check and the call
            self._loop.call_soon_threadsafe(self.publish, payload, event.chat_id)

    def publish(self, payload: str, chat_id: str | None) -> None:
        for sub in list(self.subscribers):
            if sub.overflowed:
                continue
            if sub.chat_id is not None and chat_id is not None and sub.chat_id != chat_id:
                continue
            try:
                sub.queue.put_nowait(payload)
            except asyncio.QueueFull:
                sub.overflowed = True
                while not sub.queue.empty():
                    sub.queue.get_nowait()
                sub.queue.put_nowait(OVERFLOW)

    def publish_json(self, data: dict[str, Any]) -> None:
        self.publish(json.dumps(data, ensure_ascii=False, default=str), data.get("chat_id"))

    def subscribe(self, chat_id: str | None) -> Subscriber:
        sub = Subscriber(asyncio.Queue(self.queue_size), chat_id)
        self.subscribers.add(sub)
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        self.subscribers.discard(sub)
