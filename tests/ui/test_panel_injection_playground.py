"""The Injection panel: the detail of a kept recall, the record actions (edit, delete,
re-run) and the playground that shows what recall would return with each score component."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from bme_desktop.core.model import MessageIn, Node
from bme_desktop.core.recall.api import RecallRequest
from bme_desktop.core.service import MemoryService
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.panels.injection import InjectionPanel

CHAT = "chat-1"


def _panel(qtbot, context: AppContext, settled: Callable[[], None]) -> InjectionPanel:
    panel = InjectionPanel(context)
    qtbot.addWidget(panel)
    context.set_chat(CHAT)
    settled()
    return panel


def _keep(service: MemoryService, index: int, text: str) -> None:
    service.recall(RecallRequest(CHAT, text, index=index), keep=True)


def test_the_detail_counts_the_selected_records_memories(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    seed("fact", {"statement": "The lighthouse keeper hoards brass keys"})
    _keep(service, 0, "zzqx nothing matches this")
    _keep(service, 2, "the lighthouse keeper and the brass keys")
    kept = {r.index: r for r in service.recall_records(CHAT)}
    assert kept[2].nodes and not kept[0].nodes
    panel = _panel(qtbot, context, settled)
    assert panel.detail.text().startswith("Message 2 · 1 memories")
    assert panel.text.toPlainText() == kept[2].injection
    panel.list.setCurrentIndex(panel.model.index(1, 0))
    assert "no memory matched" in panel.detail.text()
    assert "Pick a recall" not in panel.text.placeholderText()


def test_edit_saves_the_new_injection_and_marks_it_edited(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    seed("fact", {"statement": "The lighthouse keeper hoards brass keys"})
    _keep(service, 2, "the lighthouse keeper and the brass keys")
    panel = _panel(qtbot, context, settled)
    panel.edit_button.click()
    assert not panel.text.isReadOnly()
    panel.text.setPlainText("Only the keys matter.")
    panel.save_button.click()
    settled()
    record = service.recall_record(CHAT, 2)
    assert record is not None and record.injection == "Only the keys matter." and record.manually_edited
    assert panel.text.isReadOnly() and "edited by hand" in panel.detail.text()


def test_delete_removes_the_selected_record(
    qtbot,
    context: AppContext,
    service: MemoryService,
    seed: Callable[..., Node],
    settled: Callable[[], None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seed("fact", {"statement": "The lighthouse keeper hoards brass keys"})
    _keep(service, 0, "brass keys")
    _keep(service, 2, "the lighthouse keeper")
    panel = _panel(qtbot, context, settled)
    monkeypatch.setattr(QMessageBox, "question", lambda *_a, **_k: QMessageBox.StandardButton.Yes)
    panel.delete_button.click()
    settled()
    assert [r.index for r in service.recall_records(CHAT)] == [0]
    assert panel.model.rowCount() == 1 and panel.detail.text().startswith("Message 0")


def test_rerun_replaces_an_edited_record_with_a_fresh_recall(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    seed("fact", {"statement": "The lighthouse keeper hoards brass keys"})
    _keep(service, 2, "the lighthouse keeper and the brass keys")
    fresh = service.recall_record(CHAT, 2)
    service.edit_recall_record(CHAT, 2, "hand text")
    panel = _panel(qtbot, context, settled)
    panel.rerun_button.click()
    settled()
    record = service.recall_record(CHAT, 2)
    assert fresh is not None and record is not None
    assert record.injection == fresh.injection and not record.manually_edited
    assert panel.text.toPlainText() == fresh.injection


def test_the_playground_shows_nodes_with_score_components_without_keeping(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    node = seed("fact", {"statement": "The lighthouse keeper hoards brass keys"})
    panel = _panel(qtbot, context, settled)
    play = panel.playground
    play.input.setPlainText("what about the brass keys of the lighthouse keeper?")
    play.run_button.click()
    settled()
    model = play.model
    headers = [str(model.headerData(c, Qt.Orientation.Horizontal)) for c in range(model.columnCount())]
    assert model.rowCount() >= 1 and headers[:2] == ["Memory", "Score"] and len(headers) > 2
    assert "Words" in headers  # the lexical component, by its label
    numbers = [model.item(0, c).text() for c in range(1, model.columnCount()) if model.item(0, c).text()]
    assert numbers and all(len(n.split(".")[1]) == 3 for n in numbers)
    assert "tokens" in play.summary.text() and play.injection.toPlainText()
    assert service.recall_records(CHAT) == []
    selected: list[str] = []
    context.sigNodeSelected.connect(selected.append)
    play.table.clicked.emit(model.index(0, 0))
    assert selected == [node.id]


def test_another_chat_opens_on_its_latest_record(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    seed("fact", {"statement": "The lighthouse keeper hoards brass keys"})
    _keep(service, 0, "brass keys")
    _keep(service, 2, "the lighthouse keeper")
    service.sync("chat-2", [MessageIn(index=0, role="user", text="hello")], complete=True, character="Wren")
    service.recall(RecallRequest("chat-2", "hello", index=0), keep=True)
    service.recall(RecallRequest("chat-2", "brass", index=4), keep=True)
    panel = _panel(qtbot, context, settled)
    panel.list.setCurrentIndex(panel.model.index(1, 0))  # chat-1, message 0
    context.set_chat("chat-2")
    settled()
    assert panel.detail.text().startswith("Message 4")
