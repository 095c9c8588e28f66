"""The graph toolbar drives the views' filter, search and lanes, and hides over other views."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QWidget

from bme_desktop.ui.context import AppContext
from bme_desktop.ui.views.graph_query import GraphFilter
from bme_desktop.ui.views.graph_toolbar import GraphToolbar


class FakeGraph(QWidget):
    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, Any]] = []

    def set_filter(self, f: GraphFilter) -> None:
        self.calls.append(("filter", f))

    def set_search(self, text: str) -> None:
        self.calls.append(("search", text))

    def set_lanes(self, on: bool) -> None:
        self.calls.append(("lanes", on))


def test_unticking_a_type_filters_it_out_and_lanes_toggle(qtbot, context: AppContext) -> None:
    graph, timeline = FakeGraph(), QWidget()
    bar = GraphToolbar(context, [graph, timeline])
    qtbot.addWidget(bar)
    event = next(a for a in bar.types.menu().actions() if a.data() == "event")
    event.setChecked(False)
    kind, f = graph.calls[-1]
    assert kind == "filter" and f.types is not None and "event" not in f.types and "fact" in f.types
    assert f.tiers is None
    bar.lanes.click()
    assert graph.calls[-1] == ("lanes", True)


def test_search_reaches_the_view_after_typing_stops(qtbot, context: AppContext) -> None:
    graph = FakeGraph()
    bar = GraphToolbar(context, [graph])
    qtbot.addWidget(bar)
    bar.search.setText("lighthouse")
    qtbot.waitUntil(lambda: ("search", "lighthouse") in graph.calls)


def test_the_toolbar_hides_over_a_view_it_cannot_drive(qtbot, context: AppContext) -> None:
    graph, timeline = FakeGraph(), QWidget()
    bar = GraphToolbar(context, [graph, timeline])
    qtbot.addWidget(bar)
    bar.show()
    bar.follow(timeline)
    assert bar.isHidden()
    bar.follow(graph)
    assert not bar.isHidden()
