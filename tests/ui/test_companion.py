"""Companion mode: a small always-on-top window with the last recall of the chat SillyTavern has
open, a quick search, and F / P to forget or pin a recalled memory (issue 19 item 7)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt

from bme_desktop.core.model import MessageIn, Node
from bme_desktop.core.recall.api import RecallRequest
from bme_desktop.core.service import MemoryService
from bme_desktop.ui.app import DesktopApp
from bme_desktop.ui.companion import CompanionWindow
from bme_desktop.ui.context import AppContext

CHAT = "chat-1"


def _companion(qtbot, context: AppContext) -> CompanionWindow:
    window = CompanionWindow(context, "Bridge: 127.0.0.1:7317")
    qtbot.addWidget(window)
    window.show()
    return window


def test_view_menu_toggles_an_always_on_top_companion_and_follows_its_close(
    qtbot, desktop: DesktopApp
) -> None:
    action = desktop.window.menus.companion
    action.trigger()
    companion = desktop.companion
    assert companion is not None and companion.isVisible()
    assert companion.windowFlags() & Qt.WindowType.WindowStaysOnTopHint
    companion.close()
    assert not action.isChecked()  # the toggle shows what is on screen
    action.trigger()
    assert companion.isVisible() and action.isChecked()


def test_it_shows_the_last_recall_and_the_memories_it_came_from(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    keys = seed("fact", {"statement": "The lighthouse keeper hoards brass keys"})
    companion = _companion(qtbot, context)
    service.recall(RecallRequest(CHAT, "what about the lighthouse keeper", index=1), keep=True)
    settled()  # the recall.finished event names the chat: the companion follows it, no polling
    assert companion.chat_id == CHAT and companion.record is not None and companion.record.index == 1
    assert "brass keys" in companion.injection.toPlainText()
    assert companion.memories.currentItem().data(Qt.ItemDataRole.UserRole) == keys.id
    assert "Bridge: 127.0.0.1:7317" in companion.bridge_label.text()


def test_f_forgets_and_p_pins_the_memory_under_the_cursor(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    keys = seed("fact", {"statement": "The lighthouse keeper hoards brass keys"})
    lamp = seed("fact", {"statement": "The lighthouse lamp burns whale oil"})
    service.recall(RecallRequest(CHAT, "lighthouse keeper brass keys lamp", index=1), keep=True)
    companion = _companion(qtbot, context)
    settled()
    ids = [
        companion.memories.item(r).data(Qt.ItemDataRole.UserRole) for r in range(companion.memories.count())
    ]
    assert set(ids) == {keys.id, lamp.id}
    companion.memories.setFocus()
    companion.memories.setCurrentRow(ids.index(lamp.id))
    assert companion.pin_button.text() == "Pin (P)"
    qtbot.keyClick(companion.memories, Qt.Key.Key_P)
    settled()
    assert service.get_node(CHAT, lamp.id).pinned
    assert companion.pin_button.text() == "Unpin (P)"  # P toggles: it says what it will do
    qtbot.keyClick(companion.memories, Qt.Key.Key_P)
    settled()
    assert not service.get_node(CHAT, lamp.id).pinned
    assert companion.pin_button.text() == "Pin (P)" and companion.note.text() == "Unpinned."
    qtbot.keyClick(companion.memories, Qt.Key.Key_P)
    settled()
    assert service.get_node(CHAT, lamp.id).pinned
    companion.memories.setCurrentRow(ids.index(keys.id))
    qtbot.keyClick(companion.memories, Qt.Key.Key_F)
    settled()
    assert service.get_node(CHAT, keys.id, include_deleted=True).deleted_at is not None
    assert companion.memories.count() == 1


def test_it_follows_the_chat_sillytavern_syncs_and_searches_there(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    seed("fact", {"statement": "The lighthouse keeper hoards brass keys"})
    companion = _companion(qtbot, context)
    service.sync("chat-2", [MessageIn(index=0, role="user", text="a new story")], complete=True)
    settled()
    assert companion.chat_id == "chat-2" and companion.record is None
    service.sync(CHAT, [MessageIn(index=2, role="user", text="back to the lighthouse")])
    settled()
    assert companion.chat_id == CHAT
    qtbot.keyClicks(companion.search, "brass")
    qtbot.waitUntil(lambda: companion.memories.count() > 0)  # after the search box's debounce
    assert companion.memories.count() == 1 and "brass" in companion.memories.item(0).text().lower()


def test_opened_after_sillytavern_synced_it_starts_on_that_chat_not_the_main_window_s(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    seed("fact", {"statement": "The lighthouse keeper hoards brass keys"})
    context.set_chat(CHAT)  # the main window shows one chat…
    service.sync("chat-2", [MessageIn(index=0, role="user", text="a new story")], complete=True)
    settled()  # …while SillyTavern opened another, before the companion existed
    companion = _companion(qtbot, context)
    settled()
    assert companion.chat_id == "chat-2"


def test_ctrl_z_in_the_companion_undoes_a_forget_in_its_own_chat(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    keys = seed("fact", {"statement": "The lighthouse keeper hoards brass keys"})
    service.recall(RecallRequest(CHAT, "lighthouse keeper brass keys", index=1), keep=True)
    service.sync("chat-2", [MessageIn(index=0, role="user", text="a new story")], complete=True)
    context.set_chat("chat-2")  # the main window is elsewhere
    companion = _companion(qtbot, context)
    companion.follow(CHAT)
    settled()
    companion.memories.setFocus()
    companion.memories.setCurrentRow(0)
    qtbot.keyClick(companion.memories, Qt.Key.Key_F)
    settled()
    assert service.get_node(CHAT, keys.id, include_deleted=True).deleted_at is not None
    qtbot.keyClick(companion.memories, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    settled()
    assert service.get_node(CHAT, keys.id).deleted_at is None
    assert companion.memories.count() == 1  # the recall shows it again


def test_a_recalled_memory_pinned_already_offers_unpin(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    keys = seed("fact", {"statement": "The lighthouse keeper hoards brass keys"})
    service.update_node(CHAT, keys.id, {"pinned": True})
    service.recall(RecallRequest(CHAT, "what about the lighthouse keeper", index=1), keep=True)
    companion = _companion(qtbot, context)
    settled()
    assert companion.memories.currentItem().data(Qt.ItemDataRole.UserRole) == keys.id
    assert companion.pin_button.text() == "Unpin (P)"
    companion.pin_button.click()
    settled()
    assert not service.get_node(CHAT, keys.id).pinned and companion.pin_button.text() == "Pin (P)"
