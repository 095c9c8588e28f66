"""Graph2DView: the 2D memory graph page — wires the source, the layout worker and the canvas.

Public API: the one the nebula shares (:class:`GraphPage`), plus ``set_lanes``,
``set_local_depth`` and ``fit``; signal ``sigSelectionChanged(list)``.
Positions stream from a :class:`LayoutLink` (≤ 30 updates/s, stops when settled); a dragged node
is moved and pinned in the layout; point-of-view lanes shift each owner's nodes into a column.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QToolTip, QVBoxLayout, QWidget

from ...context import AppContext
from ...lifetime import subscribe
from ...theming import Theme
from ..gl_probe import opengl_available
from ..graph_data import FloatArray, IntArray
from ..graph_page import GraphPage
from ..graph_query import lane_shift
from ..graph_source import GraphSource
from ..legend import GraphLegend
from ..placement import GroupPacking, initial_positions, place_new
from ._canvas import GraphCanvas


class Graph2DView(GraphPage):
    sigSelectionChanged = Signal(list)  # ids inside a Shift+drag rubber band

    def __init__(
        self,
        context: AppContext,
        parent: QWidget | None = None,
        *,
        use_opengl: bool = False,
        source: GraphSource | None = None,
    ) -> None:
        super().__init__(context, source, 2, parent)
        # Raster by default: on Mesa llvmpipe the GL paint engine measured ~3× slower (bench/render.py).
        self.opengl = bool(use_opengl) and opengl_available()
        self.canvas = GraphCanvas(self.state, context.themes.current, use_opengl=self.opengl)
        self.base: FloatArray = np.zeros((0, 2))  # layout positions; display = base + lane shift
        self.shift: FloatArray = np.zeros((0, 2))
        self.lane: FloatArray = np.zeros((0, 2))  # the part of ``shift`` the point-of-view lanes add
        self.lanes = False
        self.packing: GroupPacking | None = None  # communities drawn as separate discs, once known
        self.follow = True  # fit the view to the graph until the user pans or zooms
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.canvas)
        self.legend = GraphLegend(self)
        self.legend.restyle(context.themes.current)
        self.legend.sigGroupClicked.connect(self.highlight_group)
        st = self.state
        st.sigReset.connect(self._reset)
        st.sigAdded.connect(self._added)
        st.sigRemoved.connect(self._removed)
        st.sigEdgesChanged.connect(self._edges_changed)
        st.sigStyleChanged.connect(self.canvas.refresh)
        st.sigStyleChanged.connect(self._update_legend)
        st.sigCommunities.connect(self._communities)
        vb = self.canvas.vb
        vb.sigNodeClicked.connect(st.select_row)
        vb.sigNodeDragged.connect(self._dragged)
        vb.sigRubberBand.connect(self._rubber_band)
        vb.sigHover.connect(self._hover)
        vb.sigRangeChangedManually.connect(self._stop_following)
        self.link.sigPositions.connect(self._positions)
        self.link.sigSettled.connect(self._settled)
        subscribe(self, context.themes.sigThemeChanged, self._restyle)
        self.wire()
        self._reset()

    # public (besides GraphPage's) ------------------------------------------------------------
    def _focused(self) -> None:
        self.fit()

    def set_local_depth(self, k: int) -> None:
        """The local graph: the selection and what lies within ``k`` steps of it (0: the whole graph)."""
        self.state.set_local_depth(k)
        self.fit()

    def set_lanes(self, on: bool) -> None:
        """Point-of-view lanes: objective memories in the middle, each owner's in a column beside,
        each column headed by whose view it is."""
        self.lanes = on
        self._show_positions()
        self.fit()

    def fit(self) -> None:
        """Show every shown node, in the part of the view the legend leaves free (beside it or
        below it, whichever shows the graph bigger), so the legend covers nothing."""
        shown = self.state.shown()
        if self.canvas.pos.shape[0] != shown.size or not shown.any():
            return
        pts = self.canvas.pos[shown]
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        pad = np.maximum((hi - lo) * 0.06, 1.0)
        lo, hi = lo - pad, hi + pad
        vb = self.canvas.vb
        width, height = float(vb.width()), float(vb.height())
        if width < 2 or height < 2:
            vb.setRange(QRectF(QPointF(*lo), QPointF(*hi)), padding=0)
            return
        span = hi - lo
        free = self.free_area(width, height, (float(span[0]), float(span[1])))
        per_px = max(span[0] / free.width(), span[1] / free.height())  # view units per pixel
        cx, cy = (lo + hi) / 2
        left = cx - free.center().x() * per_px
        top = cy + free.center().y() * per_px  # view y grows upwards
        vb.setRange(QRectF(left, top - height * per_px, width * per_px, height * per_px), padding=0)

    def free_area(self, width: float, height: float, span: tuple[float, float] = (1.0, 1.0)) -> QRectF:
        """The part of the view (pixels) beside or below the legend that shows a graph of this
        ``span`` (view units) bigger."""
        whole = QRectF(0, 0, width, height)
        if not self.legend.isVisible():
            return whole
        box = QRectF(self.legend.geometry()).adjusted(-6, -6, 6, 6)
        beside = QRectF(box.right(), 0, width - box.right(), height)
        below = QRectF(0, box.bottom(), width, height - box.bottom())
        usable = [r for r in (beside, below) if r.width() > 40 and r.height() > 40]
        if not usable:
            return whole
        return max(usable, key=lambda r: min(r.width() / max(span[0], 1e-9), r.height() / max(span[1], 1e-9)))

    # structure -----------------------------------------------------------------------------
    def _reset(self) -> None:
        data = self.state.data
        self.base = initial_positions(data.n)
        self._arranged = False  # communities not placed yet for this load
        self.packing = None
        self.follow = True
        self.link.reset(data.edge_pairs(), self.base)
        self._show_positions()
        self.fit()

    def _communities(self) -> None:
        """Lay communities out as clusters: moved apart once per load (super-nodes first), then
        each node pulled toward its community's centre while the layout runs."""
        groups = self.state.group
        if groups.shape[0] != self.state.data.n or self.state.communities.count < 2:
            self.packing = None
            return
        self.link.set_groups(groups, arrange=not self._arranged)
        self._arranged = True
        self.packing = GroupPacking(groups)
        self._show_positions()
        if self.follow:
            self.fit()

    def _added(self, rows: IntArray) -> None:
        data = self.state.data
        new = place_new(self.base, data, rows)
        self.base = np.concatenate((self.base, new))
        self.link.add_nodes(new, np.zeros((0, 2), np.int64))
        self._repack()
        self._show_positions()

    def _removed(self, remap: IntArray) -> None:
        self.link.remove_nodes(np.flatnonzero(remap < 0))
        self.base = self.base[remap >= 0]
        self._repack()
        self._show_positions()

    def _repack(self) -> None:
        """Rows came or went: the discs follow (new rows wait in the ungrouped one until the
        communities are found again), so the picture does not fall back to one disc meanwhile."""
        if self.packing is not None:
            group = self.state.group
            self.packing = GroupPacking(group) if group.shape[0] == self.state.data.n else None

    def _edges_changed(self) -> None:
        self.link.set_edges(self.state.data.edge_pairs())
        self.canvas.refresh()

    # positions -----------------------------------------------------------------------------
    def _positions(self) -> None:
        pos = self.link.take()
        if pos is not None and pos.shape[0] == self.state.data.n:
            self.base = pos
            self._show_positions(move_only=True)
            if self.follow:
                self.fit()

    def _show_positions(self, move_only: bool = False) -> None:
        data = self.state.data
        packed = self.packing is not None and self.packing.fits(data.n)
        shown = self.packing.apply(self.base) if packed else self.base  # type: ignore[union-attr]
        # lanes shift the communities as drawn apart (the raw layout is one dense core)
        self.lane = (
            lane_shift(shown, data.owner_idx, len(data.owners.names))
            if self.lanes
            else np.zeros_like(self.base)
        )
        self.shift = shown + self.lane - self.base
        clustered = self.packing is not None and not self.lanes
        self.canvas.lane_names = self._lane_names() if self.lanes else None
        if clustered != self.canvas.clustered:
            self.canvas.clustered = clustered
            move_only = False  # the links' muting changes
        if move_only:
            self.canvas.move(self.base + self.shift)
        else:
            self.canvas.pos = self.base + self.shift
            self.canvas.refresh()

    def _lane_names(self) -> list[str]:
        owners = self.state.data.owners.names
        return [
            self.tr("Objective") if not owner else self.tr("{0}'s view").format(owner) for owner in owners
        ]

    def _settled(self) -> None:
        if self.follow:
            self.fit()

    def _stop_following(self) -> None:
        self.follow = False

    # mouse ---------------------------------------------------------------------------------
    def _dragged(self, row: int, where: QPointF, finished: bool) -> None:
        if row >= self.base.shape[0]:
            return
        self.follow = False
        self.base = self.base.copy()
        if self.packing is not None and self.packing.fits(self.base.shape[0]):
            lane = self.lane[row] if row < self.lane.shape[0] else (0.0, 0.0)
            self.base[row] = self.packing.to_layout(row, where.x() - lane[0], where.y() - lane[1])
            self.shift[row] = (where.x() - self.base[row, 0], where.y() - self.base[row, 1])
        else:
            self.base[row] = (where.x() - self.shift[row, 0], where.y() - self.shift[row, 1])
        self.canvas.move(self.base + self.shift)
        self.link.move([row], self.base[row : row + 1], pin=True)

    def _rubber_band(self, rect: QRectF) -> None:
        rows = self.canvas.rows_in(rect.left(), rect.top(), rect.right(), rect.bottom())
        ids = [self.state.data.ids[r] for r in rows.tolist()]
        self.state.set_highlight(ids or None)
        self.sigSelectionChanged.emit(ids)

    def _hover(self, row: int, screen: QPointF) -> None:
        self.state.set_hover(row)
        if row < 0:
            QToolTip.hideText()
        else:
            QToolTip.showText(screen.toPoint(), self.state.tooltip(row), self.canvas)

    # legend and communities ----------------------------------------------------------------
    def _restyle(self, theme: Theme) -> None:
        self.canvas.restyle(theme)
        self.legend.restyle(theme)
        self._update_legend()

    def _update_legend(self) -> None:
        self.legend.follow(self.state, self.canvas.theme)
        reserved = [QRectF(self.legend.geometry()).adjusted(-4, -4, 4, 4)] if self.legend.isVisible() else []
        if reserved != self.canvas.reserved:
            self.canvas.reserved = reserved
            self.canvas.refresh_labels()
            if self.follow:
                self.fit()

    # lifetime ------------------------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:
        self.link.close()
        super().closeEvent(event)
