"""``BridgeServer``: the bridge on its own asyncio thread, with a small worker pool for the
service's blocking calls."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError
from aiohttp.log import server_logger

from ..core.service import MemoryService
from .app import build_app
from .clients import ClientInfo
from .config import BridgeConfig
from .context import BridgeContext
from .events_hub import EventHub
from .tokens import TokenSource

log = logging.getLogger(__name__)
MAX_REQUEST_LINE = 128 * 1024  # a 256-character chat id percent-encodes to ≤ 3 KB; longer ones get a JSON 400


# After refusing a body it did not read (413), how long the server keeps draining it so the
# client sees the answer rather than a reset.
LINGER_S = 2.0


class ParserLog(logging.LoggerAdapter[logging.Logger]):
    """aiohttp's server log, except that a request its HTTP parser cannot read (bad request line,
    header or framing: aiohttp answers a plain 400 itself) is one INFO line, not an ERROR with a
    traceback: any local process can send such bytes, and each would add 15 lines to the log."""

    def exception(self, msg: object, *args: object, exc_info: Any = True, **kwargs: Any) -> None:
        exc = exc_info if isinstance(exc_info, BaseException) else sys.exc_info()[1]
        if isinstance(exc, HttpProcessingError) and 400 <= (exc.code or 0) < 500:
            lines = (exc.message or "").strip().splitlines()
            reason = lines[0].strip().rstrip(":") if lines else type(exc).__name__
            remote = args[0] if args else "?"
            self.logger.info(
                "refused a request from %s that HTTP cannot parse (%s %s: %s)",
                remote,
                exc.code,
                type(exc).__name__,
                reason[:200],
            )
            return
        self.logger.exception(msg, *args, exc_info=exc_info, **kwargs)


class BridgeError(RuntimeError):
    """The bridge could not start (port in use, address not available, ...)."""


class BridgeServer:
    """Start with ``start()`` (returns once listening: ``.url``, ``.port``); ``stop()`` stops
    accepting, lets requests in flight finish (up to ``shutdown_timeout_s``), closes event
    sockets and waits for service calls already running."""

    def __init__(
        self, service: MemoryService, tokens: TokenSource | str, config: BridgeConfig | None = None
    ) -> None:
        self.service = service
        self.config = config or BridgeConfig.from_settings(service.settings.bridge)
        self.tokens = tokens if isinstance(tokens, TokenSource) else TokenSource(fixed=tokens)
        self.port: int = 0
        self.url: str = ""
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._refresher: asyncio.Task[None] | None = None
        self._stop_future: asyncio.Future[None] | None = None
        self._executor = ThreadPoolExecutor(max_workers=self.config.workers, thread_name_prefix="bme-bridge")
        # Recalls have their own workers: a generation waits on them, so they must never queue
        # behind syncs or maintenance waiting for the writer.
        self._recall_executor = ThreadPoolExecutor(
            max_workers=self.config.workers, thread_name_prefix="bme-bridge-recall"
        )
        # A sync that waits for its extraction (``wait: true``) waits here, not on a worker: 20
        # clients waiting for their replies' extraction held all four workers, and every other
        # sync queued behind them for tens of seconds (bench/soak.py).
        self._wait_executor = ThreadPoolExecutor(
            max_workers=self.config.wait_workers, thread_name_prefix="bme-bridge-wait"
        )
        self.context = BridgeContext(
            service=service,
            config=self.config,
            tokens=self.tokens,
            executor=self._executor,
            hub=EventHub(self.config.ws_queue_size),
            recall_executor=self._recall_executor,
            wait_executor=self._wait_executor,
        )

    # lifecycle -------------------------------------------------------------------------------
    def start(self) -> None:
        if self._thread is not None:
            raise RuntimeError("the bridge is already running")
        if not self.config.loopback_only:
            if not self.config.allow_remote:
                raise BridgeError(
                    f"{self.config.host} is not a loopback address; binding it needs allow_remote"
                )
            log.warning("the bridge listens on %s, reachable from other machines", self.config.host)
        ready = threading.Event()
        failure: list[BaseException] = []
        self._thread = threading.Thread(
            target=self._run, args=(ready, failure), name="bme-bridge-loop", daemon=True
        )
        self._thread.start()
        ready.wait()
        if failure:
            self._thread.join()
            self._thread = None
            self._executor.shutdown(wait=False)
            self._recall_executor.shutdown(wait=False)
            self._wait_executor.shutdown(wait=False)
            exc = failure[0]
            where = f"{self.config.host}:{self.config.port}"
            if getattr(exc, "errno", None) == errno.EADDRINUSE:
                raise BridgeError(
                    f"cannot listen on {where}: the port is already in use (another bridge?); "
                    "choose another with --port, or --port 0 for any free one"
                ) from exc
            raise BridgeError(f"cannot listen on {where}: {getattr(exc, 'strerror', None) or exc}") from exc
        resume = getattr(self.service, "extraction", None)
        resume_due = getattr(resume, "resume_due", None)
        if callable(resume_due):  # an import a restart cut short goes on from its last batch
            resume_due()

    def _run(self, ready: threading.Event, failure: list[BaseException]) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._listen())
        except BaseException as exc:
            failure.append(exc)
            ready.set()
            loop.run_until_complete(self._cleanup())
            loop.close()
            return
        ready.set()
        try:
            assert self._stop_future is not None
            loop.run_until_complete(self._stop_future)
        finally:
            loop.run_until_complete(self._cleanup())
            loop.close()

    async def _listen(self) -> None:
        loop = asyncio.get_running_loop()
        self._stop_future = loop.create_future()
        self.context.loop = loop
        self.context.hub.attach(self.service.events, loop)
        app = build_app(self.context)
        self._runner = web.AppRunner(
            app,
            handle_signals=False,
            access_log=None,
            logger=ParserLog(server_logger),
            shutdown_timeout=self.config.shutdown_timeout_s,
            max_line_size=MAX_REQUEST_LINE,
            max_field_size=16 * 1024,
            lingering_time=LINGER_S,
            # aiohttp's keep-alive timer runs from the connection's start (and
            # each answer) until a whole request head is in: the header timeout
            keepalive_timeout=self.config.header_timeout_s,
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.config.host, self.config.port, reuse_address=True)
        await site.start()
        addresses = self._runner.addresses
        self.port = int(addresses[0][1]) if addresses else self.config.port
        self.url = f"http://{self.config.url_host()}:{self.port}"
        self._refresher = loop.create_task(self._refresh_tokens())

    async def _refresh_tokens(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.tokens.refresh_s)
            with contextlib.suppress(Exception):
                await loop.run_in_executor(self._executor, self.tokens.refresh)

    async def _cleanup(self) -> None:
        self.context.hub.detach()
        if self._runner is not None:
            await self._runner.cleanup()  # stops listening, closes sockets, awaits handlers in flight
        current = asyncio.current_task()
        pending = [task for task in asyncio.all_tasks() if task is not current]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)

    def stop(self) -> None:
        """Idempotent. Returns when the loop thread and every running service call have ended."""
        thread, loop = self._thread, self._loop
        if thread is None or loop is None:
            return
        if not loop.is_closed() and self._stop_future is not None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._resolve_stop)
        thread.join()
        self._thread = None
        self._executor.shutdown(wait=True)
        self._recall_executor.shutdown(wait=True)
        # Nothing to finish there: a wait still running ends when the service closes.
        self._wait_executor.shutdown(wait=False, cancel_futures=True)

    def _resolve_stop(self) -> None:
        if self._stop_future is not None and not self._stop_future.done():
            self._stop_future.set_result(None)

    def clients(self) -> list[ClientInfo]:
        """The clients seen lately, most recent first: a snapshot, no I/O (any thread)."""
        return self.context.clients.snapshot()

    def refused_clients(self) -> list[ClientInfo]:
        """Recent attempts refused for a missing or wrong token, most recent first."""
        return self.context.clients.refused_snapshot()

    @property
    def running(self) -> bool:
        return self._thread is not None
