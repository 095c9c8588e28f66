"""The Memories panel over a real store: search filters, the editor saves, undo restores."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QPlainTextEdit

from bme_desktop.core.model import Node, NodeQuery
from bme_desktop.core.service import MemoryService
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.main_window import MainWindow
from bme_desktop.ui.panels.memories import MemoriesPanel

CHAT = "chat-1"


def _titles(panel: MemoriesPanel) -> set[str]:
    return {panel.model.node_at(r).title for r in range(panel.model.rowCount())}  # type: ignore[union-attr]


def test_typing_in_the_search_box_filters_the_table(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    seed("character", {"name": "Lyra", "state": "keeps the lanterns"})
    seed("character", {"name": "Orsk", "state": "owes the harbour"})
    seed("fact", {"statement": "Lyra fears deep water", "subject": "Lyra"})
    panel = MemoriesPanel(context)
    qtbot.addWidget(panel)
    context.set_chat(CHAT)
    settled()
    assert _titles(panel) == {"Lyra", "Orsk"}
    qtbot.keyClicks(panel.search, "lyra")
    qtbot.waitUntil(lambda: panel.model.rowCount() == 2)
    settled()
    expected, total = service.search_nodes(CHAT, NodeQuery(q="lyra"))
    assert [panel.model.node_at(r).id for r in range(panel.model.rowCount())] == [n.id for n in expected]  # type: ignore[union-attr]
    assert panel.model.total == total == 2


def test_the_table_pages_instead_of_loading_everything(
    qtbot, context: AppContext, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    for i in range(25):
        seed("fact", {"statement": f"fact {i}"})
    panel = MemoriesPanel(context)
    panel.model._page = 10  # a small page to see paging with few rows
    qtbot.addWidget(panel)
    context.set_chat(CHAT)
    settled()
    first = panel.model.rowCount()  # the view asks for pages until its viewport is full
    assert panel.model.total == 25 and first % 10 == 0 and first < 25
    while panel.model.canFetchMore():
        panel.model.fetchMore()
        settled()
    assert panel.model.rowCount() == 25


def test_saving_in_the_editor_changes_the_store_and_undo_restores_it(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    node = seed("event", {"summary": "Lyra lights the lantern", "title": "Lantern"})
    window = MainWindow(context)
    qtbot.addWidget(window)
    settled()
    panel = window.panel("memories")
    assert isinstance(panel, MemoriesPanel)
    context.sigNodeSelected.emit(node.id)
    settled()
    assert panel.editor.node is not None and panel.editor.node.id == node.id
    summary = panel.editor.field_edit("summary")
    assert isinstance(summary, QPlainTextEdit)
    summary.setPlainText("Lyra lets the lantern go out")
    panel.editor.importance.setValue(9.0)
    panel.editor.save_button.click()
    settled()
    stored = service.get_node(CHAT, node.id)
    assert stored.fields["summary"] == "Lyra lets the lantern go out" and stored.importance == 9.0
    window.menus.undo.trigger()
    settled()
    restored = service.get_node(CHAT, node.id)
    assert restored.fields["summary"] == "Lyra lights the lantern" and restored.importance == node.importance
    assert panel.editor.field_edit("summary").toPlainText() == "Lyra lights the lantern"  # type: ignore[union-attr]


def test_new_memory_creates_a_node(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    seed()
    panel = MemoriesPanel(context)
    qtbot.addWidget(panel)
    context.set_chat(CHAT)
    settled()
    panel.editor.new_memory("rule")
    panel.editor.field_edit("title").setText("No names underwater")  # type: ignore[union-attr]
    panel.editor.field_edit("constraint").setPlainText("Speaking a true name wakes the drowned")  # type: ignore[union-attr]
    panel.editor.save()
    settled()
    nodes, _ = service.search_nodes(CHAT, NodeQuery(type="rule"))
    assert [n.title for n in nodes] == ["No names underwater"]
    assert "No names underwater" in _titles(panel)


def test_delete_moves_the_node_to_the_recycle_bin(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    node = seed("fact", {"statement": "to be deleted"})
    panel = MemoriesPanel(context)
    qtbot.addWidget(panel)
    context.set_chat(CHAT)
    context.sigNodeSelected.emit(node.id)
    settled()
    panel.editor.delete_button.click()
    settled()
    assert service.get_node(CHAT, node.id, include_deleted=True).deleted_at is not None
    assert panel.model.row_of(node.id) == -1


def test_with_no_memory_the_editor_shows_no_stale_or_made_up_values(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    node = seed("fact", {"statement": "to be deleted"}, importance=8.0)
    panel = MemoriesPanel(context)
    qtbot.addWidget(panel)
    panel.show()
    context.set_chat(CHAT)
    settled()
    editor = panel.editor
    assert not editor.importance.isVisible() and not editor.save_button.isVisible()  # not "Event, 0.0"
    context.sigNodeSelected.emit(node.id)
    settled()
    assert (
        editor.importance.isVisible() and editor.importance.value() == 8.0 and editor.save_button.isEnabled()
    )
    editor.delete_button.click()
    settled()
    assert editor.node is None and not editor.importance.isVisible()  # the deleted one's values went with it
    editor.new_memory("rule")
    assert editor.importance.isVisible() and editor.save_button.isEnabled()
