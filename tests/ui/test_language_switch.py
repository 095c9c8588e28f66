"""A live language switch translates the window in place (issue 19): the same window object, its
visible strings in the new language (English ↔ Simplified Chinese) in every panel and view, the
open chat, the selected memory and the editor kept, and nothing raised on the way."""

from __future__ import annotations

import re
import sys

import pytest
from PySide6.QtWidgets import QApplication, QWidget

from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.model import MessageIn
from bme_desktop.ui.app import DesktopApp
from bme_desktop.ui.main_window import MainWindow
from bme_desktop.ui.panels.memories import MemoriesPanel
from bme_desktop.ui.wait_idle import settle
from tests.ui.test_i18n import WHITELIST, WORD, visible_texts
from tests.ui.test_window_release import Errors

CHAT = "chat-1"
CJK = re.compile(r"[\u3400-\u9fff]")
NAMES = {"Kael", "Wren", "chat"}  # the memories' own words and the chat's id, chat-1 (Lyra is whitelisted)


def _every_panel(window: MainWindow) -> None:
    for key in window.docks:
        window.panel(key)


def _english_left(window: QWidget, data: str) -> list[tuple[str, str]]:
    return [
        (kind, text)
        for kind, text in visible_texts(window)
        if any(w not in WHITELIST | NAMES for w in WORD.findall(text.replace(data, "")))
    ]


@pytest.fixture
def story(desktop: DesktopApp) -> MemoriesPanel:
    service = desktop.context.service
    service.sync(
        CHAT,
        [MessageIn(index=0, role="user", text="hello"), MessageIn(index=1, role="assistant", text="hi")],
        complete=True,
        character="Lyra",
    )
    for name in ("Lyra", "Kael", "Wren"):
        service.create_node(CHAT, NodeDraft(type="character", fields={"name": name}))
    window = desktop.window
    window.resize(1440, 900)
    window.show()
    desktop.context.set_chat(CHAT)
    assert settle(desktop.context.runner)
    panel = window.panel("memories")
    assert isinstance(panel, MemoriesPanel)
    panel.table.selectRow(1)
    assert settle(desktop.context.runner)
    assert panel.editor.node is not None
    return panel


def test_a_language_switch_translates_the_same_window_in_place(
    desktop: DesktopApp, story: MemoriesPanel, qapp: QApplication, monkeypatch: pytest.MonkeyPatch
) -> None:
    errors = Errors()
    monkeypatch.setattr(sys, "excepthook", errors)
    window, context = desktop.window, desktop.context
    window.show_panel("graph2d")
    _every_panel(window)
    desktop.show_companion(True)
    companion = desktop.companion
    assert companion is not None
    assert settle(context.runner)
    selected = story.editor.node
    assert selected is not None
    row, title = story.table.currentIndex().row(), window.docks["memories"].windowTitle()
    file_menu = window.menuBar().actions()[0].text()
    story.editor.field_edit("name").setText("Lyra (being edited)")

    desktop.set_language("zh")
    assert desktop.window is window and context.language == "zh"
    assert window.docks["memories"].windowTitle() not in ("", title)
    assert CJK.search(window.docks["memories"].windowTitle())
    assert window.menuBar().actions()[0].text() != file_menu
    assert context.chat_id == CHAT and window.panel("memories") is story
    assert story.editor.node is not None and story.editor.node.id == selected.id
    assert story.table.currentIndex().row() == row
    assert story.editor.field_edit("name").text() == "Lyra (being edited)"  # an edit in progress survives
    assert settle(context.runner)
    assert _english_left(window, str(context.data_dir)) == []
    assert _english_left(companion, str(context.data_dir)) == []  # the companion window too

    desktop.set_language("en")
    assert desktop.window is window and context.language == "en"
    assert window.docks["memories"].windowTitle() == title
    assert window.menuBar().actions()[0].text() == file_menu
    assert settle(context.runner)
    chinese_left = [
        (kind, text) for kind, text in visible_texts(window) if CJK.search(text) and text != "中文"
    ]  # the language's own name, in View → Language
    assert chinese_left == []
    assert story.editor.node is not None and story.editor.node.id == selected.id
    assert errors.seen == []


def test_a_panel_first_shown_after_a_switch_speaks_the_new_language(
    desktop: DesktopApp, story: MemoriesPanel
) -> None:
    desktop.set_language("zh")
    window = desktop.window
    assert window.show_panel("settings")
    assert settle(desktop.context.runner)
    assert _english_left(window, str(desktop.context.data_dir)) == []
