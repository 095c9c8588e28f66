"""NebulaView: memories as glowing sprites, one cloud per type on a sphere, slowly turning.

Same API as the 2D view (:class:`GraphPage`), plus ``set_rotating``. Short-term memories glow dimmer, dormant
and archived ones
are hidden; size follows importance. Left-drag rotates (auto-rotation pauses while the mouse
is down), wheel zooms, a click picks the nearest sprite on screen. Without OpenGL the page
shows a placeholder message instead.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph.opengl as gl
from PySide6.QtCore import QPoint, QPointF, Qt, QTimer, Signal
from PySide6.QtGui import QHideEvent, QMouseEvent, QShowEvent
from PySide6.QtWidgets import QLabel, QToolTip, QVBoxLayout, QWidget

from ...context import AppContext
from ...lifetime import subscribe
from ...theming import Theme
from ...theming.colors import mix, rgba, to_rgb
from ...theming.qt import gl_clear_color
from ..gl_probe import opengl_problem, placeholder, placeholder_text
from ..graph_colors import BY_COMMUNITY, COMMUNITY_COLOURS, community_palette, type_palette
from ..graph_data import TYPE_NAMES, FloatArray, IntArray
from ..graph_page import GraphPage
from ..graph_source import GraphSource
from ..legend import GraphLegend
from ..placement import initial_positions, place_new
from ._geometry import clustered, depth_of, name_spots, pick, project
from ._scene import NebulaScene
from ._sprites import LinkLines

TIER_GLOW = np.array([0.5, 1.0, 0.0, 0.0, 1.0], dtype=np.float32)  # short, long, dormant, archived, ?
ROTATE_DEG = 0.15  # per 33 ms tick
CLICK_SLOP_PX = 4.0


HOVER_MS = 60
LABEL_CHARS = 40
CLOUD_NAME_CHARS = 30  # a cloud's name is shorter than a memory's: a dozen float at once


class _GLView(gl.GLViewWidget):  # type: ignore[misc]
    sigClicked = Signal(float, float)
    sigDragging = Signal(bool)
    sigHover = Signal(float, float)  # mouse position with no button down (-1, -1: left)
    shift = (0.0, 0.0)  # px the picture is moved right and down (to clear the legend)

    def shifted_region(self, w: float, h: float) -> tuple[float, float, float, float]:
        """The frustum's region for a (w, h) viewport: an off-centre window, so the scene's centre
        shows ``shift`` px right and down while it still turns about its own centre."""
        dx, dy = self.shift
        scale = w / max(self.width(), 1)  # device pixels per logical pixel
        return (-dx * scale, dy * scale, w, h)

    def paintGL(self) -> None:
        x, y, w, h = self.getViewport()
        rx, ry, _w, _h = self.shifted_region(w, h)
        self.paint(region=(x + rx, y + ry, w, h), viewport=(x, y, w, h))

    def mouseMoveEvent(self, ev: QMouseEvent) -> None:
        if ev.buttons() == Qt.MouseButton.NoButton:
            self.sigHover.emit(ev.position().x(), ev.position().y())
        super().mouseMoveEvent(ev)

    def leaveEvent(self, ev: Any) -> None:
        self.sigHover.emit(-1.0, -1.0)
        super().leaveEvent(ev)

    def mousePressEvent(self, ev: QMouseEvent) -> None:
        self._down: QPointF | None = ev.position()
        self.sigDragging.emit(True)
        super().mousePressEvent(ev)

    def mouseReleaseEvent(self, ev: QMouseEvent) -> None:
        down: QPointF | None = getattr(self, "_down", None)
        if down is not None and (ev.position() - down).manhattanLength() <= CLICK_SLOP_PX:
            self.sigClicked.emit(ev.position().x(), ev.position().y())
        self._down = None
        self.sigDragging.emit(False)
        super().mouseReleaseEvent(ev)


class NebulaView(GraphPage):
    def __init__(
        self,
        context: AppContext,
        parent: QWidget | None = None,
        *,
        source: GraphSource | None = None,
        rotate: bool = True,
    ) -> None:
        super().__init__(context, source, 3, parent)
        self.problem = opengl_problem()
        self.live = not self.problem
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        self.base: FloatArray = np.zeros((0, 3))
        self.points: FloatArray = np.zeros((0, 3))
        self.sizes = np.zeros(0, dtype=np.float32)
        self.placeholder: QLabel | None = None
        if self.problem:
            self.placeholder = placeholder(self.tr("The memory nebula"), self)
            box.addWidget(self.placeholder)
            self.glview: Any = None
            return
        self.glview = _GLView()
        self.glview.setMouseTracking(True)
        self.glview.setCameraPosition(distance=34.0, elevation=20.0, azimuth=35.0)
        self.scene = NebulaScene(self.glview)
        # the links of the selection and of the hovered memory (others would be a hairball)
        self.links = LinkLines(
            pos=np.zeros((0, 3), np.float32),
            mode="lines",
            width=1.0,
            antialias=False,
            glOptions="translucent",
        )  # wide or smooth lines are invalid in core GL
        self.links.setVisible(False)  # (pyqtgraph cannot draw an empty line item)
        self.glview.addItem(self.links)
        self.link_rows: IntArray = np.zeros(0, np.int64)
        box.addWidget(self.glview)
        self.legend = GraphLegend(self)
        self.legend.sigGroupClicked.connect(self.highlight_group)
        # names over the selection and the hovered memory, kept on their sprites as the nebula turns
        self.tags = {key: self._tag() for key in ("selected", "hover")}
        self.cluster_tags = [self._tag() for _ in range(COMMUNITY_COLOURS)]  # names over the clouds
        self.cloud: IntArray = np.zeros(0, np.int64)
        self._hover_at = (-1.0, -1.0)
        self._hover_timer = QTimer(self, singleShot=True, interval=HOVER_MS)
        self._hover_timer.timeout.connect(self._hover_now)
        self.rotating = rotate
        self._dragging = False
        self._timer = QTimer(self, interval=33)
        self._timer.timeout.connect(self._turn)
        st = self.state
        st.sigReset.connect(self._reset)
        st.sigAdded.connect(self._added)
        st.sigRemoved.connect(self._removed)
        st.sigEdgesChanged.connect(lambda: self.link.set_edges(st.data.edge_pairs()))
        st.sigStyleChanged.connect(self._restyle)
        st.sigCommunities.connect(self._place)
        self.glview.sigClicked.connect(self._clicked)
        self.glview.sigDragging.connect(self._set_dragging)
        self.glview.sigHover.connect(self._hovered)
        self.link.sigPositions.connect(self._positions)
        subscribe(self, context.themes.sigThemeChanged, self.set_theme)
        self.wire()
        self.set_theme(context.themes.current)
        self._reset()

    def retranslate(self) -> None:
        if self.placeholder is not None:
            self.problem = opengl_problem()
            self.placeholder.setText(placeholder_text(self.tr("The memory nebula")))

    # public (besides GraphPage's) ------------------------------------------------------------
    def _colouring_changed(self) -> None:
        if self.glview is not None:
            self._place()

    def set_rotating(self, on: bool) -> None:
        self.rotating = on

    def set_theme(self, theme: Theme) -> None:
        if self.glview is None:
            return
        self.theme = theme
        self.glview.setBackgroundColor(tuple(round(c * 255) for c in gl_clear_color(theme)))
        self._palettes = {
            mode: np.array([to_rgb(c) for c in palette], dtype=np.float32) / 255.0
            for mode, palette in ((BY_COMMUNITY, community_palette(theme)), ("type", type_palette(theme)))
        }
        self._rgb = self._palettes["type"]
        self.legend.restyle(theme)
        for tag in self.cluster_tags:
            tag.setStyleSheet(
                f"background: {rgba(theme.color('background'), 0.55)}; color: {theme.color('text')};"
                " border-radius: 3px; padding: 1px 4px; font-weight: 600;"
            )
        for tag in self.tags.values():
            tag.setStyleSheet(
                f"background: {rgba(theme.color('background'), 0.75)}; color: {theme.color('text')};"
                f" border: 1px solid {theme.color('border')}; border-radius: 3px; padding: 1px 4px;"
            )
        self._selected_rgb = (
            np.array(to_rgb(mix(theme.node_color("event"), theme.color("text"), 0.8)), dtype=np.float32)
            / 255.0
        )
        self._restyle()

    def screen_pos_of(self, row: int) -> QPointF:
        """Where a node's sprite centre is in widget pixels (for tests and tooltips)."""
        screen, _front = project(
            self.points[row : row + 1], self._mvp(), self.glview.width(), self.glview.height()
        )
        return QPointF(float(screen[0, 0]), float(screen[0, 1]))

    # structure -----------------------------------------------------------------------------
    def _reset(self) -> None:
        data = self.state.data
        self.base = initial_positions(data.n, dim=3)
        self.link.reset(data.edge_pairs(), self.base)
        self._place()

    def _added(self, rows: IntArray) -> None:
        new = place_new(self.base, self.state.data, rows)
        self.base = np.concatenate((self.base, new))
        self.link.add_nodes(new, np.zeros((0, 2), np.int64))
        self._place()

    def _removed(self, remap: IntArray) -> None:
        self.link.remove_nodes(np.flatnonzero(remap < 0))
        self.base = self.base[remap >= 0]
        self._place()

    def _positions(self) -> None:
        pos = self.link.take()
        if pos is not None and pos.shape[0] == self.state.data.n:
            self.base = pos
            self._place(restyle=False)

    def _place(self, restyle: bool = True) -> None:
        data, st = self.state.data, self.state
        if st.color_by == BY_COMMUNITY and st.group.size == data.n:
            # one cloud per colour: the coloured communities, the rest together
            self.cloud = st.colours()
            self.points = clustered(self.base, self.cloud, COMMUNITY_COLOURS + 1)
        else:
            self.cloud = data.type_idx
            self.points = clustered(self.base, data.type_idx, len(TYPE_NAMES) + 1)
        if restyle or self.sizes.size != data.n:
            self._restyle()
        else:
            self.scene.move(self.points)
            self._draw_links()
            self._place_tags()

    def _restyle(self) -> None:
        if self.glview is None or not hasattr(self, "_rgb"):
            return
        data, st = self.state.data, self.state
        if self.points.shape[0] != data.n:
            return
        alpha = TIER_GLOW[data.tier_idx] * st.alpha.astype(np.float32) * st.shown()
        palette = self._palettes[BY_COMMUNITY if st.color_by == BY_COMMUNITY else "type"]
        rgb = palette[st.colours()].copy()
        crowd = float(np.clip(np.sqrt(3000.0 / max(data.n, 1)), 0.35, 1.0))  # smaller glows when many
        size = (5.0 + 2.2 * data.importance.astype(np.float32)) * 2.4 * crowd
        must = st.search.copy()
        if st.highlight is not None:
            alpha = np.where(st.highlight, alpha, alpha * 0.2)
            size[st.highlight] *= 1.4
            must |= st.highlight
        size[st.search] *= 1.5
        if 0 <= st.selected < data.n:
            rgb[st.selected] = self._selected_rgb
            size[st.selected] *= 1.8
            must[st.selected] = True
        self.link_rows = self._focus_links()
        ends = np.concatenate((data.src[self.link_rows], data.dst[self.link_rows]))
        must[ends] = True  # the selection's neighbours are drawn as glows, so they can be seen and picked
        if st.near is not None:  # hover: the node and its neighbours stay, the rest fades
            alpha = np.where(st.near, alpha, alpha * 0.15)
            must |= st.near
        size[alpha <= 0.0] = 0.0
        self.sizes = size.astype(np.float32)
        self.scene.show(self.points, rgb, alpha.astype(np.float32), self.sizes, must)
        self.legend.follow(st, self.theme)
        self._clear_legend()
        self._draw_links()
        self._place_tags()

    def _clear_legend(self) -> None:
        """Move the picture's centre to the middle of the part of the view below the legend, so
        the legend covers as little of the clouds as it can (the nebula turns about that centre)."""
        below = self.legend.geometry().bottom() + 6 if self.legend.isVisible() else 0
        shift = (0.0, below / 2.0)
        if shift != self.glview.shift:
            self.glview.shift = shift
            self.glview.update()

    def _focus_links(self) -> IntArray:
        st, data = self.state, self.state.data
        if data.m == 0:
            return np.zeros(0, np.int64)
        touch = np.zeros(data.m, dtype=bool)
        for row in (st.selected, st.hover):
            if 0 <= row < data.n:
                touch |= (data.src == row) | (data.dst == row)
        shown = st.shown()
        return np.flatnonzero(touch & shown[data.src] & shown[data.dst])

    def _draw_links(self) -> None:
        data = self.state.data
        if self.link_rows.size == 0 or self.points.shape[0] != data.n:
            self.links.setVisible(False)
            return
        pos = np.empty((2 * self.link_rows.size, 3), np.float32)
        pos[0::2] = self.points[data.src[self.link_rows]]
        pos[1::2] = self.points[data.dst[self.link_rows]]
        r, g, b = (c / 255.0 for c in to_rgb(self.theme.color("text")))
        self.links.setData(pos=pos, color=(r, g, b, 0.55))
        self.links.setVisible(True)

    # names over sprites --------------------------------------------------------------------
    def _tag(self) -> QLabel:
        tag = QLabel(self)
        tag.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents, True)
        tag.hide()
        return tag

    def _place_cluster_tags(self) -> None:
        """Each coloured community's name over its own cloud, the clouds nearest the camera first;
        a name that would float over another cloud or touch another name is left out."""
        st, data = self.state, self.state.data
        comm = st.communities
        tags: list[QLabel] = []
        if st.color_by == BY_COMMUNITY and self.cloud.size == data.n == self.points.shape[0] and data.n:
            shown = st.shown()
            k = COMMUNITY_COLOURS + 1
            count = np.bincount(self.cloud[shown], minlength=k).astype(np.float64)
            centres = (
                np.stack(
                    [
                        np.bincount(self.cloud[shown], weights=self.points[shown, d], minlength=k)
                        for d in range(3)
                    ],
                    axis=1,
                )
                / np.maximum(count, 1.0)[:, None]
            )
            present = np.flatnonzero(count > 0)
            mvp = self._mvp()
            at, _front = project(centres[present], mvp, self.glview.width(), self.glview.height())
            depth = depth_of(centres[present], mvp)
            named = np.zeros(present.size, dtype=bool)
            sizes = np.zeros((present.size, 2), dtype=np.int64)
            for i, g in enumerate(present):
                if g >= min(comm.count, COMMUNITY_COLOURS) or comm.loose_type[g] >= 0 or count[g] < 3:
                    continue
                tag = self.cluster_tags[len(tags)]
                name = comm.names[g]
                tag.setText(
                    name if len(name) <= CLOUD_NAME_CHARS else name[: CLOUD_NAME_CHARS - 1].rstrip() + "…"
                )
                tag.adjustSize()
                tag.setProperty("group", int(g))
                tags.append(tag)
                named[i] = True
                sizes[i] = (tag.width(), tag.height())
            blocked = [
                (w.x(), w.y(), w.width(), w.height())
                for w in (self.legend, *self.tags.values())
                if w.isVisible()
            ]  # the legend and the selected and hovered memories' names
            spots = name_spots(at, depth, named, sizes, blocked, self.width(), self.height())
            for tag, spot in zip(tags, (s for s, on in zip(spots, named, strict=True) if on), strict=True):
                if spot is None:  # no free place over its own cloud: better unnamed than misplaced
                    tag.hide()
                else:
                    tag.move(*spot)
                    tag.show()
        for tag in self.cluster_tags[len(tags) :]:
            tag.hide()

    def _place_tags(self) -> None:
        """The selection's and the hovered memory's names first, then the clouds' names around them."""
        st, data = self.state, self.state.data
        rows = {"selected": st.selected, "hover": st.hover if st.hover != st.selected else -1}
        for key, row in rows.items():
            tag = self.tags[key]
            if not 0 <= row < data.n or self.points.shape[0] != data.n or self.sizes[row] <= 0:
                tag.hide()
                continue
            title = data.titles[row]
            tag.setText(title if len(title) <= LABEL_CHARS else title[: LABEL_CHARS - 1] + "…")
            tag.adjustSize()
            at = self.screen_pos_of(row)
            x = int(min(max(at.x() - tag.width() / 2, 2), self.width() - tag.width() - 2))
            y = int(at.y() + self.sizes[row] * 0.3 + 4)
            if y + tag.height() > self.height() - 2:
                y = int(at.y() - self.sizes[row] * 0.3 - 4 - tag.height())
            tag.move(x, max(2, y))
            tag.show()
            tag.raise_()
        self._place_cluster_tags()

    def _hovered(self, x: float, y: float) -> None:
        self._hover_at = (x, y)
        self._hover_timer.start()

    def _hover_now(self) -> None:
        x, y = self._hover_at
        row = self.node_at(x, y) if x >= 0 else -1
        if row == self.state.hover:
            return
        self.state.set_hover(row)
        if row < 0:
            QToolTip.hideText()
        else:
            QToolTip.showText(
                self.glview.mapToGlobal(QPoint(int(x), int(y))), self.state.tooltip(row), self.glview
            )

    # mouse and motion ----------------------------------------------------------------------
    def _mvp(self) -> FloatArray:
        w, h = self.glview.width(), self.glview.height()
        m = (
            self.glview.projectionMatrix(self.glview.shifted_region(w, h), (0, 0, w, h))
            * self.glview.viewMatrix()
        )
        return np.array(m.data(), dtype=np.float64).reshape(4, 4).T

    def node_at(self, x: float, y: float) -> int:
        if self.points.shape[0] == 0 or self.sizes.size != self.points.shape[0]:
            return -1
        drawn = self.scene.drawn_size  # what is on screen: thinned-out dust cannot be clicked
        if drawn.size != self.points.shape[0]:
            return -1
        screen, front = project(self.points, self._mvp(), self.glview.width(), self.glview.height())
        return pick(screen, front & (drawn > 0), x, y, (drawn * 0.25 + CLICK_SLOP_PX).astype(np.float64))

    def _clicked(self, x: float, y: float) -> None:
        self.state.select_row(self.node_at(x, y))

    def _set_dragging(self, dragging: bool) -> None:
        self._dragging = dragging

    def _turn(self) -> None:
        if self.rotating and not self._dragging:
            self.glview.orbit(ROTATE_DEG, 0.0)
            self._place_tags()

    def showEvent(self, event: QShowEvent) -> None:
        if self.glview is not None:
            self._timer.start()
        super().showEvent(event)

    def hideEvent(self, event: QHideEvent) -> None:
        if self.glview is not None:
            self._timer.stop()
        super().hideEvent(event)
