"""Labels for the most important nodes in view, only when zoomed in enough to read them.

A small pool of TextItems is reused; candidates are picked with numpy (in view, shown, most
important first) and placed greedily so no two labels overlap on screen.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF

from ...theming import Theme
from ...theming.qt import qcolor
from ..graph_data import BoolArray, FloatArray, GraphData, IntArray
from ..graph_query import top_n

MAX_LABELS = 40
MAX_IN_VIEW = 400  # more nodes than this on screen: too crowded for labels
MAX_CHARS = 28


class LabelLayer:
    def __init__(self, view: pg.ViewBox) -> None:
        self.view = view
        self.items: list[pg.TextItem] = []
        for _ in range(MAX_LABELS):
            item = pg.TextItem(anchor=(0.5, -0.35))
            item.setZValue(20)
            item.hide()
            view.addItem(item, ignoreBounds=True)
            self.items.append(item)
        self.rows: IntArray = np.zeros(0, np.int64)

    def restyle(self, theme: Theme) -> None:
        for item in self.items:
            item.setColor(qcolor(theme.color("text")))
            item.fill = pg.mkBrush(qcolor(theme.color("background"), 0.6))

    def update(self, data: GraphData, pos: FloatArray, shown: BoolArray, always: IntArray) -> None:
        rect = self.view.viewRect()
        in_view = shown & (pos[:, 0] >= rect.left()) & (pos[:, 0] <= rect.right()) \
            & (pos[:, 1] >= rect.top()) & (pos[:, 1] <= rect.bottom()) if data.n else shown
        count = int(in_view.sum())
        rows = always[in_view[always]] if always.size else always
        if count <= MAX_IN_VIEW:
            rows = np.concatenate((rows, top_n(data.importance, in_view, MAX_LABELS * 3)))
        self.rows = self._place(data, pos, rows)
        for item, row in zip(self.items, self.rows, strict=False):
            title = data.titles[row]
            item.setText(title if len(title) <= MAX_CHARS else title[: MAX_CHARS - 1] + "…")
            item.setPos(float(pos[row, 0]), float(pos[row, 1]))
            item.show()
        for item in self.items[len(self.rows):]:
            item.hide()

    def _place(self, data: GraphData, pos: FloatArray, rows: IntArray) -> IntArray:
        """Greedy: keep a label if its screen box misses every kept one (≤ a few hundred tries)."""
        sx, sy = self.view.viewPixelSize()
        kept: list[int] = []
        boxes: list[QRectF] = []
        seen: set[int] = set()
        for row in rows.tolist():
            if row in seen or len(kept) >= MAX_LABELS:
                continue
            seen.add(row)
            width = 7.0 * min(len(data.titles[row]), MAX_CHARS) + 8
            x, y = pos[row, 0] / sx, -pos[row, 1] / sy
            box = QRectF(x - width / 2, y + 6, width, 18)
            if any(box.intersects(b) for b in boxes):
                continue
            kept.append(row)
            boxes.append(box)
        return np.array(kept, dtype=np.int64)
