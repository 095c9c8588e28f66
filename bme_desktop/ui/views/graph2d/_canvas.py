"""GraphCanvas: the drawing of the 2D graph — one scatter for nodes, a few edge curves, labels.

It holds the display state as arrays (positions, masks, alpha) and turns them into item data.
Positions move through a fast path that writes pyqtgraph's point arrays in place (no restyle);
styles (brushes, pens, sizes, visibility) are recomputed with numpy lookups when masks change.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, QTimer
from PySide6.QtGui import QCloseEvent, QShowEvent
from PySide6.QtWidgets import QWidget

from ...theming import Theme
from ...theming.qt import qcolor
from ..graph_colors import BY_COMMUNITY, COMMUNITY_COLOURS, community_palette, type_palette
from ..graph_data import BoolArray, FloatArray, GraphData, IntArray
from ..graph_query import visible_edges
from ..graph_state import GraphState
from . import _style
from ._edges import EdgeLayer
from ._labels import LabelLayer
from ._mouse import GraphViewBox

HIT_SLOP_PX = 3.0
LANE_KEY = 100_000  # label keys of the lane headings (communities are numbered from 0)


class _Nodes(pg.ScatterPlotItem):  # type: ignore[misc]
    """The node scatter leaves clicks to the ViewBox, which hit-tests with numpy."""

    def mouseClickEvent(self, ev: Any) -> None:
        ev.ignore()


class GraphCanvas(pg.GraphicsView):  # type: ignore[misc]
    def __init__(
        self, state: GraphState, theme: Theme, *, use_opengl: bool = False, parent: QWidget | None = None
    ) -> None:
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
        self.sizes: FloatArray = np.zeros(0)
        self.reserved: list[QRectF] = []  # boxes labels keep clear (the legend), in viewport pixels
        self.clustered = False  # communities drawn apart: links between two of them draw muted
        self.lane_names: list[str] | None = (
            None  # point-of-view lanes on: each lane's heading, by owner index
        )
        self._label_timer = QTimer(self, singleShot=True, interval=80)
        self._label_timer.timeout.connect(self._update_labels)
        self.vb.sigRangeChanged.connect(lambda *_: self._label_timer.start())
        self._stale = True  # points not drawn since the last change (the view was hidden)
        self.restyle(theme)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._stale:
            self.refresh()

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
        self.palettes = {BY_COMMUNITY: community_palette(theme), "type": type_palette(theme)}
        self.styles = {mode: _style.NodeStyle(theme, palette) for mode, palette in self.palettes.items()}
        self.setBackground(qcolor(theme.color("background")))
        self.edges.restyle(theme)
        self.labels.restyle(theme)
        self.refresh()

    def refresh(self) -> None:
        """Restyle every point from the masks (after filters, highlight, selection, fades). While
        the view is hidden (another central view is on screen) this waits for ``showEvent``: a
        theme switch or a burst of changes does not restyle 10k points nobody sees."""
        if not self.isVisible():
            self._stale = True
            return
        self._stale = False
        data, st = self.data, self.state
        if data.n == 0 or self.pos.shape[0] != data.n:
            self.scatter.setData(x=np.zeros(0), y=np.zeros(0))
            self._refresh_edges()
            self._label_timer.start()
            return
        alpha = st.alpha * _style.TIER_ALPHA[data.tier_idx]
        ring = np.full(data.n, _style.RING_NONE, dtype=np.int64)
        self.sizes = data.sizes
        size = np.rint(self.sizes)
        if st.near is not None:
            alpha = np.where(st.near, alpha, alpha * _style.HOVER_DIM)
            ring[st.hover] = _style.RING_HIGHLIGHT
        if st.highlight is not None:
            alpha = np.where(st.highlight, alpha, alpha * _style.DIM)
            ring[st.highlight] = _style.RING_HIGHLIGHT
            size[st.highlight] += 3
        ring[st.search] = _style.RING_SEARCH
        if 0 <= st.selected < data.n:
            ring[st.selected] = _style.RING_SELECTED
            size[st.selected] += 4
        shown = self.shown()
        style = self.styles[BY_COMMUNITY if st.color_by == BY_COMMUNITY else "type"]
        self._write_points(size, style, st.colours(), _style.alpha_level(alpha), ring, shown)
        self._refresh_edges()
        self._label_timer.start()

    def _write_points(
        self,
        size: FloatArray,
        style: _style.NodeStyle,
        colour: IntArray,
        level: IntArray,
        ring: IntArray,
        shown: BoolArray,
    ) -> None:
        """Write every point's style into the scatter in place. ``setData`` rebuilt the point
        array, mapped 10k pens and brushes through ``mkPen``/``mkBrush`` and keyed each point in
        the symbol atlas one by one (~100 ms of a theme switch, and of every hover, at 10k); here
        the atlas is asked once per distinct (size, ring, colour, alpha) and the answer spread
        with numpy. When the rows change, the new point array is made here too: ``setData`` would
        key every point in the atlas one by one with the default style first (two ``getId`` calls
        a point, ~30 ms of the GUI thread at 10k on the graph's first show)."""
        scatter, n = self.scatter, size.size
        if scatter.data.size != n:
            scatter.clear()
            points = np.empty(n, dtype=scatter.data.dtype)  # object fields None, as setData leaves them
            points["hovered"] = False
            scatter.data = points  # every other field is written below
        data = scatter.data
        data["x"], data["y"] = self.pos[:, 0], self.pos[:, 1]
        brushes, pens = style.brushes[colour, level], style.pens[ring]
        data["size"], data["pen"], data["brush"], data["visible"] = size, pens, brushes, shown
        key = ((colour * _style.ALPHA_LEVELS.size + level) * style.pens.size + ring) * 256 + np.clip(
            size, 0, 255
        ).astype(np.int64)
        _unique, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        symbol = scatter.opts["symbol"]
        coords = scatter.fragmentAtlas[[(symbol, size[r], pens[r], brushes[r]) for r in first.tolist()]]
        rects = np.empty(len(coords), dtype=data.dtype["sourceRect"])
        rects[:] = coords
        data["sourceRect"] = rects[inverse.reshape(-1)]
        scatter.updateSpots(data)  # every point keyed: only the atlas's upkeep and the spot sizes
        if (data["sourceRect"]["w"] == 0).any():
            scatter.updateSpots(data)  # the atlas was rebuilt (sprites of old themes): key them again
        scatter.prepareGeometryChange()
        scatter.informViewBoundsChanged()
        scatter.bounds = [None, None]
        scatter.invalidate()

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
        hover = self.state.hover
        if self.state.near is not None and data.m:  # only the hovered node's own links stand out
            strong = (data.src == hover) | (data.dst == hover)
        group = self.state.group
        if strong is None and self.clustered and data.m and group.size == data.n:
            strong = group[data.src] == group[data.dst]  # the web between clusters stays in the back
        self.edges.update(data, self.pos, edge_shown, strong)

    def refresh_labels(self) -> None:
        """Place the labels again soon (coalesced with other changes)."""
        self._label_timer.start()

    def _update_labels(self) -> None:
        if not self.isVisible():
            self._stale = True  # placed by the refresh when shown
            return
        st, data = self.state, self.data
        if self.pos.shape[0] != data.n or data.n == 0:
            self.labels.update(
                [], np.zeros((0, 2)), np.zeros(0, bool), np.zeros(0), np.zeros(0, np.int64), np.zeros(0), []
            )
            return
        always: list[int] = []
        if 0 <= st.selected < data.n:
            always.append(st.selected)
        if st.hover >= 0:
            always.append(st.hover)
            if st.near is not None:
                near = np.flatnonzero(st.near)
                always.extend(near[np.argsort(-self.sizes[near], kind="stable")][:12].tolist())
        if st.highlight is not None:
            lit = np.flatnonzero(st.highlight)
            always.extend(lit[np.argsort(-self.sizes[lit], kind="stable")][:20].tolist())
        shown = self.shown()
        self.labels.update(
            data.titles,
            self.pos,
            shown,
            self.sizes,
            np.array(always, np.int64),
            self.sizes,
            self._clusters(shown),
            self.reserved,
            self._lane_headings(shown),
        )

    def _lane_headings(self, shown: BoolArray) -> list[tuple[int, str, float, float, float]]:
        """(key, heading, x, top, bottom) of each point-of-view lane with a memory on screen: the
        heading goes above its column (keys from LANE_KEY, apart from the communities')."""
        names, data = self.lane_names, self.data
        if names is None or not shown.any():
            return []
        owner, pts = data.owner_idx[shown], self.pos[shown]
        out = []
        for lane in np.unique(owner).tolist():
            x, y = pts[owner == lane, 0], pts[owner == lane, 1]
            out.append(
                (
                    LANE_KEY + lane,
                    names[lane] if lane < len(names) else "",
                    float(np.median(x)),
                    float(y.max()),
                    float(y.min()),
                )
            )
        return out

    def _clusters(self, shown: BoolArray) -> list[tuple[int, str, str, float, float, float]]:
        """(community, name, colour, x, top, bottom) of the coloured communities on screen, biggest
        first: x is the middle of the community's shown members, top and bottom their extent (its
        name goes above them, else below)."""
        st = self.state
        comm = st.communities
        if st.color_by != BY_COMMUNITY or comm.count == 0 or st.group.size != shown.size:
            return []
        palette = self.palettes[BY_COMMUNITY]
        g = st.group[shown]
        pts = self.pos[shown]
        ok = g >= 0
        g, pts = g[ok], pts[ok]
        count = np.bincount(g, minlength=comm.count)
        sx = np.bincount(g, weights=pts[:, 0], minlength=comm.count)
        top, low = np.full(comm.count, -np.inf), np.full(comm.count, np.inf)
        np.maximum.at(top, g, pts[:, 1])
        np.minimum.at(low, g, pts[:, 1])
        out = []
        for c in np.argsort(-count, kind="stable").tolist():
            if count[c] < 3 or comm.loose_type[c] >= 0:
                continue
            colour = palette[c] if c < COMMUNITY_COLOURS else palette[-1]
            out.append((c, comm.names[c], colour, float(sx[c] / count[c]), float(top[c]), float(low[c])))
        return out

    # geometry ------------------------------------------------------------------------------
    def node_at(self, view_pos: QPointF) -> int:
        """Row of the shown node under a point in view coordinates, or -1."""
        if self.data.n == 0 or self.pos.shape[0] != self.data.n:
            return -1
        sx, sy = self.vb.viewPixelSize()
        dx = (self.pos[:, 0] - view_pos.x()) / sx
        dy = (self.pos[:, 1] - view_pos.y()) / sy
        sizes = self.sizes if self.sizes.size == self.data.n else self.data.sizes
        dist = np.hypot(dx, dy) - (sizes / 2 + HIT_SLOP_PX)
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
