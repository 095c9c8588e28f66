"""Edges as a few ``connect="pairs"`` curves: one per relation colour bucket, plus two apart.

Inhibitory relations (``contradicts``) draw dashed in the conflict colour; invalidated edges
(``valid_until`` set) draw dotted and dim; edges outside an active highlight draw muted.
Each curve gets one pen, so 20k edges cost seven pens, never one per edge.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QPen

from ...theming import Theme
from ...theming.plot import edge_pens
from ...theming.plot import pen as theme_pen
from ..graph_data import BUCKET_NAMES, BoolArray, FloatArray, GraphData, segments

INHIBITORY, INVALID, MUTED = "inhibitory", "invalid", "muted"


class EdgeLayer:
    def __init__(self, view: pg.ViewBox) -> None:
        self.curves: dict[str, pg.PlotCurveItem] = {}
        for key in (MUTED, INVALID, *BUCKET_NAMES, INHIBITORY):
            curve = pg.PlotCurveItem(connect="pairs", skipFiniteCheck=True, antialias=False)
            curve.setZValue(-10)
            view.addItem(curve)
            self.curves[key] = curve

    def restyle(self, theme: Theme) -> None:
        pens: dict[str, QPen] = dict(edge_pens(theme, width=1.0, alpha=0.55))
        inhibitory = QPen(pens["conflict"])
        inhibitory.setStyle(Qt.PenStyle.DashLine)
        inhibitory.setWidthF(1.4)
        pens[INHIBITORY] = inhibitory
        invalid = theme_pen(theme, "text_muted", 1.0, 0.3)
        invalid.setStyle(Qt.PenStyle.DotLine)
        pens[INVALID] = invalid
        pens[MUTED] = theme_pen(theme, "border", 1.0, 0.5)
        for key, curve in self.curves.items():
            curve.setPen(pens[key])

    def update(self, data: GraphData, pos: FloatArray, shown: BoolArray, strong: BoolArray | None) -> None:
        """Redraw from positions; ``shown`` per edge; ``strong`` per edge when a highlight is on."""
        groups: dict[str, BoolArray] = {}
        live = shown & ~data.invalid
        muted = np.zeros_like(shown) if strong is None else live & ~strong
        live &= ~muted
        groups[MUTED] = muted
        groups[INVALID] = shown & data.invalid
        groups[INHIBITORY] = live & data.inhibitory
        live &= ~data.inhibitory
        for b, name in enumerate(BUCKET_NAMES):
            groups[name] = live & (data.bucket == b)
        for key, curve in self.curves.items():
            rows = np.flatnonzero(groups[key]) if data.m else np.zeros(0, np.int64)
            if rows.size == 0:
                curve.setData(x=np.zeros(0), y=np.zeros(0))
                continue
            x, y = segments(pos, data.src[rows], data.dst[rows])
            curve.setData(x=x, y=y, connect="pairs", skipFiniteCheck=True)
