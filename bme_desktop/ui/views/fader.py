"""Fade nodes in and out: per-node alpha moving toward a target, ticked by one QTimer."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import QObject, QTimer, Signal

from .graph_data import FloatArray, IntArray

STEP = 0.2  # alpha change per tick (~5 ticks of 33 ms ≈ the source's FADE_MS)


class Fader(QObject):
    sigChanged = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.alpha: FloatArray = np.zeros(0)
        self._target: FloatArray = np.zeros(0)
        self._timer = QTimer(self, interval=33)
        self._timer.timeout.connect(self._tick)

    def reset(self, n: int) -> None:
        self.alpha, self._target = np.ones(n), np.ones(n)
        self._timer.stop()

    def add(self, count: int) -> None:
        """``count`` new rows at the end, fading in from 0."""
        self.alpha = np.concatenate((self.alpha, np.zeros(count)))
        self._target = np.concatenate((self._target, np.ones(count)))
        self._timer.start()

    def fade_out(self, rows: IntArray) -> None:
        self._target[rows] = 0.0
        self._timer.start()

    def compact(self, remap: npt.NDArray[np.int64]) -> None:
        keep = remap >= 0
        self.alpha, self._target = self.alpha[keep], self._target[keep]

    @property
    def active(self) -> bool:
        return self._timer.isActive()

    def _tick(self) -> None:
        delta = np.clip(self._target - self.alpha, -STEP, STEP)
        self.alpha += delta
        if not np.any(self.alpha != self._target):
            self._timer.stop()
        self.sigChanged.emit()
