"""Wait, with the event loop running, until background work and its follow-ups are done."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEventLoop, QTimer

from .workers import TaskRunner


def pump(msecs: int) -> None:
    """Run the event loop for ``msecs`` milliseconds."""
    loop = QEventLoop()
    QTimer.singleShot(msecs, loop.quit)
    loop.exec()


def settle(runner: TaskRunner, *, quiet_ms: int = 400, max_rounds: int = 600) -> bool:
    """Return once no task has run for ``quiet_ms`` (longer than the UI's coalescing timers);
    False if work was still going after ``max_rounds`` checks."""
    quiet = 0
    for _ in range(max_rounds):
        QCoreApplication.processEvents()
        if runner.busy:
            quiet = 0
            runner.wait(50)
            pump(10)
            continue
        pump(50)
        quiet += 50
        if quiet >= quiet_ms and not runner.busy:
            return True
    return False
