"""The life-cycle worker: intake right after extractions, the after-extraction steps
(summaries, folding, reflection), and upkeep and the daily patrol report on a schedule.

Its event subscriber only queues: a ``graph.changed`` with new memories queues their intake,
an ``extraction.finished`` the after-extraction steps, as one job per chat on the worker's
own thread (``bme-lifecycle``, a keyed worker, ``core/work.py``: a chat's waiting jobs are
merged; the intake runs before the after-extraction steps), never on the thread that
published (the extraction worker, a bridge request, the UI's operation runner, the writer's
caller). The after-extraction steps share one write (each still leaves its own batch).

What used to follow from running them on the publisher's thread is kept by waiting for them
(``wait_chat``, registered with ``MemoryService.add_follow_up``): an extraction step returns
once its batch's jobs are done (``extract/runner.py``), so the intake's and the steps' batches
come before the next extraction batch and a later history rollback undoes them in order with
the extraction; ``sync(wait=True)``, ``extract_now``, a recorded step (``rewrites.record_step``)
and an import return with them done (new memories already wait in the review centre).
Waiting from this thread, or from the writer, is refused: it would never return.

The thread also runs the schedule (upkeep, the daily patrol, the backup) from its tick, one
step before each job (one chat's upkeep or patrol, or the backup), so a queued job waits for
one step at most, not a whole pass over every chat; it wakes at least once a second. When the
service closes, the jobs queued before are run (for at most ``CLOSE_DRAIN_S``), then the
worker stops. Every step is idempotent, so a tick that fires twice, or a pass cut short by
shutdown, is harmless (upkeep gives a missed memory its card).
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
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
CLOSE_DRAIN_S = 10.0  # at close, how long the jobs queued before may still run
FIRST_UPKEEP_DELAY_S = 60.0
PATROL_CHECK_S = 600.0  # how often to look whether a chat's daily patrol is due
BACKUP_CHECK_S = 300.0  # how often to look whether a scheduled backup is due (settings.backup)


@dataclass
class _Job:
    """A chat's queued work: the intake of these memories, then (``after``) the
    after-extraction steps."""

    chat_id: str
    node_ids: list[str] = field(default_factory=list)
    after: bool = False


class LifecycleWorker:
    def __init__(self, service: Core, *, monotonic: Callable[[], float] = time.monotonic) -> None:
        self.service = service
        self._monotonic = monotonic
        # A chat's jobs, merged while they wait; the tick runs the schedule. The thread runs
        # from start() on (a worker not started only queues: its schedule is driven by hand).
        self._jobs: KeyedWorker[str, _Job] = KeyedWorker(
            "bme-lifecycle", self._run_job, merge=_merged, tick=self._tick, tick_every=POLL_S, lazy=False
        )
        self._unsubscribe = service.events.on((GraphChanged, ExtractionFinished), self._on_event)
        self._unfollow: Callable[[], None] | None = None
        self._next_upkeep = monotonic() + FIRST_UPKEEP_DELAY_S
        self._next_patrol_check = monotonic() + FIRST_UPKEEP_DELAY_S
        self._next_backup_check = monotonic() + FIRST_UPKEEP_DELAY_S
        self._scheduled: deque[Callable[[], object]] = deque()  # the schedule's due steps, in order

    def start(self) -> LifecycleWorker:
        """Start the thread; from now on the service's wait paths wait for this worker's jobs
        (``add_follow_up``), and closing the service runs what is queued, then stops it."""
        self._jobs.start()
        if self._unfollow is None:
            self._unfollow = self.service.add_follow_up(self.wait_chat)
            self.service.on_close(self._on_service_close)
        return self

    def stop(self, wait: bool = True) -> None:
        self._unsubscribe()
        if self._unfollow is not None:
            self._unfollow()
        self._jobs.close(30 if wait else 0)

    def wait_chat(self, chat_id: str, timeout: float | None = None) -> bool:
        """Block until no job of the chat waits or runs (its intake and after-extraction
        steps done; a job they queue in turn is waited for too); False on timeout. Not from
        this worker's thread (RuntimeError: it would wait for itself)."""
        if self._jobs.on_thread():
            raise RuntimeError(
                "waiting for the life cycle's work on its own thread (bme-lifecycle) would never return"
            )
        return self._jobs.wait_key(chat_id, timeout)

    def _closed(self) -> bool:
        return self._jobs.closed or self.service.closed

    def _on_service_close(self) -> None:
        """Run the jobs queued before the service began closing (at most ``CLOSE_DRAIN_S``:
        their writes go through while the writer still runs), then stop."""
        if not self._jobs.on_thread():
            self._jobs.wait_idle(CLOSE_DRAIN_S)
        self.stop(wait=False)

    def _on_event(self, event: Event) -> None:
        """On the publishing thread: only queue the chat's job (never run it here)."""
        if event.chat_id is None or event.remote or self._closed():
            return  # another instance on a shared database did this work for its own writes
        if isinstance(event, GraphChanged) and event.change.nodes_added:
            self._jobs.submit(event.chat_id, _Job(event.chat_id, sorted(event.change.nodes_added)))
        elif isinstance(event, ExtractionFinished):
            self._jobs.submit(event.chat_id, _Job(event.chat_id, after=True))

    def _run_job(self, chat_id: str, job: _Job) -> None:
        if not self._jobs.closed:  # a job queued before the service began closing still runs
            self._do(job)

    def _tick(self) -> float | None:
        """Before each job and at least every ``POLL_S``: one step of the schedule (one chat's
        upkeep or patrol, or the backup), unless the service is closing, so a chat's queued job
        (which a wait path may be waiting for) runs between two chats' upkeep, not after the
        whole pass. A failing step is logged by the worker; the next tick takes the next one."""
        if self._closed():
            return None
        self._plan_scheduled()
        if self._scheduled:
            self._scheduled.popleft()()
        return 0.0 if self._scheduled else None

    def run_scheduled(self) -> None:
        """Upkeep for every chat when its interval has passed, the daily patrol (checked every
        ``PATROL_CHECK_S``; each chat's report is recomputed once a day by the service clock), and
        the scheduled backup (checked every ``BACKUP_CHECK_S``; off unless the settings turn it on):
        the steps that are due, all of them now (the worker's thread takes them one a tick)."""
        self._plan_scheduled()
        while self._scheduled and not self._closed():
            self._scheduled.popleft()()

    def _plan_scheduled(self) -> None:
        """Queue the steps of the schedule that have come due, in order: each chat's upkeep,
        each chat's patrol check, the backup check."""
        interval = self.service.settings.lifecycle.upkeep_interval_minutes * 60
        if interval > 0 and self._monotonic() >= self._next_upkeep:
            self._next_upkeep = self._monotonic() + interval
            self._scheduled.extend(partial(self._upkeep, c.chat_id) for c in self.service.list_chats())
        if self._monotonic() >= self._next_patrol_check:
            self._next_patrol_check = self._monotonic() + PATROL_CHECK_S
            self._scheduled.extend(
                partial(patrol_if_due, self.service, c.chat_id) for c in self.service.list_chats()
            )
        if self._monotonic() >= self._next_backup_check:
            self._next_backup_check = self._monotonic() + BACKUP_CHECK_S
            self._scheduled.append(self._backup)

    def _upkeep(self, chat_id: str) -> None:
        self.service.run_maintenance(chat_id, "upkeep")

    def _backup(self) -> None:
        from ..backup.schedule import run_scheduled_backup

        run_scheduled_backup(self.service)

    def _do(self, job: _Job) -> None:
        if not self.service.has_chat(job.chat_id):
            return
        if job.node_ids:
            ids = job.node_ids
            try:
                run_step(
                    self.service,
                    job.chat_id,
                    lambda uow, chat_id, now, s: intake_in(uow, chat_id, ids, now, s),
                )
            except Exception:
                if not job.after:
                    raise  # the worker logs it
                log.exception("life-cycle intake failed for chat %s", job.chat_id)
        if job.after and not self._jobs.closed:
            run_step(self.service, job.chat_id, _in_turn(list(after_extraction_steps().values())))


def _merged(old: _Job, new: _Job) -> _Job:
    """A chat's two waiting jobs as one: the intake of both jobs' memories, then the
    after-extraction steps if either asked for them."""
    return _Job(new.chat_id, sorted(set(old.node_ids) | set(new.node_ids)), old.after or new.after)


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
