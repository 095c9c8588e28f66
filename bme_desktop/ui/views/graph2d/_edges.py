"""Edges as a few ``connect="pairs"`` curves: one per relation colour bucket, plus two apart.

Inhibitory relations (``contradicts``) draw dashed in the conflict colour; invalidated edges
(``valid_until`` set) draw dotted and dim; edges outside an active highlight draw muted.
Each curve gets one pen, so 20k edges cost seven pens, never one per edge.

Speed (bench/render.py): every curve draws its segments with ``QPainter.drawLines`` (pyqtgraph's
``segmentedLineMode="on"``) instead of one ``QPainterPath``. A translucent path is stroked as a
whole polygon by the raster engine (several times slower than the cosmetic line stroker); lines
only blend twice where two edges cross, which does not show at these alphas. Which edges go into
which curve is worked out when the masks change (:meth:`update`); while positions stream only the
segment coordinates are rebuilt from the cached rows (:meth:`move`).
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QPen

from ...theming import Theme
from ...theming.colors import mix
from ...theming.qt import qcolor
from ..graph_data import BUCKET_NAMES, BoolArray, FloatArray, GraphData, IntArray, segments

INHIBITORY, INVALID, MUTED = "inhibitory", "invalid", "muted"
EDGE_ALPHA = 0.55  # how strongly an edge shows over the background


class EdgeLayer:
    def __init__(self, view: pg.ViewBox) -> None:
        self.curves: dict[str, pg.PlotCurveItem] = {}
        self.rows: dict[str, IntArray] = {}
        self._src: IntArray = np.zeros(0, np.int64)
        self._dst: IntArray = np.zeros(0, np.int64)
        for key in (MUTED, INVALID, *BUCKET_NAMES, INHIBITORY):
            curve = pg.PlotCurveItem(connect="pairs", skipFiniteCheck=True, antialias=False)
            curve.setSegmentedLineMode("on")
            curve.setZValue(-10)
            view.addItem(curve)
            self.curves[key] = curve
            self.rows[key] = np.zeros(0, np.int64)

    def restyle(self, theme: Theme) -> None:
        """Opaque pens in the colour each translucent edge would show over the background.

        The raster engine draws opaque cosmetic lines with plain span fills; translucent ones
        are blended pixel by pixel (measured ~10× slower for 20k long edges). Only crossings
        differ: a later edge covers an earlier one instead of adding to it.
        """
        background = theme.color("background")

        def flat(color: str, alpha: float, style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QPen:
            out = QPen(qcolor(mix(background, color, alpha)))
            out.setWidthF(1.0)
            out.setCosmetic(True)
            out.setStyle(style)
            return out

        pens = {name: flat(theme.edges[name], EDGE_ALPHA) for name in BUCKET_NAMES}
        pens[INHIBITORY] = flat(theme.edges["conflict"], 0.8, Qt.PenStyle.DashLine)
        pens[INVALID] = flat(theme.color("text_muted"), 0.3, Qt.PenStyle.DotLine)
        pens[MUTED] = flat(theme.color("border"), 0.5)
        for key, curve in self.curves.items():
            curve.setPen(pens[key])

    def update(self, data: GraphData, pos: FloatArray, shown: BoolArray, strong: BoolArray | None) -> None:
        """Regroup and redraw; ``shown`` per edge; ``strong`` per edge when a highlight is on."""
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
        self._src, self._dst = data.src, data.dst
        for key in self.curves:
            self.rows[key] = np.flatnonzero(groups[key]) if data.m else np.zeros(0, np.int64)
        self.move(pos)

    def move(self, pos: FloatArray) -> None:
        """New positions for the same nodes and groups: only the segment coordinates change."""
        for key, curve in self.curves.items():
            rows = self.rows[key]
            if rows.size == 0:
                if curve.xData is None or curve.xData.size:
                    curve.setData(x=np.zeros(0), y=np.zeros(0))
                continue
            x, y = segments(pos, self._src[rows], self._dst[rows])
            curve.setData(x=x, y=y, connect="pairs", skipFiniteCheck=True)
