"""First run: the welcome page while the data folder has no chat, its three ways in, and the
navigation toolbar (views and panels as checkable buttons)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog

from bme_desktop.ui import welcome
from bme_desktop.ui.app import DesktopApp
from bme_desktop.ui.wait_idle import settle, timers_pending


def _settle(desktop: DesktopApp) -> None:
    assert settle(desktop.context.runner, quiet_ms=150, pending=timers_pending(desktop.context))


def _shown(desktop: DesktopApp) -> DesktopApp:
    desktop.window.resize(1440, 900)
    desktop.window.show()
    _settle(desktop)
    return desktop


def test_an_empty_data_folder_opens_on_the_welcome_page(qtbot, desktop: DesktopApp) -> None:
    window = _shown(desktop).window
    assert window.stack.currentWidget() is window.welcome
    assert not any(a.isChecked() for a in window.navigation.views.values())  # no view is on screen


def test_open_the_demo_builds_a_chat_and_shows_its_graph(
    qtbot, desktop: DesktopApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(welcome, "DEMO_SCALE", 1)  # a small story: a fast test
    window = _shown(desktop).window
    qtbot.mouseClick(window.welcome.demo_button, Qt.MouseButton.LeftButton)
    _settle(desktop)
    assert desktop.context.chat_id  # the chat list picked the demo chat
    assert window.stack.currentWidget() is window.views["graph2d"]
    assert window.navigation.views["graph2d"].isChecked()


def test_connect_sillytavern_shows_the_token_to_copy_and_installs_into_one_found(
    qtbot, desktop: DesktopApp, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    st = home / "SillyTavern"
    (st / "data" / "default-user").mkdir(parents=True)
    (st / "package.json").write_text(json.dumps({"name": "sillytavern", "version": "1.12.6"}))
    page = _shown(desktop).window.welcome
    page._home = home
    qtbot.mouseClick(page.connect_button, Qt.MouseButton.LeftButton)
    _settle(desktop)
    box = page.bridge_box
    assert box.isVisible() and len(box.token_edit.text()) >= 32
    qtbot.mouseClick(box.copy_button, Qt.MouseButton.LeftButton)
    assert QApplication.clipboard().text() == box.token_edit.text()
    assert page.found_button.isVisible() and str(st) in page.found_button.text()
    qtbot.mouseClick(page.found_button, Qt.MouseButton.LeftButton)
    _settle(desktop)
    assert (st / "data" / "default-user" / "extensions" / "bme-desktop").is_dir()
    assert "paired with this bridge" in box.install_note.text()


def test_open_a_data_folder_closes_this_window_to_reopen_there(
    qtbot, desktop: DesktopApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "other"
    other.mkdir()
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *_a, **_k: str(other))
    window = _shown(desktop).window
    qtbot.mouseClick(window.welcome.folder_button, Qt.MouseButton.LeftButton)
    assert desktop.reopen_in == other and not window.isVisible()


def test_views_and_panels_are_checkable_buttons_that_show_what_is_on_screen(
    qtbot, desktop: DesktopApp
) -> None:
    window = _shown(desktop).window
    nav = window.navigation
    nav.views["nebula"].trigger()
    assert window.stack.currentWidget() is window.views["nebula"]
    assert [k for k, a in nav.views.items() if a.isChecked()] == ["nebula"]
    button = nav.bar.widgetForAction(nav.panels["review"])
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert window.docks["review"].visibleRegion().isEmpty() is False
    assert nav.panels["review"].isChecked() and not nav.panels["memories"].isChecked()  # tabbed behind
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)  # a second click keeps it on screen
    assert nav.panels["review"].isChecked() and window.docks["review"].isVisible()
