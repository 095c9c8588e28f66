"""The review centre: approve and reject in the store, the card (text, reason, sources), the keys."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QItemSelectionModel, Qt

from bme_desktop.core.model import MessageIn, Node
from bme_desktop.core.service import MemoryService
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.panels.review import ReviewPanel

CHAT = "chat-1"


def test_approving_selected_rows_changes_review_status(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    pending = [seed("fact", {"statement": f"claim {i}"}, review_status="pending") for i in range(3)]
    seed("fact", {"statement": "already fine"})
    panel = ReviewPanel(context)
    qtbot.addWidget(panel)
    context.set_chat(CHAT)
    settled()
    assert panel.model.rowCount() == 3
    selection = panel.table.selectionModel()
    for row in (0, 1):
        selection.select(
            panel.model.index(row, 0),
            QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows,
        )
    chosen = set(panel.selected_ids())
    panel.approve_button.click()
    settled()
    statuses = {n.id: service.get_node(CHAT, n.id).review_status for n in pending}
    assert {i for i, s in statuses.items() if s == "approved"} == chosen
    assert list(statuses.values()).count("pending") == 1
    assert panel.model.rowCount() == 1


def test_rejecting_marks_the_memory_rejected(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    node = seed("fact", {"statement": "dubious"}, review_status="pending")
    panel = ReviewPanel(context)
    qtbot.addWidget(panel)
    context.set_chat(CHAT)
    settled()
    panel.table.selectAll()
    panel.reject_button.click()
    settled()
    assert service.get_node(CHAT, node.id).review_status == "rejected"


def _sources(service: MemoryService) -> None:
    service.sync(
        CHAT,
        [
            MessageIn(index=0, role="user", text="hello"),
            MessageIn(index=1, role="assistant", text="hi"),
            MessageIn(index=2, role="user", text="Kael lost his compass at the ferry."),
        ],
        complete=True,
        character="Lyra",
    )


def _panel(qtbot, context: AppContext, settled: Callable[[], None]) -> ReviewPanel:
    panel = ReviewPanel(context)
    qtbot.addWidget(panel)
    panel.resize(900, 600)
    panel.show()
    context.set_chat(CHAT)
    settled()
    return panel


def test_the_card_shows_the_text_the_reason_and_the_source_message(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    node = seed(
        "fact",
        {"statement": "Kael lost his compass", "subject": "Kael"},
        review_status="pending",
        source_indices=[2],
    )
    _sources(service)
    panel = _panel(qtbot, context, settled)
    panel.select_row(0)
    settled()
    card = panel.current_card()
    assert card is not None and card.node.id == node.id
    assert card.reason.code == "edited_pending"  # made by hand and saved as pending
    text = panel.card.toPlainText()
    assert "Kael lost his compass" in text  # what it says
    assert "Written or edited by hand" in text  # why it is here
    assert "#2" in text and "Kael lost his compass at the ferry." in text  # where it came from


def test_keys_approve_reject_move_and_undo(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    nodes = [seed("fact", {"statement": f"claim {i}"}, review_status="pending") for i in range(4)]
    panel = _panel(qtbot, context, settled)
    panel.select_row(0)
    panel.table.setFocus()
    settled()
    qtbot.keyClick(panel.table, Qt.Key.Key_J)  # next
    settled()
    assert panel.selected_ids() == [nodes[1].id]
    qtbot.keyClick(panel.table, Qt.Key.Key_K)  # previous
    settled()
    assert panel.selected_ids() == [nodes[0].id]
    qtbot.keyClick(panel.table, Qt.Key.Key_A)  # approve: the next one is selected
    settled()
    assert service.get_node(CHAT, nodes[0].id).review_status == "approved"
    assert panel.selected_ids() == [nodes[1].id]
    qtbot.keyClick(panel.table, Qt.Key.Key_R)  # reject
    settled()
    assert service.get_node(CHAT, nodes[1].id).review_status == "rejected"
    assert panel.selected_ids() == [nodes[2].id]
    assert panel.model.rowCount() == 2
    qtbot.keyClick(panel.table, Qt.Key.Key_U)  # undo brings the rejected one back
    settled()
    assert service.get_node(CHAT, nodes[1].id).review_status == "pending"
    assert panel.model.rowCount() == 3
    assert panel.selected_ids() == [nodes[2].id]  # and the selection stayed where it was


def test_approving_a_selection_is_one_undoable_step(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    nodes = [seed("fact", {"statement": f"claim {i}"}, review_status="pending") for i in range(3)]
    panel = _panel(qtbot, context, settled)
    panel.table.setFocus()
    panel.table.selectAll()
    settled()
    assert "3 memories selected" in panel.card.toPlainText()
    qtbot.keyClick(panel.table, Qt.Key.Key_A)
    settled()
    assert {service.get_node(CHAT, n.id).review_status for n in nodes} == {"approved"}
    assert panel.model.rowCount() == 0
    assert service.undo(CHAT).value
    settled()
    assert {service.get_node(CHAT, n.id).review_status for n in nodes} == {"pending"}
    assert panel.model.rowCount() == 3


def test_e_edits_in_place_and_typing_there_does_not_decide(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    node = seed("fact", {"statement": "draft"}, review_status="pending")
    panel = _panel(qtbot, context, settled)
    panel.select_row(0)
    panel.table.setFocus()
    settled()
    qtbot.keyClick(panel.table, Qt.Key.Key_E)
    assert panel.side.currentWidget() is panel.editor
    edit = panel.editor.field_edit("statement")
    edit.selectAll()  # type: ignore[union-attr]
    qtbot.keyClicks(edit, "a rare fact")  # an "a" and an "r" typed here are text, not decisions
    panel.editor.save_button.click()
    settled()
    stored = service.get_node(CHAT, node.id)
    assert stored.fields["statement"] == "a rare fact" and stored.review_status == "pending"
    assert panel.side.currentWidget() is panel.card  # back to the card, which shows the new text
    assert "a rare fact" in panel.card.toPlainText()


def test_shown_the_queue_selects_its_first_memory_and_n_p_move_through_it(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    nodes = [seed("fact", {"statement": f"claim {i}"}, review_status="pending") for i in range(3)]
    panel = _panel(qtbot, context, settled)  # no click: the card and the keys work at once
    qtbot.waitUntil(lambda: panel.current_card() is not None, timeout=10000)
    assert panel.selected_ids() == [nodes[0].id] and "claim 0" in panel.card.toPlainText()
    assert panel.table.hasFocus() or not panel.isActiveWindow()
    qtbot.keyClick(panel.table, Qt.Key.Key_N)  # next
    settled()
    assert panel.selected_ids() == [nodes[1].id]
    qtbot.keyClick(panel.table, Qt.Key.Key_P)  # previous
    settled()
    assert panel.selected_ids() == [nodes[0].id]
    assert "N/J next" in panel.keys.text()
    assert "This chat" in panel.card.toPlainText()  # the card names the scope the list leaves out
    assert panel.table.isColumnHidden(2) and not panel.table.isColumnHidden(1)  # type and title only
