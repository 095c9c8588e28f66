"""Mouse handling on the graph's ViewBox: click to select, drag a node to move and pin it,
Shift+drag for a rubber band selection, plain drag to pan, wheel to zoom, hover for tooltips.

It only hit-tests (through the canvas) and emits signals; the view decides what they do.
Hover positions arrive at mouse rate, so they are coalesced by a short timer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt, QTimer, Signal

if TYPE_CHECKING:
    from ._canvas import GraphCanvas

HOVER_MS = 60


class GraphViewBox(pg.ViewBox):  # type: ignore[misc]
    sigNodeClicked = Signal(int)  # row, -1 for the background
    sigNodeDragged = Signal(int, object, bool)  # row, QPointF in view coordinates, finished
    sigRubberBand = Signal(object)  # QRectF in view coordinates
    sigHover = Signal(int, object)  # row (-1: none), QPointF screen position

    def __init__(self, canvas: GraphCanvas) -> None:
        super().__init__()
        self.canvas = canvas
        self._drag_row = -1
        self._hover_scene: QPointF | None = None
        self._hover_row = -1
        self._hover_timer = QTimer(singleShot=True, interval=HOVER_MS)
        self._hover_timer.timeout.connect(self._hover_now)

    def mouseClickEvent(self, ev: Any) -> None:
        if ev.button() != Qt.MouseButton.LeftButton:
            ev.ignore()
            return
        ev.accept()
        self.sigNodeClicked.emit(self.canvas.node_at(self.mapSceneToView(ev.scenePos())))

    def mouseDragEvent(self, ev: Any, axis: int | None = None) -> None:
        if ev.button() != Qt.MouseButton.LeftButton:
            super().mouseDragEvent(ev, axis)
            return
        if ev.isStart():
            self._drag_row = self.canvas.node_at(self.mapSceneToView(ev.buttonDownScenePos()))
        here = self.mapSceneToView(ev.scenePos())
        if self._drag_row >= 0:
            ev.accept()
            self.sigNodeDragged.emit(self._drag_row, here, bool(ev.isFinish()))
            if ev.isFinish():
                self._drag_row = -1
        elif ev.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            ev.accept()
            start = self.mapSceneToView(ev.buttonDownScenePos())
            if ev.isFinish():
                self.rbScaleBox.hide()
                self.sigRubberBand.emit(QRectF(start, here).normalized())
            else:
                self.updateScaleBox(ev.buttonDownPos(), ev.pos())
        else:
            super().mouseDragEvent(ev, axis)

    def hoverEvent(self, ev: Any) -> None:
        self._hover_scene = None if ev.isExit() else ev.scenePos()
        self._hover_timer.start()

    def _hover_now(self) -> None:
        if self._hover_scene is None:
            row = -1
            screen = QPointF()
        else:
            row = self.canvas.node_at(self.mapSceneToView(self._hover_scene))
            screen = QPointF(self.canvas.mapToGlobal(self.canvas.mapFromScene(self._hover_scene)))
        if row != self._hover_row:
            self._hover_row = row
            self.sigHover.emit(row, screen)
