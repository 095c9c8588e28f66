"""The writer: the one thread every transaction runs on, one at a time, in the order asked.

``run(fn)`` queues a transaction and waits for it (``MemoryService.write``). ``later(fn)``
queues bookkeeping nobody waits for (kept recalls, recall hits) and returns at once: what is
queued later back to back, with no waited-for write between, is written in one transaction,
so a burst of recalls costs one trip through the writer; if that transaction fails, its
writes are tried one by one, and a write that still fails is logged, never raised. A later
write never overtakes a write queued before it, and a write queued after it finds it
written (a sync's rollback sees the recall kept before it). ``settle()`` waits until
everything queued so far is written. What the later writes changed is handed to
``changed`` on the writer thread, which must only queue it: events are published off this
thread (``EventBus.publish_soon``), so no subscriber runs on the writer.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from typing import TypeVar

from .events import ChangeRecord
from .store.store import Store
from .store.unit_of_work import UnitOfWork

log = logging.getLogger(__name__)
T = TypeVar("T")
LateWrite = Callable[[UnitOfWork], object]


class _Job:
    """A write someone waits for (``fn`` set), a barrier (neither), or the writes queued
    later back to back (``later``, filled while it waits)."""

    def __init__(self, fn: Callable[[UnitOfWork], object] | None = None, later: list[LateWrite] | None = None) -> None:
        self.fn = fn
        self.later = later
        self.done: Future[tuple[object, list[ChangeRecord]]] = Future()


class Writer:
    def __init__(self, store: Store, now: Callable[[], float], changed: Callable[[list[ChangeRecord]], None],
                 name: str = "bme-writer") -> None:
        self._store = store
        self._now = now
        self._changed = changed
        self._cond = threading.Condition()
        self._queue: deque[_Job | None] = deque()  # None: stop once everything before it ran
        self._stopped = False
        self.ident: int | None = None
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)
        self._thread.start()

    def on_thread(self) -> bool:
        return threading.get_ident() == self.ident

    def run(self, fn: Callable[[UnitOfWork], T]) -> tuple[T, list[ChangeRecord]]:
        """Run ``fn`` in one transaction on the writer thread; its result and what changed."""
        job = self._put(_Job(fn))
        result, changes = job.done.result()
        return result, changes  # type: ignore[return-value]  # the job's result is fn's

    def later(self, fn: LateWrite) -> bool:
        """Queue ``fn`` to be written soon, after what is queued now; False once stopped."""
        with self._cond:
            if self._stopped:
                return False
            tail = self._queue[-1] if self._queue else None
            if tail is not None and tail.later is not None:
                tail.later.append(fn)  # not started yet: written together
                return True
            self._queue.append(_Job(later=[fn]))
            self._cond.notify_all()
        return True

    def settle(self) -> None:
        """Wait until everything queued so far is written (at once when stopped or called on the writer)."""
        if self.on_thread():
            return
        try:
            job = self._put(_Job())
        except RuntimeError:
            return
        job.done.result()

    def stop(self) -> None:
        """Write what is queued, then stop the thread (waiting for it)."""
        with self._cond:
            if not self._stopped:
                self._stopped = True
                self._queue.append(None)
                self._cond.notify_all()
        if not self.on_thread():
            self._thread.join()

    def _put(self, job: _Job) -> _Job:
        with self._cond:
            if self._stopped:
                raise RuntimeError("the writer has stopped")
            self._queue.append(job)
            self._cond.notify_all()
        return job

    def _loop(self) -> None:
        self.ident = threading.get_ident()
        while True:
            with self._cond:
                while not self._queue:
                    self._cond.wait()
                job = self._queue.popleft()  # a later job leaves the queue: nothing joins it now
            if job is None:
                return
            if job.later is not None:
                self._write_later(job.later)
                job.done.set_result((None, []))
            elif job.fn is None:
                job.done.set_result((None, []))
            else:
                try:
                    job.done.set_result(self._transaction(job.fn))
                except BaseException as exc:
                    job.done.set_exception(exc)

    def _transaction(self, fn: Callable[[UnitOfWork], T]) -> tuple[T, list[ChangeRecord]]:
        with self._store.write(self._now()) as uow:
            result = fn(uow)
            changes = [c for c in uow.changes.values() if not c.empty]
        return result, changes

    def _write_later(self, batch: list[LateWrite]) -> None:
        changes: list[ChangeRecord] = []
        try:
            changes = self._transaction(lambda uow: [fn(uow) for fn in batch])[1]
        except Exception:  # one of them failed and took the rest down: write them one by one
            if len(batch) == 1:
                log.warning("a deferred write failed", exc_info=True)
            else:
                for fn in batch:
                    try:
                        changes += self._transaction(fn)[1]
                    except Exception:  # the chat was deleted meanwhile
                        log.warning("a deferred write failed", exc_info=True)
        if changes:
            try:
                self._changed(changes)
            except Exception:
                log.exception("handing on what deferred writes changed failed")
