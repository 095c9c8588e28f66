"""The one timeout-and-retry policy shared by every model client.

``HttpPolicy`` holds the numbers; :class:`~.http_session.HttpSession` applies them.

Timeouts:
    * ``total_timeout`` is a hard limit for one client call *including* retries and backoff.
      It is checked before each attempt, before each retry sleep and between reads; one
      blocking read can overrun it by at most that read's own timeout (``idle_timeout`` in a
      stream, the time left at send time otherwise).
    * ``idle_timeout`` applies to streams only: no bytes for that long -> :class:`LLMTimeout`.
      Non-streaming calls wait up to the time left, since the server sends nothing until
      it has generated the whole answer.
    * ``connect_timeout`` bounds each TCP/TLS connect.

Retries (``max_retries`` extra attempts): on HTTP 429 and 5xx and on connection errors
(refused, reset, closed before answering). Never on other 4xx, never on timeouts, never after a
stream has started. The delay is ``Retry-After`` when the server sends one (seconds or an
HTTP date, capped by ``retry_after_max``), else exponential backoff with jitter:
``d = min(backoff_max, backoff_base * 2**attempt)``, sleep uniformly in ``[d/2, d]``.
A retry whose delay would cross the deadline is not attempted; the last error is raised.
"""

from __future__ import annotations

import email.utils
import random
import time
from dataclasses import dataclass
from datetime import UTC, datetime


@dataclass(frozen=True)
class HttpPolicy:
    """Timeouts (seconds) and retry settings for one endpoint."""

    connect_timeout: float = 10.0
    total_timeout: float = 180.0
    idle_timeout: float = 60.0
    max_retries: int = 3
    backoff_base: float = 0.5
    backoff_max: float = 20.0
    retry_after_max: float = 60.0

    def backoff_delay(self, attempt: int, rng: random.Random) -> float:
        """Delay before retry number ``attempt`` (0-based) when the server gave no hint."""
        ceiling = min(self.backoff_max, self.backoff_base * (2.0**attempt))
        return rng.uniform(ceiling / 2.0, ceiling)


def is_retryable_status(status: int) -> bool:
    """429 (rate limited) and every 5xx are worth another attempt; other 4xx are not."""
    return status == 429 or 500 <= status <= 599


def parse_retry_after(value: str | None, *, cap: float) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or HTTP-date), capped."""
    if not value:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        seconds = (when - datetime.now(UTC)).total_seconds()
    if seconds != seconds:  # NaN
        return None
    return max(0.0, min(seconds, cap))


class Deadline:
    """A point on the monotonic clock that a whole client call must finish by."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._end = time.monotonic() + seconds

    def remaining(self) -> float:
        return self._end - time.monotonic()

    def expired(self) -> bool:
        return self.remaining() <= 0.0
