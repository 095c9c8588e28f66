"""Themes as data: tokens from JSON, one mechanism to QPalette, QSS, pyqtgraph and GL."""

from .manager import DEFAULT_THEME, ThemeManager
from .model import Theme, ThemeError, load_theme, load_themes

__all__ = ["DEFAULT_THEME", "Theme", "ThemeError", "ThemeManager", "load_theme", "load_themes"]
