"""One background-work mechanism: a keyed worker on a named thread of its own.

Work is submitted under a key (a chat id, mostly) with a value. While a key's work waits, a
new submission for it does not queue a second run: the two values are merged (the newer one
wins unless the worker says how to merge, e.g. the union of memory ids), so a burst of
changes to a chat is handled once, for its latest state. Waiting keys run highest priority
first, then in the order they were first submitted (or the newest first, ``newest_first``). A key's work that
is running when it is
submitted again runs once more afterwards.

The thread starts with the first submission (or ``start()``; only then with ``lazy=False``), runs at a lower
scheduling
priority unless asked not to (``core/background.py``), and lives until ``close()``. A
failing run is logged with the worker's name and the key, counted (``errors``) and kept
(``last_error``); the worker goes on with the next key. ``pause()`` holds new runs back
(after the running one finishes) until it is released. ``close(timeout)`` drops what waits,
sets ``stopping`` (a long run checks it between its steps) and waits at most ``timeout``
for the running work. ``wait_idle(timeout)`` waits until nothing waits or runs.

A worker with a ``tick`` calls it on its own thread before it looks for the next key, and
at least every ``tick_every`` seconds while idle (scheduled upkeep, grace periods running
out); the tick may submit work and returns how long it may sleep at most (None: up to
``tick_every``).
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Generic, TypeVar

from .background import lower_thread_priority

log = logging.getLogger(__name__)
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


@dataclass
class _Waiting(Generic[V]):
    value: V
    priority: int
    order: int


class KeyedWorker(Generic[K, V]):
    def __init__(
        self,
        name: str,
        run: Callable[[K, V], object],
        *,
        merge: Callable[[V, V], V] | None = None,
        low_priority: bool = True,
        tick: Callable[[], float | None] | None = None,
        tick_every: float = 1.0,
        lazy: bool = True,
        newest_first: bool = False,
        cond: threading.Condition | None = None,
    ) -> None:
        self.name = name
        self._run = run
        self._merge = merge
        self._low_priority = low_priority
        self._tick = tick
        self._tick_every = tick_every
        self._lazy = lazy  # False: the thread starts with start() only (a submission waits for it)
        self._newest_first = newest_first  # keys of one priority: the one first submitted last runs first
        # A caller whose own state goes with the queue's passes its condition (on an RLock): one
        # lock for both, and its waiters wake when a run ends.
        self._cond = cond if cond is not None else threading.Condition()
        self._waiting: dict[K, _Waiting[V]] = {}
        self._order = itertools.count()
        self._running: list[K] = []  # the key being run (at most one)
        self._paused = 0
        self._closed = False
        self._thread: threading.Thread | None = None
        self.stopping = threading.Event()  # set by close(): a long run stops between its steps
        self.errors = 0
        self.last_error: BaseException | None = None

    # submitting ------------------------------------------------------------------------------
    def submit(self, key: K, value: V, *, priority: int = 0) -> bool:
        """Queue ``value`` for ``key`` (merged into what already waits for it); False once closed."""
        with self._cond:
            if self._closed:
                return False
            waiting = self._waiting.get(key)
            if waiting is None:
                order = next(self._order)
                self._waiting[key] = _Waiting(value, priority, -order if self._newest_first else order)
            else:
                waiting.value = self._merge(waiting.value, value) if self._merge is not None else value
                waiting.priority = max(waiting.priority, priority)
            if self._lazy:
                self._ensure_thread()
            self._cond.notify_all()
        return True

    def requeue(self, key: K, value: V) -> None:
        """Put ``key`` back at the head of the queue (a run cut short resumes first); merged
        with a newer submission's value when one came meanwhile."""
        with self._cond:
            if self._closed:
                return
            waiting = self._waiting.get(key)
            first = min((w.order for w in self._waiting.values()), default=0) - 1
            if waiting is None:
                self._waiting[key] = _Waiting(value, 0, first)
            else:
                waiting.value = (
                    self._merge(value, waiting.value) if self._merge is not None else waiting.value
                )
                waiting.order = first
            self._cond.notify_all()

    def cancel(self, key: K) -> bool:
        """Drop the waiting work of ``key`` (a running one finishes); whether any waited."""
        with self._cond:
            found = self._waiting.pop(key, None) is not None
            self._cond.notify_all()
            return found

    def start(self) -> KeyedWorker[K, V]:
        """Start the thread now (a worker with a tick needs it before any submission)."""
        with self._cond:
            if not self._closed:
                self._ensure_thread()
        return self

    # looking -----------------------------------------------------------------------------------
    def pending(self, key: K) -> bool:
        """Whether work of ``key`` waits or runs."""
        with self._cond:
            return key in self._waiting or key in self._running

    def waiting(self, key: K) -> bool:
        """Whether work of ``key`` waits (not counting a run under way)."""
        with self._cond:
            return key in self._waiting

    def running(self) -> K | None:
        """The key whose work runs now, if any."""
        with self._cond:
            return self._running[0] if self._running else None

    def keys(self) -> list[K]:
        """The keys whose work waits, in the order they will run."""
        with self._cond:
            return [
                key for key, _ in sorted(self._waiting.items(), key=lambda kv: (-kv[1].priority, kv[1].order))
            ]

    @property
    def paused(self) -> bool:
        with self._cond:
            return self._paused > 0

    @property
    def closed(self) -> bool:
        return self._closed

    def on_thread(self) -> bool:
        """Whether the caller runs on this worker's thread."""
        return self._thread is not None and threading.current_thread() is self._thread

    # waiting -----------------------------------------------------------------------------------
    def wait_idle(self, timeout: float | None = None) -> bool:
        """Block until no work waits or runs; False on timeout (or while paused with work waiting)."""
        return self.wait_until(lambda: not self._waiting and not self._running, timeout)

    def wait_key(self, key: K, timeout: float | None = None) -> bool:
        """Block until no work of ``key`` waits or runs; False on timeout."""
        return self.wait_until(lambda: key not in self._waiting and key not in self._running, timeout)

    def wait_until(self, done: Callable[[], bool], timeout: float | None = None) -> bool:
        """Block until ``done()`` (checked holding the worker's lock, after every run), or the
        worker closed; False on timeout or when it closed first."""
        end = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while not done():
                if self._closed and not self._running:
                    return done()
                left = None if end is None else end - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._cond.wait(left)
        return True

    def notify(self) -> None:
        """Wake whoever waits in ``wait_until`` to check again (state outside the worker changed)."""
        with self._cond:
            self._cond.notify_all()

    @contextmanager
    def pause(self) -> Iterator[None]:
        """Hold new runs back while the block runs, after the running one has finished
        (unless the block runs on this worker's thread)."""
        with self._cond:
            self._paused += 1
            while self._running and not self.on_thread():
                self._cond.wait()
        try:
            yield
        finally:
            with self._cond:
                self._paused -= 1
                self._cond.notify_all()

    # stopping ----------------------------------------------------------------------------------
    def close(self, timeout: float | None = 30.0) -> bool:
        """Take no more work, drop what waits, and wait at most ``timeout`` for the running
        work (not when called from this worker's own thread); whether the thread has stopped."""
        with self._cond:
            self._closed = True
            self._waiting.clear()
            self.stopping.set()
            self._cond.notify_all()
            thread = self._thread
        if thread is None:
            return True
        if thread is not threading.current_thread():
            thread.join(timeout)
        return not thread.is_alive()

    # the thread --------------------------------------------------------------------------------
    def _ensure_thread(self) -> None:
        """Start the thread if it is not running (holding ``_cond``)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name=self.name, daemon=True)
            self._thread.start()

    def _next(self) -> tuple[K, V] | None:
        """The next key and value to run, waiting for one (holding ``_cond``); None once closed."""
        while True:
            if self._closed:
                return None
            wait = self._tick_every if self._tick is not None else None
            if self._tick is not None:
                self._cond.release()
                try:
                    asked = self._call_tick()
                finally:
                    self._cond.acquire()
                if self._closed:
                    return None
                if asked is not None:
                    wait = max(0.01, min(self._tick_every, asked))
            if self._waiting and not self._paused:
                key, waiting = min(self._waiting.items(), key=lambda kv: (-kv[1].priority, kv[1].order))
                del self._waiting[key]
                self._running.append(key)
                return key, waiting.value
            self._cond.wait(wait)

    def _call_tick(self) -> float | None:
        assert self._tick is not None
        try:
            return self._tick()
        except Exception as exc:  # a failing tick must not stop the worker; the next one retries
            self._failed("tick", exc)
            return None

    def _loop(self) -> None:
        if self._low_priority:
            lower_thread_priority()
        while True:
            with self._cond:
                found = self._next()
                if found is None:
                    self._cond.notify_all()
                    return
            key, value = found
            try:
                self._run(key, value)
            except Exception as exc:
                self._failed(key, exc)
            finally:
                with self._cond:
                    self._running.clear()
                    self._cond.notify_all()

    def _failed(self, key: object, exc: Exception) -> None:
        self.errors += 1
        self.last_error = exc
        if self._closed:
            log.debug("%s: work for %r failed while closing", self.name, key, exc_info=True)
        else:
            log.error("%s: work for %r failed", self.name, key, exc_info=exc)
