"""The contract between the service's sync and an extraction scheduler."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class ExtractionTicket:
    """What a sync queued. ``wait()`` blocks until that work has finished (or failed)."""

    queued: int
    done: int = 0

    def wait(self, timeout: float | None = None) -> int:
        return self.done


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
