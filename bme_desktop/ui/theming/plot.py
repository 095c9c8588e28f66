"""pyqtgraph styling from a theme: pens and brushes by token, node type and edge bucket."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtGui import QBrush, QPen

from .model import Theme
from .qt import qcolor


def _pen(color: str, width: float, alpha: float) -> QPen:
    out = QPen(qcolor(color, alpha))
    out.setWidthF(width)
    out.setCosmetic(True)
    return out


def pen(theme: Theme, token: str, width: float = 1.0, alpha: float = 1.0) -> QPen:
    return _pen(theme.color(token), width, alpha)


def node_brush(theme: Theme, node_type: str, alpha: float = 1.0) -> QBrush:
    return QBrush(qcolor(theme.node_color(node_type), alpha))


def style_plot(widget: pg.PlotWidget, theme: Theme) -> None:
    """Background, axes and text of a plot widget in the theme's colours."""
    widget.setBackground(qcolor(theme.color("surface")))
    item = widget.getPlotItem()
    for name in ("left", "bottom"):
        axis = item.getAxis(name)
        axis.setPen(pen(theme, "border"))
        axis.setTextPen(pen(theme, "text_muted"))
