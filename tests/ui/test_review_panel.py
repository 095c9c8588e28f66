"""The review centre approves and rejects pending memories in the store."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QItemSelectionModel

from bme_desktop.core.model import Node
from bme_desktop.core.service import MemoryService
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.panels.review import ReviewPanel

CHAT = "chat-1"


def test_approving_selected_rows_changes_review_status(qtbot, context: AppContext, service: MemoryService,
                                                       seed: Callable[..., Node],
                                                       settled: Callable[[], None]) -> None:
    pending = [seed("fact", {"statement": f"claim {i}"}, review_status="pending") for i in range(3)]
    seed("fact", {"statement": "already fine"})
    panel = ReviewPanel(context)
    qtbot.addWidget(panel)
    context.set_chat(CHAT)
    settled()
    assert panel.model.rowCount() == 3
    selection = panel.table.selectionModel()
    for row in (0, 1):
        selection.select(panel.model.index(row, 0),
                         QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows)
    chosen = set(panel.selected_ids())
    panel.approve_button.click()
    settled()
    statuses = {n.id: service.get_node(CHAT, n.id).review_status for n in pending}
    assert {i for i, s in statuses.items() if s == "approved"} == chosen
    assert list(statuses.values()).count("pending") == 1
    assert panel.model.rowCount() == 1


def test_rejecting_marks_the_memory_rejected(qtbot, context: AppContext, service: MemoryService,
                                             seed: Callable[..., Node], settled: Callable[[], None]) -> None:
    node = seed("fact", {"statement": "dubious"}, review_status="pending")
    panel = ReviewPanel(context)
    qtbot.addWidget(panel)
    context.set_chat(CHAT)
    settled()
    panel.table.selectAll()
    panel.reject_button.click()
    settled()
    assert service.get_node(CHAT, node.id).review_status == "rejected"
