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
    assert f.tiers is None and f.scopes is None
    persona = next(a for a in bar.scopes.menu().actions() if a.data() == "persona")
    persona.setChecked(False)  # the scope filter: who else remembers it
    kind, f = graph.calls[-1]
    assert kind == "filter" and f.scopes == frozenset({"chat", "character", "world"})
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


def test_the_time_scrubber_filters_to_the_memories_of_the_first_messages(qtbot, context: AppContext) -> None:
    from bme_desktop.core.model import Node
    from bme_desktop.ui.views.graph_data import GraphData
    from bme_desktop.ui.views.graph_query import filter_mask
    from bme_desktop.ui.views.graph_source import GraphSource

    def node(i: int, sources: list[int]) -> Node:
        return Node(id=f"n{i}", chat_id="c", type="fact", title=f"n{i}", fields={}, source_indices=sources)

    data = GraphData.from_records([node(0, [0, 9]), node(1, [4]), node(2, [20]), node(3, [])], [])
    GraphSource.for_context(context).set_data(data)
    graph = FakeGraph()
    bar = GraphToolbar(context, [graph])
    qtbot.addWidget(bar)
    assert bar.time.maximum() == 20 and bar.until_message() is None  # starts showing everything
    bar.time.setValue(4)
    assert bar.time_label.text() == "As of message 5"
    qtbot.waitUntil(lambda: bool(graph.calls) and graph.calls[-1][1].until_message == 4)
    f = graph.calls[-1][1]
    assert filter_mask(data, f).tolist() == [True, True, False, True]  # hand-written memories always show
    bar.time.setValue(20)
    assert bar.until_message() is None and bar.time_label.text() == "All messages"


def test_layout_run_stop_and_force_sliders_reach_the_views(qtbot, context: AppContext) -> None:
    calls: list[tuple[str, Any]] = []

    class Graph(FakeGraph):
        def set_layout_running(self, on: bool) -> None:
            calls.append(("running", on))

        def set_forces(self, spread: float, gravity: float) -> None:
            calls.append(("forces", (spread, gravity)))

    bar = GraphToolbar(context, [Graph()])
    qtbot.addWidget(bar)
    assert bar.layout_run.isChecked()  # runs by default
    bar.layout_run.click()
    assert calls[-1] == ("running", False)
    spread, gravity = bar.force_values()
    bar.spread.setValue(bar.spread.maximum())
    qtbot.waitUntil(lambda: bool(calls) and calls[-1][0] == "forces")
    assert (
        calls[-1][1][0] > spread
        and abs(calls[-1][1][0] - 8.0) < 1e-6
        and abs(calls[-1][1][1] - gravity) < 1e-6
    )
