"""ThemeManager: holds the loaded themes and applies one live to the application."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QApplication

from .icons import ColoredIcons
from .model import Theme, ThemeError, load_themes
from .qt import palette_for, stylesheet_for

DEFAULT_THEME = "crimson-synth"


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
            app.setPalette(palette_for(theme))
            app.setStyleSheet(stylesheet_for(theme, self._template, self._icons))
        self._current = theme
        self.sigThemeChanged.emit(theme)
        return theme
