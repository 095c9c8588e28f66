"""GraphCanvas: the drawing of the 2D graph — one scatter for nodes, a few edge curves, labels.

It holds the display state as arrays (positions, masks, alpha) and turns them into item data.
Positions move through a fast path that writes pyqtgraph's point arrays in place (no restyle);
styles (brushes, pens, sizes, visibility) are recomputed with numpy lookups when masks change.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QTimer
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QWidget

from ...theming import Theme
from ...theming.qt import qcolor
from ..graph_data import BoolArray, FloatArray, GraphData, IntArray
from ..graph_query import visible_edges
from ..graph_state import GraphState
from . import _style
from ._edges import EdgeLayer
from ._labels import LabelLayer
from ._mouse import GraphViewBox

HIT_SLOP_PX = 3.0


class _Nodes(pg.ScatterPlotItem):  # type: ignore[misc]
    """The node scatter leaves clicks to the ViewBox, which hit-tests with numpy."""

    def mouseClickEvent(self, ev: Any) -> None:
        ev.ignore()


class GraphCanvas(pg.GraphicsView):  # type: ignore[misc]
    def __init__(self, state: GraphState, theme: Theme, *, use_opengl: bool = False,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        if use_opengl:
            self.useOpenGL(True)
        self.vb = GraphViewBox(self)
        self.vb.setAspectLocked(True)
        self.vb.setMenuEnabled(False)
        self.setCentralItem(self.vb)
        self.edges = EdgeLayer(self.vb)
        self.scatter = _Nodes(pxMode=True, hoverable=False, tip=None)
        self.scatter.setZValue(0)
        self.vb.addItem(self.scatter)
        self.labels = LabelLayer(self.vb)
        self.pos: FloatArray = np.zeros((0, 2))
        self._label_timer = QTimer(self, singleShot=True, interval=80)
        self._label_timer.timeout.connect(self._update_labels)
        self.vb.sigRangeChanged.connect(lambda *_: self._label_timer.start())
        self.restyle(theme)

    def closeEvent(self, event: QCloseEvent) -> None:
        self._label_timer.stop()
        super().closeEvent(event)

    # state ---------------------------------------------------------------------------------
    @property
    def data(self) -> GraphData:
        return self.state.data

    def shown(self) -> BoolArray:
        return self.state.shown()

    def restyle(self, theme: Theme) -> None:
        self.theme = theme
        self.style = _style.NodeStyle(theme)
        self.setBackground(qcolor(theme.color("background")))
        self.edges.restyle(theme)
        self.labels.restyle(theme)
        self.refresh()

    def refresh(self) -> None:
        """Restyle every point from the masks (after filters, highlight, selection, fades)."""
        data, st = self.data, self.state
        if data.n == 0 or self.pos.shape[0] != data.n:
            self.scatter.setData(x=np.zeros(0), y=np.zeros(0))
            self._refresh_edges()
            self.labels.update(data, self.pos, np.zeros(0, bool), np.zeros(0, np.int64))
            return
        alpha = st.alpha * _style.TIER_ALPHA[data.tier_idx]
        ring = np.full(data.n, _style.RING_NONE, dtype=np.int64)
        size = np.rint(data.sizes)
        if st.highlight is not None:
            alpha = np.where(st.highlight, alpha, alpha * _style.DIM)
            ring[st.highlight] = _style.RING_HIGHLIGHT
            size[st.highlight] += 3
        ring[st.search] = _style.RING_SEARCH
        if 0 <= st.selected < data.n:
            ring[st.selected] = _style.RING_SELECTED
            size[st.selected] += 4
        shown = self.shown()
        self.scatter.setData(x=self.pos[:, 0], y=self.pos[:, 1], size=size,
                             brush=self.style.brush_array(data.type_idx, alpha),
                             pen=self.style.pen_array(ring))
        self.scatter.data["visible"] = shown
        self.scatter.invalidate()
        self._refresh_edges()
        self._label_timer.start()

    def move(self, pos: FloatArray) -> None:
        """New positions for the same nodes: write them in place, redraw edges, labels later."""
        self.pos = pos
        if self.scatter.data.size != pos.shape[0]:
            self.refresh()
            return
        self.scatter.data["x"] = pos[:, 0]
        self.scatter.data["y"] = pos[:, 1]
        self.scatter.prepareGeometryChange()
        self.scatter.informViewBoundsChanged()
        self.scatter.bounds = [None, None]
        self.scatter.invalidate()
        self.edges.move(pos)  # the edge groups were set by the last refresh()
        self._label_timer.start()

    def _refresh_edges(self) -> None:
        data, shown = self.data, self.shown()
        if self.pos.shape[0] != data.n:  # positions not arrived yet: no edges to draw
            shown = np.zeros(data.n, dtype=bool)
        edge_shown = visible_edges(data, shown)
        strong, highlight = None, self.state.highlight
        if highlight is not None and data.m:
            strong = highlight[data.src] & highlight[data.dst]
        self.edges.update(data, self.pos, edge_shown, strong)

    def _update_labels(self) -> None:
        st = self.state
        if self.pos.shape[0] != self.data.n:
            return
        always = np.flatnonzero(st.highlight) if st.highlight is not None else np.zeros(0, np.int64)
        if 0 <= st.selected < self.data.n:
            always = np.concatenate(([st.selected], always))
        self.labels.update(self.data, self.pos, self.shown(), always.astype(np.int64))

    # geometry ------------------------------------------------------------------------------
    def node_at(self, view_pos: QPointF) -> int:
        """Row of the shown node under a point in view coordinates, or -1."""
        if self.data.n == 0 or self.pos.shape[0] != self.data.n:
            return -1
        sx, sy = self.vb.viewPixelSize()
        dx = (self.pos[:, 0] - view_pos.x()) / sx
        dy = (self.pos[:, 1] - view_pos.y()) / sy
        dist = np.hypot(dx, dy) - (self.data.sizes / 2 + HIT_SLOP_PX)
        dist[~self.shown()] = np.inf
        row = int(np.argmin(dist))
        return row if dist[row] <= 0 else -1

    def rows_in(self, left: float, top: float, right: float, bottom: float) -> IntArray:
        x, y = self.pos[:, 0], self.pos[:, 1]
        inside = (x >= left) & (x <= right) & (y >= top) & (y <= bottom) & self.shown()
        return np.flatnonzero(inside)

    def scene_pos_of(self, row: int) -> QPointF:
        """Where a node is in scene (widget) coordinates, e.g. to click it in a test."""
        scene: QPointF = self.vb.mapViewToScene(QPointF(float(self.pos[row, 0]), float(self.pos[row, 1])))
        return scene
