"""Cooperative cancellation of long work (maintenance tasks, extract now, file actions).

Whoever starts the work makes a ``CancelToken`` and passes it down; whoever wants it stopped
calls ``cancel()`` (from any thread). The work calls ``checkpoint(token)`` at its safe
points (each loop round, before and inside its one write); there it raises ``Cancelled``.
Raised inside ``MemoryService.write`` it rolls the transaction back, so a cancelled
one-write task leaves the store exactly as it was. ``CancellableTask`` is a maintenance
task runner that accepts a token; called with a chat id alone it runs as before.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from .events import ChangeRecord


class Cancelled(Exception):
    """The work was cancelled at a checkpoint; nothing after the last commit was kept."""

    def __init__(self) -> None:
        super().__init__("cancelled")


@dataclass(frozen=True)
class CancelToken:
    """A one-way switch shared by the canceller and the work (thread-safe)."""

    event: threading.Event = field(default_factory=threading.Event)

    def cancel(self) -> None:
        self.event.set()

    @property
    def cancelled(self) -> bool:
        return self.event.is_set()

    def check(self) -> None:
        """Raise ``Cancelled`` when cancellation was asked for."""
        if self.event.is_set():
            raise Cancelled()


def checkpoint(token: CancelToken | None) -> None:
    """``token.check()``; nothing when there is no token (work nobody can cancel)."""
    if token is not None:
        token.check()


@dataclass(frozen=True)
class CancellableTask:
    """A maintenance task runner that honours a token: ``task(chat_id)`` runs it uncancellable
    (the ``maintenance_tasks`` contract), ``task.run(chat_id, token)`` with checkpoints."""

    fn: Callable[[str, CancelToken | None], ChangeRecord]

    def __call__(self, chat_id: str) -> ChangeRecord:
        return self.fn(chat_id, None)

    def run(self, chat_id: str, cancel: CancelToken | None) -> ChangeRecord:
        return self.fn(chat_id, cancel)
