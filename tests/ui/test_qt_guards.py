"""Guards on the Qt binding and the worker: None's refcount, results on the GUI thread."""

from __future__ import annotations

import sys
import threading

from PySide6.QtWidgets import QWidget

from bme_desktop.ui.workers import TaskRunner


def test_none_refcount_does_not_drift_across_qt_calls(qapp: object) -> None:
    """PySide6 6.12 on Python 3.11 lost a reference to None on every void call and aborted."""
    widget = QWidget()
    before = sys.getrefcount(None)
    for i in range(10_000):
        widget.setEnabled(i % 2 == 0)
    assert abs(sys.getrefcount(None) - before) < 100


def test_a_task_reports_its_result_on_the_gui_thread(qtbot) -> None:
    runner = TaskRunner()
    seen: list[tuple[object, bool]] = []
    runner.run(
        lambda control: threading.get_ident(),
        on_done=lambda worker: seen.append((worker, threading.get_ident() == threading.main_thread().ident)),
    )
    qtbot.waitUntil(lambda: bool(seen) and not runner.busy)
    worker_thread, on_gui_thread = seen[0]
    assert worker_thread != threading.main_thread().ident and on_gui_thread


def test_a_new_task_with_the_same_key_supersedes_the_old_one(qtbot) -> None:
    runner = TaskRunner()
    release = threading.Event()
    results: list[str] = []
    runner.run(lambda control: release.wait(5) and "old", on_done=results.append, key="search")
    runner.run(lambda control: "new", on_done=results.append, key="search")
    release.set()
    qtbot.waitUntil(lambda: not runner.busy)
    assert results == ["new"]


def test_errors_reach_the_error_handler(qtbot) -> None:
    runner = TaskRunner()
    errors: list[Exception] = []

    def fail(control: object) -> None:
        raise ValueError("boom")

    runner.run(fail, on_error=errors.append)
    qtbot.waitUntil(lambda: not runner.busy)
    assert [str(e) for e in errors] == ["boom"]
