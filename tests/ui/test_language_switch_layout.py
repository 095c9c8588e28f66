"""A live language switch translates the window in place: same window, geometry and docks."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QApplication

from bme_desktop.ui.app import DesktopApp
from bme_desktop.ui.main_window import MainWindow
from bme_desktop.ui.wait_idle import settle


def _layout(window: MainWindow) -> tuple[QRect, dict[str, QRect]]:
    """The window's geometry and that of every dock on screen (not a tab behind another)."""
    return window.geometry(), {
        key: dock.geometry()
        for key, dock in window.docks.items()
        if dock.isVisible() and not dock.visibleRegion().isEmpty()
    }


def test_switching_language_keeps_the_window_and_dock_geometry(
    desktop: DesktopApp, qapp: QApplication
) -> None:
    window = desktop.window
    window.resize(1440, 900)
    window.show()
    settle(desktop.context.runner)
    window.resizeDocks(
        [window.docks["chats"], window.docks["memories"]], [420, 560], Qt.Orientation.Horizontal
    )
    assert window.show_panel("persona")  # another tab of the right-hand group in front
    window.stack.setCurrentIndex(window.stack.count() - 1)
    settle(desktop.context.runner)
    before = _layout(window)
    view, title = window.stack.currentIndex(), window.docks["chats"].windowTitle()
    desktop.set_language("zh")
    settle(desktop.context.runner)
    qapp.processEvents()
    assert desktop.window is window and desktop.context.language == "zh"
    assert desktop.window.docks["chats"].windowTitle() != title  # translated
    after = _layout(desktop.window)
    assert after[0] == before[0]
    assert after[1].keys() == before[1].keys()
    for key, rect in before[1].items():  # the menu and status bars follow the font: a pixel or two
        now = after[1][key]
        assert (now.x(), now.width()) == (rect.x(), rect.width()), key
        assert abs(now.y() - rect.y()) <= 2 and abs(now.height() - rect.height()) <= 3, key
    assert "persona" in before[1] and desktop.window.stack.currentIndex() == view
