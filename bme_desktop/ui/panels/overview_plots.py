"""The Overview's chart tabs besides "by type": memories over time, recall latency and the
retrievability distribution. Data comes ready from ``ui/overview_data.py``; pens and
brushes come from the theme (``theming/plot.py``), never literals."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import QComboBox, QStackedWidget, QVBoxLayout, QWidget

from ..i18n import Retranslated
from ..overview_data import OverviewSeries
from ..theming import Theme
from ..theming.plot import pen, style_plot


class DateAxis(pg.DateAxisItem):  # type: ignore[misc]  # pyqtgraph is untyped
    """Time ticks as digits (``11-30``, ``14:05``): no month names, so nothing to translate."""

    def tickStrings(self, values: Sequence[float], scale: Any, spacing: float) -> list[str]:
        fmt = "%Y-%m" if spacing >= 28 * 86400 else "%m-%d" if spacing >= 86400 else "%H:%M"
        out = []
        for value in values:
            try:
                out.append(datetime.fromtimestamp(value).strftime(fmt))
            except (OverflowError, OSError, ValueError):
                out.append("")
        return out


def make_plot(bottom: pg.AxisItem | None = None) -> pg.PlotWidget:
    widget = pg.PlotWidget(axisItems={"bottom": bottom} if bottom is not None else None)
    widget.setMinimumHeight(200)
    widget.setMouseEnabled(x=False, y=False)
    widget.hideButtons()
    widget.getPlotItem().setMenuEnabled(False)
    return widget


def brush(theme: Theme, token: str, alpha: float = 1.0) -> QBrush:
    return QBrush(pen(theme, token, alpha=alpha).color())


def show_empty(widget: pg.PlotWidget, theme: Theme, text: str) -> None:
    """A chart with nothing to show: ``text`` in its middle and no axis values (an empty
    chart's 0–1 ticks mean nothing)."""
    item = widget.getPlotItem()
    label = pg.TextItem(text, color=pen(theme, "text_muted").color(), anchor=(0.5, 0.5))
    label.setPos(0.5, 0.5)
    item.addItem(label)
    item.invertY(False)
    item.setXRange(0, 1, padding=0)
    item.setYRange(0, 1, padding=0)
    for name in ("left", "bottom"):
        item.getAxis(name).setStyle(showValues=False)
        item.getAxis(name).setTicks(None)


def prepare(widget: pg.PlotWidget) -> pg.PlotItem:
    """Clear a chart for new data, its axis values shown again."""
    item = widget.getPlotItem()
    item.clear()
    for name in ("left", "bottom"):
        item.getAxis(name).setStyle(showValues=True)
    return item


class OverviewPlots(Retranslated, QWidget):
    """A chart picker over a stack of charts (a combo box fits a narrow dock where tabs do not).
    Chart 0 is the caller's "by type" chart; the other three are drawn by :meth:`show_series`."""

    def __init__(self, by_type: pg.PlotWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.picker = QComboBox()
        self.stack = QStackedWidget()
        self._plots: dict[int, pg.PlotWidget] = {}  # charts 1-3, made when first shown
        for index in range(4):
            self.stack.addWidget(by_type if index == 0 else QWidget())
            self.picker.addItem("")
        self.picker.currentIndexChanged.connect(self._pick)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.picker)
        layout.addWidget(self.stack, 1)
        self.series = OverviewSeries()
        self.theme: Theme | None = None
        self._stale: set[int] = set()  # charts behind the picker, drawn when picked
        self.retranslate()

    def retranslate(self) -> None:
        """The picker's titles; the charts' labels are drawn again (by the panel's ``_show``)."""
        for index, (title, hint) in enumerate(
            (
                (self.tr("Memories by type"), self.tr("Live memories of each type")),
                (self.tr("Memories over time"), self.tr("Live memories, counted by when each was made")),
                (self.tr("Recall time"), self.tr("How long each kept recall took, oldest first")),
                (self.tr("Retrievability"), self.tr("How easily each live memory comes back (1 = at once)")),
            )
        ):
            self.picker.setItemText(index, title)
            self.picker.setItemData(index, hint, Qt.ItemDataRole.ToolTipRole)

    @property
    def growth(self) -> pg.PlotWidget:
        return self._plot(1)

    @property
    def latency(self) -> pg.PlotWidget:
        return self._plot(2)

    @property
    def retrievability(self) -> pg.PlotWidget:
        return self._plot(3)

    def _plot(self, index: int) -> pg.PlotWidget:
        """Chart ``index``, made the first time it is needed: a pyqtgraph plot costs ~10 ms of GUI
        time to build, and the main window is built again on every language switch."""
        plot = self._plots.get(index)
        if plot is None:
            plot = make_plot(DateAxis(orientation="bottom")) if index == 1 else make_plot()
            self._plots[index] = plot
            current, placeholder = self.stack.currentIndex(), self.stack.widget(index)
            self.stack.insertWidget(index, plot)
            if placeholder is not None:
                self.stack.removeWidget(placeholder)
                placeholder.deleteLater()
            self.stack.setCurrentIndex(current)
        return plot

    def restyle(self, theme: Theme) -> None:
        self.theme = theme
        self._stale = {1, 2, 3}
        self._draw_current()

    def show_series(self, series: OverviewSeries, theme: Theme) -> None:
        self.series, self.theme = series, theme
        self._stale |= {1, 2, 3}
        self._draw_current()

    def draw(self, theme: Theme) -> None:
        """Draw every chart now (the one on screen is otherwise the only one kept current)."""
        self.theme = theme
        self._stale = {1, 2, 3}
        for index in (1, 2, 3):
            self._draw_chart(index)

    def _pick(self, index: int) -> None:
        self.stack.setCurrentIndex(index)
        self._draw_current()

    def _draw_current(self) -> None:
        """Only the chart on screen is drawn (a theme switch or new data used to redraw all three,
        ~25 ms of every switch); the others when they are picked."""
        self._draw_chart(self.stack.currentIndex())

    def _draw_chart(self, index: int) -> None:
        theme = self.theme
        if theme is None or index not in self._stale:
            return
        self._stale.discard(index)
        widget, left, bottom, draw = (
            (self.growth, self.tr("memories"), "", self._draw_growth),
            (self.latency, self.tr("ms"), self.tr("recall"), self._draw_latency),
            (self.retrievability, self.tr("memories"), self.tr("retrievability"), self._draw_retrievability),
        )[index - 1]
        style_plot(widget, theme)
        item = widget.getPlotItem()
        item.setLabel("left", left, color=theme.color("text_muted"))
        item.setLabel("bottom", bottom, color=theme.color("text_muted"))
        item.showLabel("bottom", bool(bottom))
        draw(theme, self.series)

    def _empty(self, widget: pg.PlotWidget, theme: Theme, text: str) -> None:
        show_empty(widget, theme, text)

    def _prepare(self, widget: pg.PlotWidget) -> pg.PlotItem:
        return prepare(widget)

    def _draw_growth(self, theme: Theme, s: OverviewSeries) -> None:
        item = self._prepare(self.growth)
        if not s.growth_x:
            self._empty(self.growth, theme, self.tr("No memories yet"))
            return
        xs, ys = list(s.growth_x), list(s.growth_y)
        if len(xs) == 1:  # one moment: draw a short flat step so it is visible
            xs.append(xs[0] + 60.0)
            ys.append(ys[0])
        item.addItem(
            pg.PlotDataItem(
                xs, ys, pen=pen(theme, "primary", 2.0), fillLevel=0, fillBrush=brush(theme, "primary", 0.18)
            )
        )
        item.enableAutoRange()
        item.setYRange(0, max(ys) * 1.08, padding=0)

    def _draw_latency(self, theme: Theme, s: OverviewSeries) -> None:
        item = self._prepare(self.latency)
        if not s.latency_ms:
            self._empty(self.latency, theme, self.tr("No recalls kept yet"))
            return
        item.addItem(
            pg.PlotDataItem(
                s.latency_x,
                s.latency_ms,
                pen=pen(theme, "secondary", 1.5),
                symbol="o",
                symbolSize=5,
                symbolPen=None,
                symbolBrush=brush(theme, "secondary"),
            )
        )
        mean = s.mean_latency_ms
        if mean is not None:
            dashed = pen(theme, "text_muted", 1.0, 0.8)
            dashed.setStyle(Qt.PenStyle.DashLine)
            item.addItem(
                pg.InfiniteLine(
                    pos=mean,
                    angle=0,
                    pen=dashed,
                    label=self.tr("mean {0} ms").format(f"{mean:.0f}"),
                    labelOpts={
                        "color": pen(theme, "text_muted").color(),
                        "position": 0.97,
                        "anchors": [(1, 1), (1, 1)],
                    },
                )
            )
        item.enableAutoRange()
        item.setYRange(0, max(s.latency_ms) * 1.1 or 1.0, padding=0)

    def _draw_retrievability(self, theme: Theme, s: OverviewSeries) -> None:
        item = self._prepare(self.retrievability)
        if not any(s.bin_counts):
            self._empty(self.retrievability, theme, self.tr("No memories yet"))
            return
        edges = s.bin_edges
        centers = [(a + b) / 2 for a, b in itertools.pairwise(edges)]
        width = (edges[1] - edges[0]) * 0.86
        item.addItem(
            pg.BarGraphItem(
                x=centers,
                height=s.bin_counts,
                width=width,
                brush=brush(theme, "accent", 0.85),
                pen=pen(theme, "surface"),
            )
        )
        item.setXRange(0, 1, padding=0.02)
        item.setYRange(0, max(s.bin_counts) * 1.08, padding=0)
