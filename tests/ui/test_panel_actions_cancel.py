"""Cancel in the Actions panel stops the running task at its next checkpoint and says so."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog

from bme_desktop.core.cancel import CancellableTask, CancelToken, checkpoint
from bme_desktop.core.events import ChangeRecord
from bme_desktop.core.model import Node
from bme_desktop.core.service import MemoryService
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.panels import actions_io
from bme_desktop.ui.panels.actions import ActionsPanel

CHAT = "chat-1"


def slow_task(started: threading.Event, finished: list[str]) -> CancellableTask:
    """A task looping for ten seconds, checking its token every 10 ms."""

    def run(chat_id: str, cancel: CancelToken | None) -> ChangeRecord:
        started.set()
        for _ in range(1000):
            checkpoint(cancel)
            time.sleep(0.01)
        finished.append(chat_id)
        return ChangeRecord(chat_id)

    return CancellableTask(run)


def test_cancel_during_a_running_task_ends_it_cancelled_and_resets_the_row(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    seed()
    started, finished = threading.Event(), []
    service.maintenance_tasks["summarize"] = slow_task(started, finished)
    panel = ActionsPanel(context)
    qtbot.addWidget(panel)
    context.set_chat(CHAT)
    row = panel.rows["summarize"]
    assert not row.cancel.isEnabled()  # nothing running yet
    row.button.click()
    assert started.wait(5)
    assert row.cancel.isEnabled() and not row.progress.isHidden()
    row.cancel.click()
    qtbot.waitUntil(lambda: row.result.text() == "Cancelled", timeout=3000)
    settled()
    assert finished == []
    assert row.progress.isHidden() and row.button.isEnabled() and not row.cancel.isEnabled()


def test_a_task_that_cannot_stop_keeps_cancel_disabled_with_the_reason(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node]
) -> None:
    seed()
    service.maintenance_tasks["compress"] = lambda chat_id: ChangeRecord(chat_id)
    panel = ActionsPanel(context)
    qtbot.addWidget(panel)
    context.set_chat(CHAT)
    row = panel.rows["compress"]
    assert row.cancel_hint == ""
    assert "cannot be stopped" in row.cancel.toolTip()


def test_cancelling_an_export_writes_no_file(
    qtbot,
    context: AppContext,
    seed: Callable[..., Node],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    settled: Callable[[], None],
) -> None:
    seed()
    panel = ActionsPanel(context)
    qtbot.addWidget(panel)
    context.set_chat(CHAT)
    target = tmp_path / "story.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_a, **_k: (str(target), ""))
    reading, release = threading.Event(), threading.Event()
    real_dumps = actions_io.dumps

    def held_dumps(document: object) -> str:  # the export is still reading when Cancel comes
        reading.set()
        release.wait(5)
        return real_dumps(document)

    monkeypatch.setattr(actions_io, "dumps", held_dumps)
    row = panel.files.rows["export"]
    row.button.click()
    assert reading.wait(5)
    row.cancel.click()
    release.set()
    settled()
    assert not target.exists()
    assert row.result.text() == "Cancelled; nothing was changed."
    assert row.progress.isHidden() and row.button.isEnabled()
