"""The extraction scheduler: a single background thread that extracts queued chats.

``schedule()`` (called by every sync) queues the chat and returns a ticket at once;
``ticket.wait()`` blocks until a pass over that chat which started after the schedule has
finished (each batch's step returns once the life cycle's work for it is done, and the
service's ticket waits for that work too). Model calls run on this thread, never on the
service's writer thread; results are committed through ``service.write``. ``pause()`` is the
restore lock: while any pause is held, no automatic extraction runs (imports, rebuilds).
``shutdown()`` lets the running batch finish (its model call is cancelled) and abandons the
rest of the queue. The thread is a keyed worker (``core/work.py``, ``bme-extract``) keyed by
chat, sharing this scheduler's lock.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Generator, Iterator
from contextlib import closing, contextmanager
from typing import TYPE_CHECKING

from ..cancel import CancellableTask, CancelToken, checkpoint
from ..events import ErrorReported, ExtractionProgressed, MaintenanceProgressed
from ..work import KeyedWorker
from .api import ExtractionTicket
from .progress import ExtractionProgress, Pace, read_progress
from .runner import ModelExtractor, Runner
from .window import Committed, Window

if TYPE_CHECKING:
    from ..ports import Core

log = logging.getLogger(__name__)
PROGRESS_EVERY_S = 1.0  # extraction.progress at most this often per chat while a pass runs


class ExtractionWorker:
    def __init__(self, service: Core, *, model: Callable[[], ModelExtractor | None] | None = None) -> None:
        self.service = service
        self.runner = Runner(service, model=model)
        self._cond = threading.Condition(threading.RLock())  # the worker's lock too
        # chats in the order scheduled (a chat once); pause() is the worker's
        self._work: KeyedWorker[str, None] = KeyedWorker("bme-extract", self._run, cond=self._cond)
        self._requested: dict[str, int] = {}
        self._completed: dict[str, int] = {}
        self._applied: dict[str, int] = {}
        self._stopping = False
        self._cancel = threading.Event()
        self.pace = Pace()

    # the ExtractionScheduler contract ------------------------------------------------------
    def schedule(self, chat_id: str, *, force: bool = False) -> ExtractionTicket:
        with self._cond:
            if self._stopping:
                return ExtractionTicket(queued=0)
            generation = self._requested[chat_id] = self._requested.get(chat_id, 0) + 1
            base = self._applied.get(chat_id, 0)
            self._work.submit(chat_id, None)
            self._cond.notify_all()
        return ExtractionTicket(
            queued=1, waiter=lambda timeout: self._wait(chat_id, generation, base, timeout)
        )

    def shutdown(self, wait: bool = True) -> None:
        with self._cond:
            self._stopping = True
            self._cancel.set()
            self._cond.notify_all()
        self._work.close(None if wait else 0)  # drops the queue; waits for the running batch
        close = getattr(self.runner.model, "close", None)
        if callable(close):
            close()

    # the restore lock ------------------------------------------------------------------------
    @contextmanager
    def pause(self) -> Iterator[None]:
        """Hold automatic extraction back (waiting for a running batch to finish first)."""
        with self._work.pause():
            yield

    def resume_due(self) -> list[str]:
        """Queue every chat with messages a batch will still read (an import cut short by a
        restart resumes where its last committed batch ended); the chats queued."""
        due = [chat.chat_id for chat in self.service.list_chats() if self._due(chat.chat_id)]
        for chat_id in due:
            self.schedule(chat_id)
        return due

    def _due(self, chat_id: str) -> int:
        found = self.service.read(lambda r: read_progress(r, chat_id))
        return found.due if found is not None else 0

    def progress(self, chat_id: str) -> ExtractionProgress | None:
        """How far the chat's extraction is, with its pace and the time left (None: no chat)."""
        found = self.service.read(lambda r: read_progress(r, chat_id))
        return None if found is None else self.pace.estimate(chat_id, found)

    def busy(self, chat_id: str) -> bool:
        """Whether the chat is being extracted or waits for it (not counting a pause)."""
        with self._cond:
            return self._work.running() == chat_id or (self._work.waiting(chat_id) and not self._work.paused)

    @property
    def paused(self) -> bool:
        return self._work.paused

    def run_now(self, chat_id: str, cancel: CancelToken | None = None) -> int:
        """Extract every due batch of the chat on the calling thread, automatic extraction
        paused meanwhile; the number of batches committed. A cancelled run stops before the
        next batch (the batch being asked of the model is abandoned, its model call stopped)
        and raises ``Cancelled``: the batches committed before it are kept, and the chat
        resumes from there on its next extraction."""
        with self.pause():
            return sum(1 for _ in self.extract_reported(chat_id, "extract", cancel))

    def extract_reported(
        self, chat_id: str, task: str, cancel: CancelToken | None = None
    ) -> Generator[tuple[Window, Committed], None, None]:
        """``extract_batches`` for the hand-run ``task`` (``extract``, ``rebuild``): after each
        batch, ``maintenance.progress`` says how many of the messages due when it began are
        read ("312 of 2,000 messages"), for the Actions panel's bar and the bridge."""
        total = self._due(chat_id)
        self.service.events.publish(MaintenanceProgressed(chat_id, task, 0, total))
        with closing(self.extract_batches(chat_id, cancel)) as batches:
            for step in batches:
                done = min(total, max(0, total - self._due(chat_id)))
                self.service.events.publish(MaintenanceProgressed(chat_id, task, done, total))
                yield step

    def extract_batches(
        self, chat_id: str, cancel: CancelToken | None = None
    ) -> Generator[tuple[Window, Committed], None, None]:
        """Extract batch after batch on the calling thread (the caller holds ``pause()``),
        yielding each committed one until none is due. A cancel stops before the next batch
        (raising ``Cancelled``). However the loop ends, the batches yielded count as applied
        for the tickets waiting on this chat (close the iterator when leaving it early)."""
        count = 0
        try:
            while True:
                checkpoint(cancel)
                step = self.runner.step(chat_id, cancel.event if cancel is not None else None)
                checkpoint(cancel)
                if step is None:
                    return
                count += 1
                yield step
        finally:
            self.note_applied(chat_id, count)

    def note_applied(self, chat_id: str, count: int) -> None:
        with self._cond:
            self._applied[chat_id] = self._applied.get(chat_id, 0) + count
            self._cond.notify_all()

    # internals -------------------------------------------------------------------------------
    def _wait(self, chat_id: str, generation: int, base: int, timeout: float | None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while self._completed.get(chat_id, 0) < generation and not self._stopping:
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    break
                self._cond.wait(remaining)
            return self._applied.get(chat_id, 0) - base

    def _run(self, chat_id: str, _: None) -> None:
        """A pass over one chat, on the worker's low-priority thread (a recall someone waits for goes
        first)."""
        with self._cond:
            if self._stopping:
                return
            generation = self._requested.get(chat_id, 0)
        finished = self._drain(chat_id)
        with self._cond:
            if finished:
                self._completed[chat_id] = max(self._completed.get(chat_id, 0), generation)
            elif not self._stopping:
                self._work.requeue(chat_id, None)  # paused midway: resume first, later
            self._cond.notify_all()

    def _drain(self, chat_id: str) -> bool:
        """Extract every due batch of the chat; False when a pause or shutdown cut it short."""
        told = 0.0  # when the last extraction.progress went out (0: none yet in this pass)
        while True:
            with self._cond:
                if self._stopping:
                    return True
                if self._work.paused:
                    return False
            try:
                step = self.runner.step(chat_id, self._cancel)
            except Exception as exc:
                log.exception("extraction of chat %s failed", chat_id)
                self.service.events.publish(
                    ErrorReported(chat_id, "extraction", f"{type(exc).__name__}: {exc}")
                )
                return True
            if step is None:
                if told:
                    self._tell_progress(chat_id)  # the last word: nothing due
                return True
            self.pace.note(chat_id, step[0].end - step[0].after)
            self.note_applied(chat_id, 1)
            if time.monotonic() - told >= PROGRESS_EVERY_S:
                told = time.monotonic()
                self._tell_progress(chat_id)

    def _tell_progress(self, chat_id: str) -> None:
        """Publish ``extraction.progress`` (counts, pace, time left) for the chat."""
        try:
            found = self.progress(chat_id)
        except Exception:  # the chat was deleted meanwhile
            log.debug("no progress for chat %s", chat_id, exc_info=True)
            return
        if found is not None:
            self.service.events.publish(
                ExtractionProgressed(
                    chat_id,
                    found.extracted,
                    found.total,
                    found.due,
                    None if found.rate is None else round(found.rate, 2),
                    None if found.eta_s is None else round(found.eta_s),
                )
            )


def attach(service: Core) -> ExtractionWorker:
    """Make ``service`` extract after every sync, and register the ``rebuild`` task."""
    from .llm_extractor import model_from_settings
    from .rebuild import rebuild

    worker = ExtractionWorker(service, model=model_from_settings(service))
    service.use_extraction(worker)
    service.add_maintenance_task(
        "rebuild", CancellableTask(lambda chat_id, cancel: rebuild(service, worker, chat_id, cancel))
    )
    return worker
