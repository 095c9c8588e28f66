"""Per-client token-bucket rate limiting."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class Bucket:
    tokens: float
    updated: float


class RateLimiter:
    """Each client gets ``burst`` requests at once and ``rate`` more per second.
    ``take(client)`` answers 0 when the request may go, else the seconds to wait."""

    def __init__(
        self,
        rate: float,
        burst: int,
        *,
        clock: Callable[[], float] = time.monotonic,
        max_clients: int = 10_000,
    ) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("rate must be > 0 and burst ≥ 1")
        self.rate = rate
        self.burst = float(burst)
        self.clock = clock
        self.max_clients = max_clients
        self._buckets: dict[str, Bucket] = {}

    def take(self, client: str) -> float:
        now = self.clock()
        bucket = self._buckets.get(client)
        if bucket is None:
            if len(self._buckets) >= self.max_clients:
                self._forget_idle(now)
            bucket = self._buckets[client] = Bucket(self.burst, now)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.updated) * self.rate)
        bucket.updated = now
        if bucket.tokens >= 1.0 - 1e-9:
            bucket.tokens = max(0.0, bucket.tokens - 1.0)
            return 0.0
        return (1.0 - bucket.tokens) / self.rate

    def _forget_idle(self, now: float) -> None:
        """Drop buckets that have refilled (they hold no state worth keeping); if every
        client is active, drop the oldest half."""
        full_after = self.burst / self.rate
        self._buckets = {k: b for k, b in self._buckets.items() if now - b.updated < full_after}
        if len(self._buckets) >= self.max_clients:
            keep = sorted(self._buckets.items(), key=lambda kv: kv[1].updated)[self.max_clients // 2 :]
            self._buckets = dict(keep)

    @staticmethod
    def retry_after(wait_s: float) -> str:
        return str(max(1, math.ceil(wait_s)))
