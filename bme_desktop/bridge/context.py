"""What every handler needs: the service, settings, the worker pool and the token."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from aiohttp import web

from ..core.errors import ServiceError
from ..core.service import MemoryService
from .clients import ClientRegistry
from .config import BridgeConfig
from .errors import from_service_error
from .events_hub import EventHub
from .limits import RateLimiter
from .origin import OriginPolicy
from .tokens import TokenSource

T = TypeVar("T")


@dataclass
class BridgeContext:
    service: MemoryService
    config: BridgeConfig
    tokens: TokenSource
    executor: ThreadPoolExecutor
    hub: EventHub
    recall_executor: ThreadPoolExecutor | None = None  # recalls' own workers (default: ``executor``)
    wait_executor: ThreadPoolExecutor | None = None  # threads that only wait (default: ``executor``)
    loop: asyncio.AbstractEventLoop | None = None
    origins: OriginPolicy = field(init=False)
    limiter: RateLimiter = field(init=False)
    clients: ClientRegistry = field(default_factory=ClientRegistry)

    def __post_init__(self) -> None:
        self.origins = OriginPolicy(self.config.allowed_origins)
        self.limiter = RateLimiter(self.config.rate_per_s, self.config.rate_burst)

    async def call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a blocking service call on the worker pool; core errors become API errors."""
        return await self._run(self.executor, fn, *args, **kwargs)

    async def call_recall(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Like ``call``, on the recall workers."""
        return await self._run(self.recall_executor or self.executor, fn, *args, **kwargs)

    async def wait(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Like ``call``, for a call that only waits (for an extraction to finish): on threads
        of its own, so the few workers stay free for requests that work."""
        return await self._run(self.wait_executor or self.executor, fn, *args, **kwargs)

    @staticmethod
    async def _run(executor: ThreadPoolExecutor, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(executor, functools.partial(fn, *args, **kwargs))
        except ServiceError as exc:
            raise from_service_error(exc) from exc


CONTEXT: web.AppKey[BridgeContext] = web.AppKey("bme_bridge_context", BridgeContext)


def ctx(request: web.Request) -> BridgeContext:
    return request.app[CONTEXT]
