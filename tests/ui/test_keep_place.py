"""Never lose the user's place (issue 19): saving in the editor keeps the selected row, the
scroll position and shows the saved values; new rows arriving during a sync do not move the
selected row; the chat list, the Overview and the memory table show the same count."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QItemSelectionModel

from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.model import Node
from bme_desktop.core.service import MemoryService
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.main_window import MainWindow
from bme_desktop.ui.panels.memories import MemoriesPanel
from bme_desktop.ui.panels.overview import OverviewPanel

CHAT = "chat-1"


def _select(panel: MemoriesPanel, row: int) -> None:
    panel.table.selectionModel().setCurrentIndex(
        panel.model.index(row, 1),
        QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
    )


def _open(qtbot, context: AppContext, settled: Callable[[], None], height: int) -> MemoriesPanel:
    panel = MemoriesPanel(context)
    qtbot.addWidget(panel)
    panel.resize(700, height)
    panel.show()
    context.set_chat(CHAT)
    settled()
    return panel


def _selected_ids(panel: MemoriesPanel) -> list[str]:
    return [n.id for n in panel.selected_nodes()]


def test_saving_keeps_the_selection_scroll_and_shows_the_saved_values(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    for i in range(60):
        seed("fact", {"statement": f"fact number {i}"})
    panel = _open(qtbot, context, settled, 900)
    bar = panel.table.verticalScrollBar()
    bar.setValue(bar.maximum() // 2)
    row = panel.table.rowAt(panel.table.viewport().height() // 2)
    _select(panel, row)
    settled()
    chosen = panel.model.node_at(row)
    assert chosen is not None and panel.editor.node is not None and panel.editor.node.id == chosen.id
    scrolled = bar.value()
    edit = panel.editor.field_edit("statement")
    edit.setPlainText("an edited fact")  # type: ignore[union-attr]
    panel.editor.save_button.click()
    settled()
    assert _selected_ids(panel) == [chosen.id]
    assert bar.value() == scrolled
    assert panel.table.currentIndex().row() == row
    assert panel.editor.node is not None and panel.editor.node.fields["statement"] == "an edited fact"
    assert panel.editor.field_edit("statement").toPlainText() == "an edited fact"  # type: ignore[union-attr]
    assert panel.editor.save_button.isEnabled()
    assert service.get_node(CHAT, chosen.id).fields["statement"] == "an edited fact"


def test_new_rows_arrive_without_moving_the_selected_row(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    for i in range(40):
        seed("fact", {"statement": f"old fact {i}"})
    panel = _open(qtbot, context, settled, 1100)  # tall enough for row 5 to show whatever the theme's font
    _select(panel, 5)
    settled()
    chosen = panel.model.node_at(5)
    assert chosen is not None
    y = panel.table.rowViewportPosition(5)
    assert 0 <= y < panel.table.viewport().height()  # on screen: what this test is about
    for i in range(3):  # newest first in this sort: they belong above the selected row
        service.create_node(CHAT, NodeDraft(type="fact", fields={"statement": f"new fact {i}"}))
    settled()
    assert panel.model.total == 43
    row = panel.model.row_of(chosen.id)
    assert row == 8  # the three new ones were inserted above it, in the store's order
    assert _selected_ids(panel) == [chosen.id]
    assert panel.table.rowViewportPosition(row) == y  # and it did not move on screen
    assert {panel.model.node_at(r).fields["statement"] for r in range(3)} == {  # type: ignore[union-attr]
        f"new fact {i}" for i in range(3)
    }


def test_every_count_on_screen_agrees_during_a_stream_of_new_memories(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    for i in range(5):
        seed("fact", {"statement": f"fact {i}"})
    window = MainWindow(context)
    qtbot.addWidget(window)
    window.show()
    settled()
    memories = window.panel("memories")
    overview = window.panel("overview")
    assert isinstance(memories, MemoriesPanel) and isinstance(overview, OverviewPanel)

    def shown() -> tuple[str, str, str]:
        chat_line = window.chats.chat_items()[CHAT].text().splitlines()[1].split(" ")[0]
        return chat_line, overview.cards["nodes"].value.text(), memories.count.text().split(" ")[0]

    for batch in range(3):  # memories arriving as a sync extracts them
        for i in range(4):
            service.create_node(CHAT, NodeDraft(type="fact", fields={"statement": f"new {batch}.{i}"}))
        settled()
        expected = str(service.chat_stats(CHAT).node_count)
        assert shown() == (expected, expected, expected)
    memories.review_filter.setCurrentIndex(memories.review_filter.findData("pending"))
    settled()
    assert memories.count.text() == "0 of 17 memories"  # a filter says how many of the same total
