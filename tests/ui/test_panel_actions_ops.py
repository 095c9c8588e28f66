"""The Actions panel's story operations (ST-BME's operations): each runs on a worker with a
progress bar, is one Ctrl+Z, and shows bad input or "nothing to do" with the reason."""

from __future__ import annotations

from collections.abc import Callable

from bme_desktop.core.extract.scheduler import attach
from bme_desktop.core.model import MessageIn
from bme_desktop.core.service import MemoryService
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.panels.actions import ActionsPanel

CHAT = "chat-1"
TEXTS = ["Mira, where does the road go?", "To Keld harbour. We must find the lost compass before winter.",
         "Who keeps the harbour?", "Captain Oren keeps it. No ship may leave Keld after dark.",
         "I promise I will help you.", "Mira smiles and walks to the old lighthouse of Keld."]


def _panel(qtbot, context: AppContext, service: MemoryService) -> ActionsPanel:
    # messages stored before the extractor is attached: they wait, unread
    service.sync(CHAT, [MessageIn(index=i, role="user" if i % 2 == 0 else "assistant", text=text)
                        for i, text in enumerate(TEXTS)], complete=True, character="Mira", user="Ash")
    attach(service)
    panel = ActionsPanel(context)
    qtbot.addWidget(panel)
    context.set_chat(CHAT)
    return panel


def test_extract_pending_reports_progress_and_one_undo_puts_the_chat_back(
        qtbot, context: AppContext, service: MemoryService, settled: Callable[[], None]) -> None:
    panel = _panel(qtbot, context, service)
    row = panel.operations.rows["extract_pending"]
    assert row.button.isEnabled()
    seen: list[tuple[int, int]] = []
    row.progress.valueChanged.connect(lambda value: seen.append((value, row.progress.maximum())))
    row.button.click()
    settled()
    assert "3 batches extracted in" in row.result.text() and "Ctrl+Z" in row.result.text()
    assert seen and seen[-1] == (6, 6)  # messages read of those pending, from maintenance.progress
    assert service.all_nodes(CHAT) and not row.progress.isVisible()
    row.button.click()
    settled()
    assert row.result.text().startswith("Nothing to do: every message is extracted already")
    assert service.undo(CHAT)
    assert service.all_nodes(CHAT) == []


def test_a_bad_range_is_shown_with_the_reason_and_changes_nothing(
        qtbot, context: AppContext, service: MemoryService, settled: Callable[[], None]) -> None:
    panel = _panel(qtbot, context, service)
    ops = panel.operations
    ops.use_range.setChecked(True)
    ops.start.setValue(4)
    ops.end.setValue(2)
    ops.rows["evolve"].button.click()
    settled()
    assert "must not be after 'to'" in ops.rows["evolve"].result.text()
    assert ops.rows["evolve"].result.property("role") == "warning"
    assert service.all_nodes(CHAT) == [] and service.read(lambda r: r.chat_row(CHAT)["state"]) == {}


def test_operations_are_disabled_with_a_reason_until_a_chat_is_open(qtbot, context: AppContext) -> None:
    panel = ActionsPanel(context)
    qtbot.addWidget(panel)
    row = panel.operations.rows["rebuild_summaries"]
    assert not row.button.isEnabled() and "Open a chat first" in row.button.toolTip()
