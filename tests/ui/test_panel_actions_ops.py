"""The Actions panel's story operations (ST-BME's operations): each runs on a worker with a
progress bar, is one Ctrl+Z, and shows bad input or "nothing to do" with the reason. The
maintenance rows show the running task's counts too: a determinate bar and "6 of 6 messages
read", fed by ``maintenance.progress`` events queued to the GUI thread."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QMessageBox

from bme_desktop.core.events import Initiator, MaintenanceProgressed
from bme_desktop.core.extract.scheduler import attach
from bme_desktop.core.model import MessageIn
from bme_desktop.core.operations import OpResult
from bme_desktop.core.service import MemoryService
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.panels.actions import ActionRow, ActionsPanel

CHAT = "chat-1"
TEXTS = [
    "Mira, where does the road go?",
    "To Keld harbour. We must find the lost compass before winter.",
    "Who keeps the harbour?",
    "Captain Oren keeps it. No ship may leave Keld after dark.",
    "I promise I will help you.",
    "Mira smiles and walks to the old lighthouse of Keld.",
]


def _panel(qtbot, context: AppContext, service: MemoryService) -> ActionsPanel:
    # messages stored before the extractor is attached: they wait, unread
    service.sync(
        CHAT,
        [
            MessageIn(index=i, role="user" if i % 2 == 0 else "assistant", text=text)
            for i, text in enumerate(TEXTS)
        ],
        complete=True,
        character="Mira",
        user="Ash",
    )
    attach(service)
    panel = ActionsPanel(context)
    qtbot.addWidget(panel)
    context.set_chat(CHAT)
    return panel


def test_extract_pending_reports_progress_and_one_undo_puts_the_chat_back(
    qtbot, context: AppContext, service: MemoryService, settled: Callable[[], None]
) -> None:
    panel = _panel(qtbot, context, service)
    row = panel.operations.rows["extract_pending"]
    assert row.button.isEnabled()
    done: list[OpResult[object]] = []
    context.sigOperationDone.connect(done.append)
    seen: list[tuple[int, int]] = []
    row.progress.valueChanged.connect(lambda value: seen.append((value, row.progress.maximum())))
    row.button.click()
    settled()
    assert "3 batches extracted in" in row.result.text() and "Ctrl+Z" in row.result.text()
    assert seen and seen[-1] == (6, 6)  # messages read of those pending, from maintenance.progress
    assert service.all_nodes(CHAT) and not row.progress.isVisible()
    # one operation of the panel (the app's runner): upkeep, the memories it wrote in its record
    assert [(r.initiator, r.origin) for r in done] == [(Initiator.UPKEEP, panel.operations)]
    assert done[0].change(CHAT).nodes_added == {n.id for n in service.all_nodes(CHAT)}
    row.button.click()
    settled()
    assert row.result.text().startswith("Nothing to do: every message is extracted already")
    assert service.undo(CHAT).value
    assert service.all_nodes(CHAT) == []


def test_a_bad_range_is_shown_with_the_reason_and_changes_nothing(
    qtbot, context: AppContext, service: MemoryService, settled: Callable[[], None]
) -> None:
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


# the maintenance rows' counts (issue 19.6) ----------------------------------------------------
def _record(row: ActionRow) -> list[tuple[int, int, str]]:
    """(bar value, bar maximum, the row's text) after each count the row is shown."""
    seen: list[tuple[int, int, str]] = []
    show = row.show_progress

    def recording(done: int, total: int) -> None:
        show(done, total)
        seen.append((row.progress.value(), row.progress.maximum(), row.result.text()))

    row.show_progress = recording  # type: ignore[method-assign]
    return seen


def test_extract_now_shows_messages_read_of_those_due(
    qtbot, context: AppContext, service: MemoryService, settled: Callable[[], None]
) -> None:
    panel = _panel(qtbot, context, service)
    row = panel.rows["extract"]
    seen = _record(row)
    row.button.click()
    settled()
    assert "batches extracted in" in row.result.text()
    assert seen[0][:2] == (0, 6) and seen[-1][:2] == (6, 6)
    assert [value for value, _, _ in seen] == sorted(value for value, _, _ in seen)  # counts only grow
    assert seen[-1][2].startswith("6 of 6 message")
    assert not row.progress.isVisible()


def test_rebuild_graph_counts_the_messages_extracted_again(
    qtbot, context: AppContext, service: MemoryService, settled: Callable[[], None]
) -> None:
    panel = _panel(qtbot, context, service)
    panel.rows["extract"].button.click()
    settled()
    row = panel.rows["rebuild"]
    seen = _record(row)
    row.button.click()
    qtbot.waitUntil(lambda: panel.confirm_box is not None and panel.confirm_box.isVisible(), timeout=5000)
    box = panel.confirm_box
    assert box is not None
    (go,) = [b for b in box.buttons() if box.buttonRole(b) == QMessageBox.ButtonRole.DestructiveRole]
    go.click()
    settled()
    assert seen and seen[-1][:2] == (6, 6) and seen[-1][2].startswith("6 of 6 message")
    assert "changed in" in row.result.text()


def test_counts_of_another_chat_or_an_idle_row_are_ignored(
    qtbot, context: AppContext, service: MemoryService, settled: Callable[[], None]
) -> None:
    panel = _panel(qtbot, context, service)
    row = panel.rows["rebuild_vectors"]
    service.events.publish(MaintenanceProgressed(CHAT, "rebuild_vectors", 3, 10))
    service.events.publish(MaintenanceProgressed("other", "extract", 3, 10))
    settled()
    assert row.progress.maximum() == 0 and row.result.text() == row.spec.hint()


def test_a_row_shows_counts_with_thousands_and_keeps_them_across_a_retranslate(qtbot) -> None:
    from PySide6.QtWidgets import QGridLayout, QWidget

    from bme_desktop.ui.format import format_count
    from bme_desktop.ui.panels.actions import ACTIONS

    holder = QWidget()
    qtbot.addWidget(holder)
    grid = QGridLayout(holder)
    row = ActionRow(ACTIONS[2], grid, 0, lambda _key: None)  # Rebuild vectors
    row.set_running(True)
    assert row.progress.maximum() == 0  # indeterminate until counts come
    row.show_progress(312, 2000)
    assert (row.progress.value(), row.progress.maximum()) == (312, 2000)
    counts = f"312 of {format_count(2000)} memor"  # the locale's grouping: "2,000" in English
    assert row.result.text().startswith(counts)
    row.retranslate()
    assert row.result.text().startswith(counts)
    row.set_running(False)
    assert row.progress.maximum() == 0
