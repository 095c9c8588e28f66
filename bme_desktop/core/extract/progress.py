"""How far a chat's extraction is: messages extracted of the messages stored, and an estimate
of the time left from the pace of the last batches (a long chat's first import)."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .state import extracted_to

if TYPE_CHECKING:
    from ..store.reader import Reader

PACE_WINDOW_S = 60.0  # the pace is measured over the batches of the last minute
PACE_SAMPLES = 256


@dataclass(frozen=True)
class ExtractionProgress:
    extracted: int  # messages read by a committed batch (those up to ``extracted_to``)
    total: int  # messages stored
    due: int  # messages a batch will still read (up to the last reply; the rest waits for one)
    rate: float | None = None  # messages per second over the last batches, while extracting
    eta_s: float | None = None  # seconds left at that pace

    def to_json(self) -> dict[str, object]:
        return {
            "extracted": self.extracted,
            "total": self.total,
            "due": self.due,
            "rate_per_s": None if self.rate is None else round(self.rate, 2),
            "eta_s": None if self.eta_s is None else round(self.eta_s),
        }


def read_progress(reader: Reader, chat_id: str) -> ExtractionProgress | None:
    """The chat's counts (no pace); None for a chat that does not exist."""
    row = reader.chat_row(chat_id)
    if row is None:
        return None
    done_to = extracted_to(dict(row["state"] or {}))
    total, extracted, due = reader.message_counts(row["pk"], done_to)
    return ExtractionProgress(extracted, total, due)


class Pace:
    """Messages extracted per second, per chat, from the batches committed in the last minute."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._samples: dict[str, deque[tuple[float, int]]] = {}

    def note(self, chat_id: str, messages: int) -> None:
        """A batch of the chat read ``messages`` new messages."""
        with self._lock:
            samples = self._samples.setdefault(chat_id, deque(maxlen=PACE_SAMPLES))
            samples.append((self._clock(), messages))

    def rate(self, chat_id: str) -> float | None:
        now = self._clock()
        with self._lock:
            recent = [(at, n) for at, n in self._samples.get(chat_id, ()) if now - at <= PACE_WINDOW_S]
        if len(recent) < 2:
            return None
        span = recent[-1][0] - recent[0][0]
        return sum(n for _, n in recent[1:]) / span if span > 0 else None

    def estimate(self, chat_id: str, progress: ExtractionProgress) -> ExtractionProgress:
        """``progress`` with the chat's pace and the time left at it (while any is due)."""
        rate = self.rate(chat_id) if progress.due else None
        eta = progress.due / rate if rate else None
        return ExtractionProgress(progress.extracted, progress.total, progress.due, rate, eta)
