"""The writer: the one thread every transaction runs on, one at a time, in the order asked.

``run(fn)`` queues a transaction and waits for it (``MemoryService.write``). ``later(fn)``
queues bookkeeping nobody waits for (kept recalls, recall hits) and returns at once: the first
later write puts a marker in the queue, and when the writer reaches it, every later write
queued meanwhile is written, in order, in one transaction, so a burst of recalls costs one
trip through the writer (as many as the old write-later thread's batches); if that
transaction fails, its writes are tried one by one, and a write that still fails is logged,
never raised. A write queued after a later write finds it written (a sync's rollback sees
the recall kept before it); a later write may be written before writes queued shortly before
it (after its marker). ``settle()`` waits until everything queued so far is written. What the later writes
changed is handed to
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
    """A write someone waits for (``fn`` set), a barrier (neither), or the marker of the later
    writes (``later``: every later write queued until the writer reaches it)."""

    def __init__(self, fn: Callable[[UnitOfWork], object] | None = None, later: bool = False) -> None:
        self.fn = fn
        self.later = later
        self.done: Future[tuple[object, list[ChangeRecord]]] = Future()


class Writer:
    def __init__(
        self,
        store: Store,
        now: Callable[[], float],
        changed: Callable[[list[ChangeRecord]], None],
        name: str = "bme-writer",
    ) -> None:
        self._store = store
        self._now = now
        self._changed = changed
        self._cond = threading.Condition()
        self._queue: deque[_Job | None] = deque()  # None: stop once everything before it ran
        self._later: list[LateWrite] = []  # later writes not yet taken, in order
        self._marked = False  # a later-writes marker waits in the queue
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
            self._later.append(fn)
            if not self._marked:  # else written with the others when the writer reaches their marker
                self._marked = True
                self._queue.append(_Job(later=True))
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
                job = self._queue.popleft()
                batch: list[LateWrite] = []
                if job is not None and job.later:  # the later writes queued so far: nothing joins them now
                    batch, self._later, self._marked = self._later, [], False
            if job is None:
                return
            if job.later:
                self._write_later(batch)
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
