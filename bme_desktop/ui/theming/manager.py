"""ThemeManager: holds the loaded themes and applies one live to the application."""

from __future__ import annotations

import gc
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QWidget
from shiboken6 import isValid

from .icons import ColoredIcons
from .model import Theme, ThemeError, load_themes
from .qt import palette_for, stylesheet_for

DEFAULT_THEME = "crimson-synth"


def restyle(app: QApplication, palette: QPalette, sheet: str, *, thaw: bool = True) -> list[QWidget]:
    """Give ``app`` a new palette and style sheet in one pass over its widgets.

    Replacing one application style sheet with another makes Qt's style sheet style repolish
    every widget it had styled and, for each, its descendants again: with the main window's
    1,164 widgets that was 8,088 polish + StyleChange rounds (up to 14 for one widget, its depth)
    and ≈ 400 ms of CPU (issue 19). Dropping the old sheet, then setting the new one, is two
    rounds per widget (2,328, ≈ 100 ms) and ends as the first sheet set at start-up does. The
    windows do not paint in between (updates off; nothing here runs the event loop either).
    With ``thaw=False`` they stay that way: the caller turns their updates back on (``thaw``)
    and gets the windows it froze.
    """
    windows = [w for w in app.topLevelWidgets() if w.isVisible() and w.updatesEnabled()]
    for window in windows:
        window.setUpdatesEnabled(False)
    collecting = gc.isenabled()
    gc.disable()  # the events make thousands of short-lived wrappers: no collection in the middle
    try:
        app.setPalette(palette)
        if sheet != app.styleSheet():
            if app.styleSheet():
                app.setStyleSheet("")
            app.setStyleSheet(sheet)
    finally:
        if collecting:
            gc.enable()
        if thaw:
            _thaw(windows)
    return windows


def _thaw(windows: list[QWidget]) -> None:
    for window in windows:
        if isValid(window):
            window.setUpdatesEnabled(True)


class ThemeManager(QObject):
    """Widgets that draw by hand (plots, GL views) connect to ``sigThemeChanged`` and restyle."""

    sigThemeChanged = Signal(object)  # Theme

    def __init__(self, folder: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.themes: dict[str, Theme] = load_themes(folder)
        if not self.themes:
            raise ThemeError(f"{folder}: no themes found")
        self._template = folder / "base.qss"
        self._icons = ColoredIcons()  # the style sheet's coloured arrow images
        self._current = self.themes.get(DEFAULT_THEME) or next(iter(self.themes.values()))

    @property
    def current(self) -> Theme:
        return self._current

    def apply(self, name: str, app: QApplication | None = None, *, views_later: bool = False) -> Theme:
        """Switch to theme ``name`` (unknown names fall back to the default) and restyle the app.

        ``views_later`` (a switch the user picks in the running app): what draws by hand
        (``sigThemeChanged``: the graph, the charts) restyles in the next turn of the event loop,
        the windows' painting held until then, so the switch is two shorter stalls of the GUI
        thread instead of one (the style sheet's repolish, then the views) and no frame shows
        half of each theme."""
        theme = self.themes.get(name) or self.themes.get(DEFAULT_THEME) or self._current
        app = app or QApplication.instance()  # type: ignore[assignment]
        frozen: list[QWidget] = []
        if app is not None:
            frozen = restyle(
                app,
                palette_for(theme),
                stylesheet_for(theme, self._template, self._icons),
                thaw=not views_later,
            )
        self._current = theme
        if views_later:
            QTimer.singleShot(0, self, lambda: self._announce(frozen))
        else:
            self.sigThemeChanged.emit(theme)
        return theme

    def _announce(self, frozen: list[QWidget]) -> None:
        try:
            self.sigThemeChanged.emit(self._current)
        finally:
            _thaw(frozen)
