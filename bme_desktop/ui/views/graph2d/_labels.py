"""Labels of the 2D graph: cluster names when zoomed out, node titles as you zoom in.

Which labels: first the ones that must show (the selection, the hovered node and its
neighbours, a highlight), then the names of the biggest communities in view (at the centroid
of their shown members, while the view holds more nodes than ``NODE_LABELS_BELOW``), then the
titles of the most prominent nodes in view (importance and links), as many as the zoom allows.
Where: each label tries a few spots around its anchor (below, above, right, left) and takes the
first whose box, in screen pixels, lies wholly inside the view and misses every label placed
before it — so two labels never overlap and none is cut at the edge; a label with no free spot
is not drawn. Sizes come from the font's metrics, not a guess.

A small pool of TextItems is reused; items are placed by their top-left corner in view
coordinates (they do not scale with zoom).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtGui import QFont, QFontMetricsF

from ...theming import Theme
from ...theming.qt import qcolor
from ..graph_data import BoolArray, FloatArray, IntArray
from ..graph_query import top_n

MAX_LABELS = 40  # node titles at most
MAX_CLUSTER_LABELS = 16
NODE_LABELS_BELOW = 600  # more nodes in view than this: cluster names, and only the hubs' titles
MAX_CHARS = 28
PAD = 3.0  # px around a label's text, and its gap to the node
EDGE_MARGIN = 2.0  # px a label keeps from the view's border
LABEL_GAP = 3.0  # px kept free between two labels (boxes that merely touch read as one label)


@dataclass(frozen=True)
class Candidate:
    text: str
    x: float  # anchor in view coordinates (a cluster name: the top middle of its cluster)
    y: float
    radius: float  # px: the node's radius (0 for a cluster centroid)
    cluster: int = -1  # community index for a cluster name, -1 for a node title
    row: int = -1
    low: float = 0.0  # a cluster name: the bottom of its cluster (view y)


def shorten(text: str, limit: int = MAX_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def place(
    candidates: list[Candidate],
    sizes: list[tuple[float, float]],
    to_screen: tuple[float, float, float, float],
    width: float,
    height: float,
    limit: int,
    reserved: list[QRectF] | None = None,
    must: int = 0,
) -> list[tuple[int, QRectF]]:
    """Greedy placement: (candidate index, screen box) for those that fit, in candidate order.

    ``to_screen`` is (x0, sx, y0, sy): screen x = (x - x0) / sx, screen y = (y0 - y) / sy.
    ``reserved`` boxes (the legend) are kept free. A text already shown is not repeated (five
    facts titled "Wren" show one "Wren"), except for the first ``must`` candidates.
    """
    x0, sx, y0, sy = to_screen
    bounds = QRectF(EDGE_MARGIN, EDGE_MARGIN, width - 2 * EDGE_MARGIN, height - 2 * EDGE_MARGIN)
    kept: list[tuple[int, QRectF]] = []
    blocked = list(reserved or [])
    texts: set[str] = set()
    for i, (c, (w, h)) in enumerate(zip(candidates, sizes, strict=True)):
        if len(kept) >= limit:
            break
        if i >= must and c.text.casefold() in texts:
            continue
        px, py = (c.x - x0) / sx, (y0 - c.y) / sy
        gap = c.radius + PAD
        if c.cluster >= 0 and c.row < 0:  # above its cluster, else below it, else over its middle
            bottom = (y0 - c.low) / sy
            spots: tuple[tuple[float, float], ...] = (
                (px - w / 2, py - h - PAD),
                (px - w / 2, bottom + PAD),
                (px - w / 2, (py + bottom - h) / 2),
            )
        else:
            spots = (
                (px - w / 2, py + gap),
                (px - w / 2, py - gap - h),
                (px + gap, py - h / 2),
                (px - gap - w, py - h / 2),
            )
        for left, top in spots:
            box = QRectF(left, top, w, h)
            spaced = box.adjusted(-LABEL_GAP, -LABEL_GAP, LABEL_GAP, LABEL_GAP)
            if (
                bounds.contains(box)
                and not any(spaced.intersects(b) for _j, b in kept)
                and not any(box.intersects(b) for b in blocked)
            ):
                kept.append((i, box))
                texts.add(c.text.casefold())
                break
    return kept


class LabelLayer:
    def __init__(self, view: pg.ViewBox) -> None:
        self.view = view
        self.node_font = QFont()
        self.cluster_font = QFont()
        self.cluster_font.setBold(True)
        self.cluster_font.setPointSizeF(self.node_font.pointSizeF() * 1.15)
        self.items: list[pg.TextItem] = []
        for _ in range(MAX_LABELS + MAX_CLUSTER_LABELS):
            item = pg.TextItem(anchor=(0, 0))
            item.textItem.document().setDocumentMargin(PAD)
            item.setZValue(20)
            item.hide()
            view.addItem(item, ignoreBounds=True)
            self.items.append(item)
        self.rows: IntArray = np.zeros(0, np.int64)  # node rows labelled
        self.clusters: list[int] = []  # communities named
        self.boxes: list[QRectF] = []  # screen boxes of the labels shown (for tests)
        self._colours: list[str] = []
        self._text = "#ffffff"
        self._fill = pg.mkBrush(0, 0, 0, 150)

    def restyle(self, theme: Theme) -> None:
        self._text = theme.color("text")
        self._fill = pg.mkBrush(qcolor(theme.color("background"), 0.72))
        for item in self.items:
            item.fill = self._fill

    def update(
        self,
        titles: list[str],
        pos: FloatArray,
        shown: BoolArray,
        prominence: FloatArray,
        always: IntArray,
        sizes: FloatArray,
        clusters: list[tuple[int, str, str, float, float, float]],
        reserved: list[QRectF] | None = None,
        headings: list[tuple[int, str, float, float, float]] | None = None,
    ) -> None:
        """``clusters``: (community, name, colour, x, top, bottom) of the communities worth naming,
        biggest first. ``headings``: (key, name, x, top, bottom) of groups named at any zoom before
        anything else, above them (the point-of-view lanes); ``key`` >= 0 and unlike any community."""
        rect = self.view.viewRect()
        width, height = self.view.width(), self.view.height()
        if width <= 1 or height <= 1 or rect.width() <= 0 or rect.height() <= 0 or pos.shape[0] != shown.size:
            self._show([], [], [])
            return
        in_view = (
            shown
            & (pos[:, 0] >= rect.left())
            & (pos[:, 0] <= rect.right())
            & (pos[:, 1] >= rect.top())
            & (pos[:, 1] <= rect.bottom())
        )
        count = int(in_view.sum())
        candidates: list[Candidate] = []
        for key, name, x, y, low in headings or ():
            if rect.left() <= x <= rect.right():
                candidates.append(
                    Candidate(shorten(name, 36), x, min(y, rect.bottom()), 0.0, cluster=key, low=low)
                )
        for row in always.tolist():
            if in_view[row]:
                candidates.append(
                    Candidate(shorten(titles[row]), pos[row, 0], pos[row, 1], sizes[row] / 2, row=row)
                )
        must = len(candidates)
        crowded = count > NODE_LABELS_BELOW
        if crowded:
            for g, name, _colour, x, y, low in clusters[:MAX_CLUSTER_LABELS]:
                if rect.contains(x, y) or rect.contains(x, low):
                    candidates.append(Candidate(shorten(name, 36), x, y, 0.0, cluster=g, low=low))
            budget = max(4, int(MAX_LABELS * NODE_LABELS_BELOW / max(count, 1)) // 2)
        else:
            budget = MAX_LABELS * 3
        for row in top_n(prominence, in_view, budget).tolist():
            candidates.append(
                Candidate(shorten(titles[row]), pos[row, 0], pos[row, 1], sizes[row] / 2, row=row)
            )
        seen: set[tuple[int, int]] = set()
        unique = []
        for c in candidates:
            if (c.row, c.cluster) not in seen:
                seen.add((c.row, c.cluster))
                unique.append(c)
        node_metrics, cluster_metrics = QFontMetricsF(self.node_font), QFontMetricsF(self.cluster_font)
        sizes_px = []
        for c in unique:
            fm = cluster_metrics if c.cluster >= 0 else node_metrics
            sizes_px.append((fm.horizontalAdvance(c.text) + 2 * PAD + 2, fm.height() + 2 * PAD + 1))
        sx, sy = rect.width() / width, rect.height() / height
        must = len({c.row for c in candidates[:must]})
        kept = place(
            unique,
            sizes_px,
            (rect.left(), sx, rect.bottom(), sy),
            width,
            height,
            MAX_LABELS + MAX_CLUSTER_LABELS,
            reserved,
            must,
        )
        colours = {g: colour for g, _n, colour, _x, _y, _low in clusters}
        shown_labels = [(unique[i], box) for i, box in kept]
        self._show(
            shown_labels,
            [colours.get(c.cluster, self._text) for c, _b in shown_labels],
            [(rect.left(), sx, rect.bottom(), sy)],
        )

    def _show(
        self,
        labels: list[tuple[Candidate, QRectF]],
        colours: list[str],
        transform: list[tuple[float, float, float, float]],
    ) -> None:
        self.boxes = [box for _c, box in labels]
        self.rows = np.array([c.row for c, _b in labels if c.row >= 0], dtype=np.int64)
        self.clusters = [c.cluster for c, _b in labels if c.row < 0]
        for item, (c, box), colour in zip(self.items, labels, colours, strict=False):
            x0, sx, y0, sy = transform[0]
            item.setFont(self.cluster_font if c.row < 0 else self.node_font)
            item.setColor(qcolor(colour if c.row < 0 else self._text))
            item.setText(c.text)
            item.setPos(x0 + box.left() * sx, y0 - box.top() * sy)
            item.show()
        for item in self.items[len(labels) :]:
            item.hide()
