"""Background tasks on a QThreadPool: start, cancel, progress, done, error.

A task's function runs on a pool thread and gets a :class:`TaskControl` to report progress
and see whether it was cancelled. Results come back through queued signals to the GUI
thread; a task never touches a widget. ``TaskRunner.run(key=...)`` cancels the previous
task with the same key (a new search supersedes the old one).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from .lifetime import subscribe

log = logging.getLogger(__name__)


class TaskControl:
    """Handed to the task function: ``progress(done, total, text)`` and ``cancelled``."""

    def __init__(self, signals: TaskSignals) -> None:
        self._signals = signals
        self._cancel = threading.Event()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def cancel(self) -> None:
        self._cancel.set()

    def progress(self, done: int, total: int, text: str = "") -> None:
        if not self.cancelled:
            self._signals.sigProgress.emit(done, total, text)


class TaskSignals(QObject):
    sigStarted = Signal()
    sigProgress = Signal(int, int, str)
    sigDone = Signal(object)
    sigError = Signal(object)  # the exception
    sigFinished = Signal()  # always last, after done/error, also when cancelled


class Task(QRunnable):
    def __init__(self, fn: Callable[[TaskControl], Any]) -> None:
        super().__init__()
        self.setAutoDelete(False)
        self.signals = TaskSignals()
        self.control = TaskControl(self.signals)
        self._fn = fn

    def cancel(self) -> None:
        self.control.cancel()

    @property
    def cancelled(self) -> bool:
        return self.control.cancelled

    def run(self) -> None:
        signals = self.signals
        try:
            if not self.cancelled:
                signals.sigStarted.emit()
                result = self._fn(self.control)
                if not self.cancelled:
                    signals.sigDone.emit(result)
        except Exception as exc:  # reported to the GUI thread, never raised into Qt
            if not self.cancelled:
                log.debug("task failed", exc_info=True)
                signals.sigError.emit(exc)
        finally:
            signals.sigFinished.emit()


class TaskRunner(QObject):
    """Starts tasks, keeps them alive until they finish, cancels superseded ones."""

    sigBusyChanged = Signal(bool)
    sigError = Signal(object)  # errors of tasks started without their own error handler

    def __init__(self, parent: QObject | None = None, max_threads: int = 4) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(max_threads)
        self._active: set[Task] = set()
        self._keyed: dict[str, Task] = {}

    @property
    def busy(self) -> bool:
        return bool(self._active)

    def run(
        self,
        fn: Callable[[TaskControl], Any],
        *,
        on_done: Callable[[Any], None] | None = None,
        on_error: Callable[[Exception], None] | None = None,
        on_progress: Callable[[int, int, str], None] | None = None,
        key: str | None = None,
        owner: QObject | None = None,
    ) -> Task:
        """With ``owner`` (the widget the callbacks update), the callbacks are subscriptions of
        that owner: once it is closed or destroyed, the result is dropped (see ``lifetime``)."""
        if key is not None and key in self._keyed:
            self._keyed.pop(key).cancel()
        task = Task(fn)

        def connect(signal: Any, slot: Callable[..., None]) -> None:
            if owner is not None:
                subscribe(owner, signal, slot)
            else:
                signal.connect(slot)

        if on_done is not None:
            connect(task.signals.sigDone, on_done)
        if on_error is not None:
            connect(task.signals.sigError, on_error)
        else:
            task.signals.sigError.connect(self.sigError.emit)
        if on_progress is not None:
            connect(task.signals.sigProgress, on_progress)
        task.signals.sigFinished.connect(lambda: self._finished(task, key))
        was_busy = self.busy
        self._active.add(task)
        if key is not None:
            self._keyed[key] = task
        if not was_busy:
            self.sigBusyChanged.emit(True)
        self._pool.start(task)
        return task

    def _finished(self, task: Task, key: str | None) -> None:
        self._active.discard(task)
        if key is not None and self._keyed.get(key) is task:
            del self._keyed[key]
        if not self.busy:
            self.sigBusyChanged.emit(False)

    def cancel_all(self) -> None:
        for task in list(self._active):
            task.cancel()

    def wait(self, msecs: int = -1) -> bool:
        """Block until the pool's threads are idle (queued signals still need an event loop)."""
        return self._pool.waitForDone(msecs)
