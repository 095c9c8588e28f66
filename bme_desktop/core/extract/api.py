"""The contract between the service's sync and an extraction scheduler."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True)
class ExtractionTicket:
    """What a sync queued. ``wait()`` blocks until that work has finished (or failed) and
    returns how many batches were extracted meanwhile; ``waiter`` (set by a scheduler) does
    the waiting."""

    queued: int
    done: int = 0
    waiter: Callable[[float | None], int] | None = field(default=None, compare=False, repr=False)

    def wait(self, timeout: float | None = None) -> int:
        return self.waiter(timeout) if self.waiter is not None else self.done


class ExtractionScheduler(Protocol):
    def schedule(self, chat_id: str, *, force: bool = False) -> ExtractionTicket:
        """Queue extraction of the chat's unprocessed messages; never blocks on the work."""
        ...

    def shutdown(self, wait: bool = True) -> None: ...


class NoExtraction:
    """Stores messages and extracts nothing (used where no extractor is configured)."""

    def schedule(self, chat_id: str, *, force: bool = False) -> ExtractionTicket:
        return ExtractionTicket(queued=0)

    def shutdown(self, wait: bool = True) -> None:
        return None
