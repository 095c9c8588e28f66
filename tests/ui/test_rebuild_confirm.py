"""Rebuild graph asks first, with this chat's numbers, and one Ctrl+Z undoes it (issue 19)."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QMessageBox

from bme_desktop.core import editing
from bme_desktop.core.extract.scheduler import attach
from bme_desktop.core.model import MessageIn
from bme_desktop.core.service import MemoryService
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.main_window import MainWindow
from bme_desktop.ui.panels.actions import ActionsPanel

CHAT = "chat-1"
TURNS = ("Welcome to the Silver Tavern.", "I love apple pie.", "Alice nods. Marcus arrives.", "Hello Marcus.")


def _story(service: MemoryService) -> None:
    """Extracted memories, a rule no extractor writes again (as the demo has) and one typed by hand."""
    attach(service)
    service.sync(
        CHAT,
        [MessageIn(i, "assistant" if i % 2 == 0 else "user", text) for i, text in enumerate(TURNS)],
        complete=True,
        character="Alice",
        wait=True,
    )

    def rule(uow: Any) -> None:
        uow.begin_batch(CHAT, "extract", actor="demo", read_from=0, read_to=3)
        editing.create_node(
            uow,
            CHAT,
            editing.NodeDraft(type="rule", fields={"title": "Pay first", "constraint": "Guests pay first."}),
            manual=False,
        )
        uow.end_batch()

    service.write(rule)
    service.create_node(CHAT, editing.NodeDraft(type="fact", fields={"statement": "Tom hates rain"}))


def _graph(service: MemoryService) -> set[tuple[str, str]]:
    return {(n.id, n.title) for n in service.all_nodes(CHAT)}


def test_rebuild_asks_with_the_numbers_and_cancel_changes_nothing(
    qtbot, context: AppContext, service: MemoryService, settled: Any
) -> None:
    _story(service)
    before = _graph(service)
    panel = ActionsPanel(context)
    qtbot.addWidget(panel)
    context.set_chat(CHAT)
    panel.rows["rebuild"].button.click()
    settled()
    box = panel.confirm_box
    assert box is not None and box.isVisible()
    text = box.informativeText()
    assert f"{len(before)} memories: 1 written or edited by hand are kept" in text
    assert "1 Rule" in text and "One Ctrl+Z undoes the whole run." in text
    next(b for b in box.buttons() if box.buttonRole(b) == QMessageBox.ButtonRole.RejectRole).click()
    settled()
    assert _graph(service) == before and not panel._running


def test_confirmed_rebuild_is_undone_by_one_ctrl_z(
    qtbot, context: AppContext, service: MemoryService, settled: Any
) -> None:
    _story(service)
    before = _graph(service)
    window = MainWindow(context)
    qtbot.addWidget(window)
    context.set_chat(CHAT)
    panel = window.panel("actions")
    assert isinstance(panel, ActionsPanel)
    panel.rows["rebuild"].button.click()
    settled()
    box = panel.confirm_box
    assert box is not None
    next(b for b in box.buttons() if box.buttonRole(b) == QMessageBox.ButtonRole.DestructiveRole).click()
    settled()
    rebuilt = _graph(service)
    assert "Pay first" not in {title for _id, title in rebuilt}  # the rebuild dropped it, as it says
    assert "Ctrl+Z undoes it" in panel.rows["rebuild"].result.text()
    assert window.menus.undo.text() == "Undo Rebuild graph"  # named as its Actions row
    window.menus.undo.trigger()
    settled()
    assert _graph(service) == before  # every memory back, with its id
    assert window.statusBar().currentMessage() == "Undone."
