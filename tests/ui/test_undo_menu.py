"""Edit → Undo and Redo say what they would undo or redo in the open chat, and are greyed out
when there is nothing (issue 16 item 2: the UI's undo state is refreshed from the operations)."""

from __future__ import annotations

from collections.abc import Callable

from bme_desktop.core.model import Node
from bme_desktop.core.service import MemoryService
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.main_window import MainWindow

CHAT = "chat-1"


def test_undo_and_redo_name_the_step_and_follow_each_operation(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    window = MainWindow(context)
    qtbot.addWidget(window)
    undo, redo = window.menus.undo, window.menus.redo
    context.set_chat(CHAT)
    settled()
    assert not undo.isEnabled() and not redo.isEnabled() and undo.text() == "Undo"
    node = seed("fact", {"statement": "Lyra keeps the lantern"})
    settled()
    assert undo.isEnabled() and undo.text() == "Undo New memory" and not redo.isEnabled()
    context.operate(lambda s, origin: s.update_node(CHAT, node.id, {"importance": 9.0}, origin=origin))
    settled()
    assert undo.text() == "Undo Edit"
    undo.trigger()
    settled()
    assert service.get_node(CHAT, node.id).importance == node.importance
    assert undo.text() == "Undo New memory" and redo.isEnabled() and redo.text() == "Redo Edit"
    undo.trigger()
    settled()
    assert not undo.isEnabled() and redo.text() == "Redo New memory"
    redo.trigger()
    settled()
    assert undo.text() == "Undo New memory" and redo.text() == "Redo Edit"


def test_another_chat_has_its_own_steps(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    seed("fact", {"statement": "Lyra keeps the lantern"})
    service.sync("chat-2", [], complete=True, character="Orsk")
    window = MainWindow(context)
    qtbot.addWidget(window)
    context.set_chat(CHAT)
    settled()
    assert window.menus.undo.isEnabled()
    context.set_chat("chat-2")
    settled()
    assert not window.menus.undo.isEnabled() and window.menus.undo.text() == "Undo"
