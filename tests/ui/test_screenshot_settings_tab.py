"""``--panel settings:TAB``: the screenshot (and the window) opens Settings on that tab; an unknown
tab is refused before anything is created."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from bme_desktop.cli import build_parser
from bme_desktop.core.service import MemoryService
from bme_desktop.core.settings import load_settings
from bme_desktop.ui.app import DesktopApp, gui_main
from bme_desktop.ui.panel_tabs import SETTINGS_TABS
from bme_desktop.ui.panels.settings import SettingsPanel
from bme_desktop.ui.resources import themes_dir
from bme_desktop.ui.theming import ThemeManager


def _args(panel: str, shot: Path | None = None) -> argparse.Namespace:
    return argparse.Namespace(
        database_url=None,
        screenshot=str(shot) if shot else None,
        theme="neon-cyan",
        panel=panel,
        lang="en",
        demo=True,
        no_bridge=True,
        demo_scale=1,
    )


def test_the_screenshot_shows_the_bridge_tab_with_its_empty_client_list(
    qapp: QApplication, data_dir: Path, tmp_path: Path
) -> None:
    settings = load_settings(data_dir)
    service = MemoryService.open(data_dir, settings=settings)
    desktop = DesktopApp(
        qapp, data_dir, _args("settings:bridge"), settings, service, ThemeManager(themes_dir())
    )
    try:
        assert desktop.screenshot(tmp_path / "bridge.png") == 0
        assert (tmp_path / "bridge.png").stat().st_size > 0
        panel = desktop.window.panel("settings")
        assert isinstance(panel, SettingsPanel) and panel.isVisible()
        assert panel.tabs.currentIndex() == SETTINGS_TABS.index("bridge") != 0
        clients = panel.bridge_box.clients
        assert panel.tabs.currentWidget().isAncestorOf(clients) and clients.isVisible()
        assert clients.empty.isVisible() and clients.empty.text() and not clients.table.isVisible()
        origins = panel.editors["bridge.allowed_origins"]  # its row does not swallow the tab's spare height
        assert origins.height() <= origins.input.height() + 4
        for key in SETTINGS_TABS:  # the window switches to every tab by its key
            assert desktop.window.show_panel(f"settings:{key}")
            assert panel.tabs.currentIndex() == SETTINGS_TABS.index(key)
        assert not desktop.window.show_panel("settings:nope")
        assert "nope" in desktop.window.statusBar().currentMessage()
    finally:
        desktop.close()
        service.close()


@pytest.mark.parametrize(
    ("panel", "words"),
    [
        ("settings:bridgee", ["unknown settings tab 'bridgee'", ", ".join(SETTINGS_TABS)]),
        ("memories:bridge", ["'memories' panel has no tabs", "settings:TAB"]),
    ],
)
def test_an_unknown_tab_is_refused_before_anything_is_created(
    qapp: QApplication, tmp_path: Path, capsys: pytest.CaptureFixture[str], panel: str, words: list[str]
) -> None:
    shot, folder = tmp_path / "shot.png", tmp_path / "data"
    assert gui_main(folder, _args(panel, shot)) == 2
    err = capsys.readouterr().err
    assert all(word in err for word in words), err
    assert not folder.exists() and not shot.exists()


def test_the_panel_help_lists_every_settings_tab() -> None:
    text = " ".join(build_parser().format_help().split())
    assert f"settings:TAB also opens one tab of Settings, TAB one of {', '.join(SETTINGS_TABS)}" in text
