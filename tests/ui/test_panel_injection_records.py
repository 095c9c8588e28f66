"""The Injection panel opens a chat on its latest kept recall and asks before deleting one."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PySide6.QtWidgets import QMessageBox

from bme_desktop.core.events import Initiator
from bme_desktop.core.model import Node
from bme_desktop.core.operations import OpResult
from bme_desktop.core.recall.api import RecallRequest
from bme_desktop.core.service import MemoryService
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.panels.injection import InjectionPanel

CHAT = "chat-1"


@pytest.fixture
def panel(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> InjectionPanel:
    seed("fact", {"statement": "The lighthouse keeper hoards brass keys"})
    for index, text in ((0, "brass keys"), (4, "the lighthouse keeper"), (2, "keys again")):
        service.recall(RecallRequest(CHAT, text, index=index), keep=True)
    widget = InjectionPanel(context)
    qtbot.addWidget(widget)
    context.set_chat(CHAT)
    settled()
    return widget


def test_a_chat_opens_on_its_latest_kept_recall(panel: InjectionPanel) -> None:
    record = panel.current_record()
    assert record is not None and record.index == 4
    assert panel.list.currentIndex().row() == 0 and panel.detail.text().startswith("Message 4")


def test_answering_no_keeps_the_recall(
    panel: InjectionPanel,
    service: MemoryService,
    monkeypatch: pytest.MonkeyPatch,
    settled: Callable[[], None],
) -> None:
    asked: list[str] = []

    def no(_parent: object, _title: str, text: str, *_a: object) -> QMessageBox.StandardButton:
        asked.append(text)
        return QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "question", no)
    panel.delete_button.click()
    settled()
    assert len(asked) == 1 and "message 4" in asked[0]
    assert [r.index for r in service.recall_records(CHAT)] == [0, 2, 4]
    assert panel.model.rowCount() == 3


def test_answering_yes_deletes_the_recall(
    panel: InjectionPanel,
    context: AppContext,
    service: MemoryService,
    monkeypatch: pytest.MonkeyPatch,
    settled: Callable[[], None],
) -> None:
    monkeypatch.setattr(QMessageBox, "question", lambda *_a: QMessageBox.StandardButton.Yes)
    done: list[OpResult[object]] = []
    context.sigOperationDone.connect(done.append)
    panel.delete_button.click()
    settled()
    assert [r.index for r in service.recall_records(CHAT)] == [0, 2]
    assert [(r.value, r.initiator, r.origin) for r in done] == [(True, Initiator.USER, panel)]  # the runner
    assert panel.model.rowCount() == 2
