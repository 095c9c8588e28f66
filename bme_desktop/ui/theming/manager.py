"""ThemeManager: holds the loaded themes and applies one live to the application."""

from __future__ import annotations

import gc
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from .icons import ColoredIcons
from .model import Theme, ThemeError, load_themes
from .qt import palette_for, stylesheet_for

DEFAULT_THEME = "crimson-synth"


def restyle(app: QApplication, palette: QPalette, sheet: str) -> None:
    """Give ``app`` a new palette and style sheet in one pass over its widgets.

    Replacing one application style sheet with another makes Qt's style sheet style repolish
    every widget it had styled and, for each, its descendants again: with the main window's
    1,164 widgets that was 8,088 polish + StyleChange rounds (up to 14 for one widget, its depth)
    and ≈ 400 ms of CPU (issue 19). Dropping the old sheet, then setting the new one, is two
    rounds per widget (2,328, ≈ 100 ms) and ends as the first sheet set at start-up does. The
    windows do not paint in between (updates off; nothing here runs the event loop either).
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
        for window in windows:
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

    def apply(self, name: str, app: QApplication | None = None) -> Theme:
        """Switch to theme ``name`` (unknown names fall back to the default) and restyle the app."""
        theme = self.themes.get(name) or self.themes.get(DEFAULT_THEME) or self._current
        app = app or QApplication.instance()  # type: ignore[assignment]
        if app is not None:
            restyle(app, palette_for(theme), stylesheet_for(theme, self._template, self._icons))
        self._current = theme
        self.sigThemeChanged.emit(theme)
        return theme
