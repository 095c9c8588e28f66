"""A scroll area that scrolls up and down only, for a panel's column of fields or cards: on a
short screen (1366×768) the column scrolls instead of the window refusing to get smaller
than the column's natural height, and it never gets narrower than its content."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QFrame, QScrollArea, QWidget

MIN_HEIGHT = 120  # px: a few lines of the column stay on screen


class VerticalScroll(QScrollArea):
    def __init__(self, body: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setWidget(body)

    def minimumSizeHint(self) -> QSize:
        inner = self.widget()
        width = inner.minimumSizeHint().width() if inner is not None else 0
        return QSize(width + self.verticalScrollBar().sizeHint().width(), MIN_HEIGHT)
