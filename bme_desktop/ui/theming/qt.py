"""Turn a theme into Qt and drawing objects: QPalette, QSS, pyqtgraph pens and a GL clear colour."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QColor, QPalette

from .colors import mix, to_rgb
from .icons import ColoredIcons
from .model import Theme
from .template import render


def qcolor(value: str, alpha: float = 1.0) -> QColor:
    color = QColor(value)
    color.setAlphaF(alpha)
    return color


def palette_for(theme: Theme) -> QPalette:
    c = theme.color
    pal = QPalette()
    roles = {
        QPalette.ColorRole.Window: c("background"),
        QPalette.ColorRole.WindowText: c("text"),
        QPalette.ColorRole.Base: c("surface"),
        QPalette.ColorRole.AlternateBase: c("surface_alt"),
        QPalette.ColorRole.Text: c("text"),
        QPalette.ColorRole.Button: c("surface_alt"),
        QPalette.ColorRole.ButtonText: c("text"),
        QPalette.ColorRole.Highlight: c("selection"),
        QPalette.ColorRole.HighlightedText: c("text"),
        QPalette.ColorRole.ToolTipBase: c("surface_alt"),
        QPalette.ColorRole.ToolTipText: c("text"),
        QPalette.ColorRole.PlaceholderText: c("text_muted"),
        QPalette.ColorRole.Link: c("primary"),
        QPalette.ColorRole.LinkVisited: c("secondary"),
        QPalette.ColorRole.BrightText: c("error"),
        QPalette.ColorRole.Light: mix(c("surface_alt"), c("text"), 0.1),
        QPalette.ColorRole.Midlight: c("surface_alt"),
        QPalette.ColorRole.Mid: c("border"),
        QPalette.ColorRole.Dark: c("background"),
        QPalette.ColorRole.Shadow: c("background"),
        QPalette.ColorRole.Accent: c("primary"),
    }
    for role, value in roles.items():
        pal.setColor(role, QColor(value))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText, QPalette.ColorRole.ButtonText):
        pal.setColor(QPalette.ColorGroup.Disabled, role, QColor(c("text_muted")))
    return pal


def stylesheet_for(theme: Theme, template_path: Path, icons: ColoredIcons) -> str:
    """The QSS for ``theme``; its ``icon()`` images are ``resources/icons/`` in the theme's colours,
    written by ``icons`` (keep it alive while the style sheet is in use: its files go with it)."""
    return render(template_path.read_text(encoding="utf-8"), theme.tokens(), icons.url)


def gl_clear_color(theme: Theme) -> tuple[float, float, float, float]:
    """The background as an RGBA float tuple for ``glClearColor`` / ``GLViewWidget.setBackgroundColor``."""
    r, g, b = to_rgb(theme.color("background"))
    return r / 255, g / 255, b / 255, 1.0
