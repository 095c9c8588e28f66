"""Link…, Unlink, Merge, Pin and tier from the Memories panel change the store; Ctrl+Z undoes a merge."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QItemSelectionModel
from PySide6.QtWidgets import QMessageBox

from bme_desktop.core.model import Node
from bme_desktop.core.service import MemoryService
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.main_window import MainWindow
from bme_desktop.ui.panels.memories import MemoriesPanel

CHAT = "chat-1"


def _panel(qtbot, context: AppContext, settled: Callable[[], None]) -> MemoriesPanel:
    panel = MemoriesPanel(context)
    qtbot.addWidget(panel)
    context.set_chat(CHAT)
    settled()
    return panel


def test_link_dialog_creates_an_edge_and_unlink_removes_it(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    lyra = seed("character", {"name": "Lyra"})
    harbour = seed("location", {"name": "Harbour"})
    panel = _panel(qtbot, context, settled)
    context.sigNodeSelected.emit(lyra.id)
    settled()
    dialog = panel.details.open_link_dialog()
    assert dialog is not None
    qtbot.keyClicks(dialog.search, "Harbour")
    qtbot.waitUntil(lambda: dialog.results.count() == 1)
    dialog.results.setCurrentRow(0)
    dialog.relation.setCurrentIndex(dialog.relation.findData("occurred_at"))
    dialog.link()
    settled()
    edges = service.edges(CHAT, node_id=lyra.id)
    assert [(e.from_id, e.to_id, e.relation) for e in edges] == [(lyra.id, harbour.id, "occurred_at")]
    assert panel.details.links.count() == 1 and "Harbour" in panel.details.links.item(0).text()
    panel.details.links.setCurrentRow(0)
    panel.details.unlink_button.click()
    settled()
    assert service.edges(CHAT, node_id=lyra.id) == []
    assert panel.details.links.count() == 0


def test_merge_button_merges_the_two_selected_and_undo_restores_them(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    keep = seed("fact", {"statement": "Lyra keeps the lantern"}, source_indices=[0])
    other = seed("fact", {"statement": "Lyra tends the lantern", "subject": "Lyra"}, source_indices=[1])
    window = MainWindow(context)
    qtbot.addWidget(window)
    context.set_chat(CHAT)
    settled()
    panel = window.panel("memories")
    assert isinstance(panel, MemoriesPanel)
    selection = panel.table.selectionModel()
    for node in (keep, other):
        index = panel.model.index(panel.model.row_of(node.id), 0)
        selection.setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
        )
    assert [n.id for n in panel.selected_nodes()] == [keep.id, other.id]
    assert panel.ops.merge_button.isEnabled()
    panel.ops.merge_button.click()
    box = panel.ops.confirm_box  # it asks first, naming the memory it keeps
    assert box is not None and box.isVisible()
    assert box.text() == f"Keep “{keep.title}” and merge “{other.title}” into it?"
    assert f"“{keep.title}” is kept" in box.informativeText()
    assert service.get_node(CHAT, other.id).deleted_at is None  # nothing merged before the answer
    box.defaultButton().click()
    settled()
    merged = service.get_node(CHAT, keep.id)
    assert merged.source_indices == [0, 1] and merged.fields["subject"] == "Lyra"
    assert service.get_node(CHAT, other.id, include_deleted=True).deleted_at is not None
    window.menus.undo.trigger()
    settled()
    assert service.get_node(CHAT, keep.id) == keep and service.get_node(CHAT, other.id) == other


def test_merge_can_keep_the_other_memory_or_be_cancelled(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    first = seed("fact", {"statement": "Lyra keeps the lantern"}, source_indices=[0])
    second = seed("fact", {"statement": "Lyra tends the lantern"}, source_indices=[1])
    panel = _panel(qtbot, context, settled)
    selection = panel.table.selectionModel()
    for node in (first, second):
        index = panel.model.index(panel.model.row_of(node.id), 0)
        selection.setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
        )
    panel.ops.merge_button.click()
    box = panel.ops.confirm_box
    assert box is not None
    box.escapeButton().click()
    settled()
    assert service.get_node(CHAT, first.id) == first and service.get_node(CHAT, second.id) == second
    panel.ops.merge_button.click()
    box = panel.ops.confirm_box
    assert box is not None
    (swap,) = [b for b in box.buttons() if box.buttonRole(b) == QMessageBox.ButtonRole.ActionRole]
    assert second.title in swap.text()
    swap.click()
    settled()
    assert service.get_node(CHAT, second.id).source_indices == [0, 1]
    assert service.get_node(CHAT, first.id, include_deleted=True).deleted_at is not None


def test_pin_and_tier_are_single_service_edits(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    node = seed("fact", {"statement": "Lyra keeps the lantern"})
    panel = _panel(qtbot, context, settled)
    panel.table.selectRow(panel.model.row_of(node.id))
    settled()
    panel.ops.pin_button.click()
    settled()
    assert service.get_node(CHAT, node.id).pinned
    panel.ops.set_tier("dormant")
    settled()
    assert service.get_node(CHAT, node.id).tier == "dormant"
    assert service.undo(CHAT).value and service.get_node(CHAT, node.id).tier == node.tier
