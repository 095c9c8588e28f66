"""Wait, with the event loop running, until background work and its follow-ups are done."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QEventLoop, QObject, QTimer

from .workers import TaskRunner


def pump(msecs: int) -> None:
    """Run the event loop for ``msecs`` milliseconds."""
    loop = QEventLoop()
    QTimer.singleShot(msecs, loop.quit)
    loop.exec()


def timers_pending(root: QObject) -> Callable[[], bool]:
    """True while a single-shot timer under ``root`` is running: coalesced work (a count refresh
    after a burst of changes) that will start a task when it fires."""

    def pending() -> bool:
        return any(t.isSingleShot() and t.isActive() for t in root.findChildren(QTimer))

    return pending


def settle(
    runner: TaskRunner,
    *,
    quiet_ms: int = 400,
    max_rounds: int = 600,
    pending: Callable[[], bool] | None = None,
) -> bool:
    """Return once no task has run for ``quiet_ms`` (longer than the UI's coalescing timers) and
    ``pending`` (work scheduled but not started, e.g. ``timers_pending``) says nothing waits;
    False if work was still going after ``max_rounds`` checks."""
    quiet = 0
    for _ in range(max_rounds):
        QCoreApplication.processEvents()
        if runner.busy or (pending is not None and pending()):
            quiet = 0
            runner.wait(50)
            pump(10)
            continue
        pump(50)
        quiet += 50
        if quiet >= quiet_ms and not runner.busy:
            return True
    return False
