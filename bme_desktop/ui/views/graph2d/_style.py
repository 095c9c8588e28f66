"""Theme → lookup tables of a few shared brushes and pens, indexed by numpy arrays.

A node's brush is ``brushes[type, alpha_level]``; its pen is ``pens[ring]``. Alphas are
quantised to a few levels so pyqtgraph's symbol atlas holds a handful of sprites, not one
per node (never a Python object per node or per edge).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QPen

from ...theming import Theme
from ...theming.plot import pen as theme_pen
from ...theming.qt import qcolor
from ..graph_data import TYPE_NAMES, FloatArray, IntArray

ALPHA_LEVELS = np.array([0.0, 0.15, 0.3, 0.5, 0.75, 1.0])
TIER_ALPHA = np.array([0.85, 1.0, 0.5, 0.3, 1.0])  # short, long, dormant, archived, unknown
DIM = 0.3  # factor for nodes outside an active highlight
HOVER_DIM = 0.15  # factor for nodes outside the hovered node's neighbourhood
RING_NONE, RING_HIGHLIGHT, RING_SEARCH, RING_SELECTED = 0, 1, 2, 3

ObjArray = npt.NDArray[np.object_]


def alpha_level(alpha: FloatArray) -> IntArray:
    """Index of the nearest level in ALPHA_LEVELS (0 only for fully transparent)."""
    level = np.searchsorted(ALPHA_LEVELS, alpha, side="left")
    return np.clip(level, 0, ALPHA_LEVELS.size - 1).astype(np.int64)


class NodeStyle:
    def __init__(self, theme: Theme, palette: list[str] | None = None) -> None:
        colours = palette if palette is not None else [theme.node_color(t) for t in (*TYPE_NAMES, "")]
        self.brushes: ObjArray = np.empty((len(colours), ALPHA_LEVELS.size), dtype=object)
        for t, colour in enumerate(colours):
            for a, alpha in enumerate(ALPHA_LEVELS):
                self.brushes[t, a] = QBrush(qcolor(colour, float(alpha)))
        rings = [
            QPen(Qt.PenStyle.NoPen),
            theme_pen(theme, "accent", 2.0),
            theme_pen(theme, "warning", 2.0),
            theme_pen(theme, "text", 2.5),
        ]
        self.pens: ObjArray = np.empty(len(rings), dtype=object)
        for i, ring in enumerate(rings):
            self.pens[i] = ring

    def brush_array(self, type_idx: IntArray, alpha: FloatArray) -> ObjArray:
        return self.brushes[type_idx, alpha_level(alpha)]

    def pen_array(self, ring: IntArray) -> ObjArray:
        return self.pens[ring]
