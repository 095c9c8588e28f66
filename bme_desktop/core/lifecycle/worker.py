"""The life-cycle worker: intake right after extractions, the after-extraction steps
(summaries, folding, reflection), and upkeep and the daily patrol report on a schedule.

Intake and the after-extraction steps run *synchronously* on the thread that published the
event (the extraction worker, after its write committed), so when ``sync(wait=True)``
returns, new memories already wait in the review centre and a later history rollback
undoes them in order with the extraction. The after-extraction steps share one write (each
still leaves its own batch). Only if an event comes from the writer thread
itself is the job queued for the worker's thread instead (a keyed worker, ``core/work.py``:
a chat's queued intakes are merged). That thread also runs scheduled upkeep (its tick) and
wakes at least once a second to notice ``service.close()``. Every step is idempotent, so a
tick that fires twice, or a pass cut short by shutdown, is harmless.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..events import Event, ExtractionFinished, GraphChanged
from ..settings import LifecycleSettings
from ..store.unit_of_work import UnitOfWork
from ..work import KeyedWorker
from .intake import intake_in
from .patrol_daily import patrol_if_due
from .tasks import Step, after_extraction_steps, run_step

if TYPE_CHECKING:
    from ..ports import Core

log = logging.getLogger(__name__)
POLL_S = 1.0
FIRST_UPKEEP_DELAY_S = 60.0
PATROL_CHECK_S = 600.0  # how often to look whether a chat's daily patrol is due
BACKUP_CHECK_S = 300.0  # how often to look whether a scheduled backup is due (settings.backup)


@dataclass
class _Job:
    chat_id: str
    kind: str  # "intake" | "after_extraction"
    node_ids: list[str] = field(default_factory=list)


class LifecycleWorker:
    def __init__(self, service: Core, *, monotonic: Callable[[], float] = time.monotonic) -> None:
        self.service = service
        self._monotonic = monotonic
        # Jobs from the writer thread, a chat's kind of job once (intakes merged); the tick
        # runs the schedule. The thread runs from start() on (a worker not started is driven by hand).
        self._jobs: KeyedWorker[tuple[str, str], _Job] = KeyedWorker(
            "bme-lifecycle", self._run_job, merge=_merged, tick=self._tick, tick_every=POLL_S, lazy=False
        )
        self._unsubscribe = service.events.on((GraphChanged, ExtractionFinished), self._on_event)
        self._next_upkeep = monotonic() + FIRST_UPKEEP_DELAY_S
        self._next_patrol_check = monotonic() + FIRST_UPKEEP_DELAY_S
        self._next_backup_check = monotonic() + FIRST_UPKEEP_DELAY_S

    def start(self) -> LifecycleWorker:
        self._jobs.start()
        return self

    def stop(self, wait: bool = True) -> None:
        self._unsubscribe()
        self._jobs.close(30 if wait else 0)

    def _closed(self) -> bool:
        return self._jobs.closed or self.service.closed

    def _on_event(self, event: Event) -> None:
        if event.chat_id is None or event.remote or self._closed():
            return  # another instance on a shared database did this work for its own writes
        if isinstance(event, GraphChanged) and event.change.nodes_added:
            job = _Job(event.chat_id, "intake", sorted(event.change.nodes_added))
        elif isinstance(event, ExtractionFinished):
            job = _Job(event.chat_id, "after_extraction")
        else:
            return
        if self.service.on_writer_thread():
            self._jobs.submit((job.chat_id, job.kind), job)  # write() cannot be called from the writer thread
            return
        try:
            self._do(job)
        except Exception:
            if not self._closed():
                log.exception("life-cycle %s failed for chat %s", job.kind, job.chat_id)

    def _run_job(self, key: tuple[str, str], job: _Job) -> None:
        if not self._closed():
            self._do(job)

    def _tick(self) -> None:
        """Before each job and at least every ``POLL_S``: the schedule; once the service
        closes, the worker stops (a failing pass is logged by the worker; the next tick retries)."""
        if self._closed():
            self.stop(wait=False)
            return
        self.run_scheduled()

    def run_scheduled(self) -> None:
        """Upkeep for every chat when its interval has passed, the daily patrol (checked every
        ``PATROL_CHECK_S``; each chat's report is recomputed once a day by the service clock), and
        the scheduled backup (checked every ``BACKUP_CHECK_S``; off unless the settings turn it on)."""
        interval = self.service.settings.lifecycle.upkeep_interval_minutes * 60
        if interval > 0 and self._monotonic() >= self._next_upkeep:
            self._next_upkeep = self._monotonic() + interval
            for chat in self.service.list_chats():
                if self._closed():
                    break
                self.service.run_maintenance(chat.chat_id, "upkeep")
        if self._monotonic() >= self._next_patrol_check:
            self._next_patrol_check = self._monotonic() + PATROL_CHECK_S
            for chat in self.service.list_chats():
                if self._closed():
                    break
                patrol_if_due(self.service, chat.chat_id)
        if self._monotonic() >= self._next_backup_check and not self._closed():
            self._next_backup_check = self._monotonic() + BACKUP_CHECK_S
            from ..backup.schedule import run_scheduled_backup

            run_scheduled_backup(self.service)

    def _do(self, job: _Job) -> None:
        if not self.service.has_chat(job.chat_id):
            return
        if job.kind == "intake":
            ids = job.node_ids
            run_step(
                self.service, job.chat_id, lambda uow, chat_id, now, s: intake_in(uow, chat_id, ids, now, s)
            )
            return
        if not self._closed():
            run_step(self.service, job.chat_id, _in_turn(list(after_extraction_steps().values())))


def _merged(old: _Job, new: _Job) -> _Job:
    """A chat's two queued jobs of one kind as one (intake: both jobs' memories)."""
    return _Job(new.chat_id, new.kind, sorted(set(old.node_ids) | set(new.node_ids)))


def _in_turn(steps: list[Step]) -> Step:
    """One step running ``steps`` in order in the same write (each checks its own auto_* setting
    and leaves its own batch): one trip through the writer after each extraction batch instead
    of one per step, which on a first connect's hundreds of batches was most of their cost."""

    def run(uow: UnitOfWork, chat_id: str, now: float, settings: LifecycleSettings) -> None:
        for step in steps:
            step(uow, chat_id, now, settings)

    return run


def attach(service: Core) -> LifecycleWorker:
    """Register the life-cycle maintenance tasks and start the worker."""
    from .tasks import register_tasks

    register_tasks(service)
    return LifecycleWorker(service).start()
