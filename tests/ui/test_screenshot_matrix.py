"""Every panel and central view, in every theme and both languages, renders in one running app.

One process, one demo data folder, one ``DesktopApp``: the theme is switched through the
View → Theme menu and the language through View → Language (the live switches), never by
restarting. Each shot is written to ``$BME_SCREENSHOT_DIR`` (default: the test's tmp folder)
as ``<panel>-<theme>-<lang>.png`` so a person can look at them.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from PySide6.QtCore import QPoint
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QApplication, QWidget

from bme_desktop.core.service import MemoryService
from bme_desktop.core.settings import load_settings
from bme_desktop.ui.app import SCREENSHOT_SIZE, DesktopApp
from bme_desktop.ui.i18n import LANGUAGES
from bme_desktop.ui.lifetime import subscriptions
from bme_desktop.ui.panels import panel_specs
from bme_desktop.ui.resources import themes_dir
from bme_desktop.ui.theming import ThemeManager
from bme_desktop.ui.views import view_specs
from bme_desktop.ui.wait_idle import settle

TOLERANCE = 6  # per channel, for PNG/anti-aliasing noise


def _keys() -> list[str]:
    return [spec.key for spec in panel_specs()] + [spec.key for spec in view_specs()]


def _pick(actions: list, value: str) -> None:  # type: ignore[type-arg]
    matches = [action for action in actions if action.data() == value]
    assert matches, f"no menu action for {value!r}"
    matches[0].trigger()


def _raised(desktop: DesktopApp, key: str) -> QWidget:
    window = desktop.window
    if key in window.docks:
        return window.docks[key].widget()
    return window.views[key]


def _close(colour: QColor, token: str) -> bool:
    want = QColor(token)
    return all(
        abs(a - b) <= TOLERANCE
        for a, b in ((colour.red(), want.red()), (colour.green(), want.green()), (colour.blue(), want.blue()))
    )


def test_every_panel_renders_in_every_theme_and_language(
    qapp: QApplication, data_dir: Path, tmp_path: Path
) -> None:
    out = Path(os.environ.get("BME_SCREENSHOT_DIR") or tmp_path / "shots")
    out.mkdir(parents=True, exist_ok=True)
    args = argparse.Namespace(
        database_url=None,
        screenshot=None,
        theme="violet-haze",
        panel=None,
        lang="en",
        demo=True,
        no_bridge=True,
        demo_scale=1,
    )
    settings = load_settings(data_dir)
    themes = ThemeManager(themes_dir())
    themes.apply("violet-haze", qapp)
    service = MemoryService.open(data_dir, settings=settings)
    desktop = DesktopApp(qapp, data_dir, args, settings, service, themes)
    try:
        desktop.window.resize(*SCREENSHOT_SIZE)
        desktop.window.show()
        desktop.start()
        assert settle(desktop.context.runner), "the demo story did not finish"
        keys = _keys()
        assert {"overview", "memories", "timeline", "graph2d", "nebula"} <= set(keys)
        shots = 0
        for language in LANGUAGES:
            if desktop.context.language != language:
                window, wired = desktop.window, subscriptions(desktop.window)
                _pick(desktop.window.menus.languages.actions(), language)  # translates the window in place
                # the same window, wired as before (a rebuilt one left the old one's graph wired:
                # "Signal source has been deleted")
                assert desktop.window is window and subscriptions(window) == wired
                assert settle(desktop.context.runner)
            assert desktop.context.language == language
            for name, theme in themes.themes.items():
                _pick(desktop.window.menus.themes.actions(), name)
                assert themes.current.name == name
                for key in keys:
                    if key in desktop.window.docks and "graph2d" in desktop.window.views:
                        desktop.window.show_panel("graph2d")  # panel shots show the 2D graph beside them
                    assert desktop.window.show_panel(key)
                    assert settle(desktop.context.runner, quiet_ms=100), f"{key}: workers did not settle"
                    QApplication.processEvents()
                    raised = _raised(desktop, key)
                    assert raised.isVisible() and not raised.visibleRegion().isEmpty(), (
                        f"{key} is not visible"
                    )
                    if key in desktop.window.views:
                        assert desktop.window.stack.currentWidget() is raised
                    shot = out / f"{key}-{name}-{language}.png"
                    assert desktop.window.grab().save(str(shot), "PNG")
                    assert shot.stat().st_size > 0
                    image = QImage(str(shot))
                    assert not image.isNull() and image.width() >= SCREENSHOT_SIZE[0] // 2
                    colours = {
                        image.pixel(x, y)
                        for x in range(0, image.width(), 41)
                        for y in range(0, image.height(), 31)
                    }
                    assert len(colours) > 5, f"{shot.name} is (nearly) one colour"
                    chats = desktop.window.docks["chats"].widget()
                    scale = image.width() / desktop.window.width()
                    spot = chats.mapTo(desktop.window, QPoint(2, 2))
                    pixel = image.pixelColor(int(spot.x() * scale), int(spot.y() * scale))
                    assert _close(pixel, theme.color("background")), (
                        f"{shot.name}: background {pixel.name()} is not {theme.name}'s "
                        f"{theme.color('background')}"
                    )
                    shots += 1
        assert shots == len(keys) * len(themes.themes) * len(LANGUAGES)
    finally:
        desktop.set_language("en")  # leave no Chinese translator installed for later tests
        desktop.close()
        service.close()
