"""The Overview's chart series (computed without Qt) and the panel's coalesced refresh."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bme_desktop.core.model import Node
from bme_desktop.core.recall.api import RecallRequest, RecallResult
from bme_desktop.core.service import MemoryService
from bme_desktop.ui import overview_data
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.overview_data import cumulative_growth, histogram, latency_series, overview_series
from bme_desktop.ui.panels import overview as overview_module
from bme_desktop.ui.panels.overview import OverviewPanel

CHAT = "chat-1"


def test_growth_is_the_running_count_by_creation_time_with_equal_times_merged() -> None:
    assert cumulative_growth([30.0, 10.0, 20.0, 20.0]) == ([10.0, 20.0, 30.0], [1, 3, 4])
    assert cumulative_growth([]) == ([], [])


def test_the_histogram_covers_zero_to_one_and_clamps_what_lies_outside() -> None:
    edges, counts = histogram([0.0, 0.05, -0.2, 0.55, 0.95, 1.0, 1.3], bins=10)
    assert edges[0] == 0.0 and edges[-1] == 1.0 and len(edges) == 11
    assert counts == [3, 0, 0, 0, 0, 1, 0, 0, 0, 3]


def test_latency_is_numbered_in_order() -> None:
    assert latency_series([40.0, 12.5]) == ([1, 2], [40.0, 12.5])


def keep_recall(service: MemoryService, index: int, elapsed_ms: float) -> None:
    service.put_recall_record(
        RecallRequest(CHAT, "where is the key?", index=index),
        RecallResult(injection="", token_estimate=0, elapsed_ms=elapsed_ms, nodes=[]),
    )


def test_series_of_a_real_chat_count_live_memories_and_kept_recalls(
    service: MemoryService, seed: Callable[..., Node]
) -> None:
    seed()
    seed()
    gone = seed()
    service.delete_node(CHAT, gone.id)
    keep_recall(service, 0, 40.0)
    keep_recall(service, 1, 10.0)
    series = service.read(lambda r: overview_series(r, CHAT))
    assert series.growth_y[-1] == 2
    assert series.growth_x == sorted(series.growth_x)
    assert series.latency_ms == [40.0, 10.0] and series.mean_latency_ms == 25.0
    assert sum(series.bin_counts) == 2 and series.bin_counts[-1] == 2  # new memories: retrievability 1.0


def test_a_burst_of_graph_changes_is_one_refresh_that_shows_the_new_memories(
    qtbot,
    context: AppContext,
    service: MemoryService,
    seed: Callable[..., Node],
    settled: Callable[[], None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seed()
    panel = OverviewPanel(context)
    qtbot.addWidget(panel)
    context.set_chat(CHAT)
    settled()
    assert panel.charts.series.growth_y[-1] == 1
    loads: list[str] = []
    real = overview_module.load_overview

    def counting(svc: MemoryService, chat_id: str) -> object:
        loads.append(chat_id)
        return real(svc, chat_id)

    monkeypatch.setattr(overview_module, "load_overview", counting)
    for _ in range(4):
        seed()
    qtbot.waitUntil(lambda: bool(panel.charts.series.growth_y) and panel.charts.series.growth_y[-1] == 5)
    settled()
    assert loads == [CHAT]
    assert panel.cards["nodes"].value.text() == "5"


def test_no_chat_shows_empty_charts(qtbot, context: AppContext) -> None:
    panel = OverviewPanel(context)
    qtbot.addWidget(panel)
    assert panel.charts.series == overview_data.OverviewSeries()
    assert panel.charts.picker.count() == 4


def test_an_empty_memories_by_type_chart_says_so_and_shows_no_axis_values(qtbot, context: AppContext) -> None:
    panel = OverviewPanel(context)
    qtbot.addWidget(panel)
    item = panel.plot.getPlotItem()
    texts = [i.toPlainText() for i in item.items if hasattr(i, "toPlainText")]
    assert texts == ["No memories yet"]
    assert not item.getAxis("left").style["showValues"]
    assert not item.getAxis("bottom").style["showValues"]


def test_a_theme_switch_redraws_the_chart_on_screen_and_a_hidden_one_when_it_is_picked(
    qtbot, context: AppContext, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    seed()
    panel = OverviewPanel(context)
    qtbot.addWidget(panel)
    context.set_chat(CHAT)
    settled()
    panel.charts.picker.setCurrentIndex(1)  # memories over time
    name = next(n for n in context.themes.themes if n != context.themes.current.name)
    theme = context.themes.apply(name)
    growth = panel.charts.growth.getPlotItem().listDataItems()[0]
    assert growth.opts["pen"].color().name() == theme.color("primary")
    assert panel.charts.growth.backgroundBrush().color().name() == theme.color("surface")
    assert panel.charts.latency.backgroundBrush().color().name() != theme.color("surface")  # not drawn yet
    panel.charts.picker.setCurrentIndex(2)
    assert panel.charts.latency.backgroundBrush().color().name() == theme.color("surface")


def test_the_charts_behind_the_picker_are_built_when_first_picked(qtbot, context: AppContext) -> None:
    import pyqtgraph as pg

    panel = OverviewPanel(context)
    qtbot.addWidget(panel)
    assert [isinstance(panel.charts.stack.widget(i), pg.PlotWidget) for i in range(4)] == [
        True,
        False,
        False,
        False,
    ]
    panel.charts.picker.setCurrentIndex(3)
    assert isinstance(panel.charts.stack.widget(3), pg.PlotWidget)
    assert panel.charts.stack.currentWidget() is panel.charts.retrievability
