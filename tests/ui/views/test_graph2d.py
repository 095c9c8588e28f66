"""The 2D graph view offscreen (raster): filters hide points, a click selects, change records
add and remove points without a reset."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import pytest
from pyqtgraph.graphicsItems.ScatterPlotItem import SymbolAtlas
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from bme_desktop.core.model import Node
from bme_desktop.core.service import MemoryService
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.views.graph2d import Graph2DView
from bme_desktop.ui.views.graph_query import GraphFilter

CHAT = "chat-1"


@pytest.fixture
def small_graph(seed: Callable[..., Node], service: MemoryService) -> list[Node]:
    lyra = seed("character", {"name": "Lyra"}, importance=9.0)
    road = seed("location", {"name": "Ember Road"})
    fire = seed("event", {"summary": "The lantern fire"})
    fact = seed("fact", {"statement": "Lanterns burn oil"})
    service.link(CHAT, fire.id, lyra.id, "involved_in")
    service.link(CHAT, fire.id, road.id, "occurred_at")
    service.link(CHAT, fact.id, fire.id, "contradicts")
    return [lyra, road, fire, fact]


@pytest.fixture
def view(
    qtbot, context: AppContext, small_graph: list[Node], settled: Callable[[], None]
) -> Iterator[Graph2DView]:
    context.set_chat(CHAT)
    v = Graph2DView(context, use_opengl=False)
    qtbot.addWidget(v)
    v.resize(600, 400)
    v.show()
    settled()
    qtbot.waitUntil(lambda: v.state.data.n == 4 and v.link.settled, timeout=60000)
    qtbot.wait(50)
    yield v
    v.close()


def visible(v: Graph2DView) -> list[bool]:
    return v.canvas.scatter.data["visible"].tolist()


def test_type_filter_hides_other_points_and_their_edges(view: Graph2DView) -> None:
    rows = [view.state.data.row[i] for i in view.state.data.ids]
    view.set_filter(GraphFilter(types=frozenset({"character", "event"})))
    types = [view.state.data.titles[r] for r in rows if visible(view)[r]]
    assert sorted(types) == ["Lyra", "The lantern fire"]
    drawn = sum(c.xData.size // 2 for c in view.canvas.edges.curves.values() if c.xData is not None)
    assert drawn == 1


def test_click_on_a_node_emits_its_id(qtbot, view: Graph2DView) -> None:
    data = view.state.data
    target = data.ids[data.titles.index("Ember Road")]
    view.fit()
    qtbot.wait(50)
    point = view.canvas.mapFromScene(view.canvas.scene_pos_of(data.row[target]))
    with qtbot.waitSignal(view.sigNodeSelected, timeout=5000) as signal:
        qtbot.mouseClick(view.canvas.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert signal.args == [target]
    assert view.state.selected == data.row[target]


def test_change_records_add_and_remove_points_without_a_reset(
    qtbot, view: Graph2DView, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    resets: list[None] = []
    view.state.sigReset.connect(lambda: resets.append(None))
    first_scatter = view.canvas.scatter
    new = seed("rule", {"title": "No names", "constraint": "Never say a true name"})
    settled()
    qtbot.waitUntil(lambda: view.canvas.scatter.data.size == 5, timeout=10000)
    assert view.state.data.ids[-1] == new.id
    service.delete_node(CHAT, new.id)
    settled()
    qtbot.waitUntil(lambda: view.state.data.n == 4 and view.canvas.scatter.data.size == 4, timeout=10000)
    assert new.id not in view.state.data.row
    assert not resets and view.canvas.scatter is first_scatter


def test_search_and_highlight_ring_the_matching_nodes(view: Graph2DView) -> None:
    data = view.state.data
    view.set_search("ember")
    assert view.state.search.tolist() == [t == "Ember Road" for t in data.titles]
    view.set_highlight([data.ids[0]])
    assert view.state.highlight is not None and view.state.highlight.sum() == 1


def test_focus_shows_only_the_k_hop_neighbourhood(view: Graph2DView) -> None:
    data = view.state.data
    lyra = data.ids[data.titles.index("Lyra")]
    view.focus_on(lyra, 1)
    shown = sorted(data.titles[r] for r in np.flatnonzero(visible(view)))
    assert shown == ["Lyra", "The lantern fire"]


def test_streamed_positions_move_the_filtered_edges_and_keep_hidden_ones_out(view: Graph2DView) -> None:
    view.set_filter(GraphFilter(types=frozenset({"character", "event"})))
    moved = view.canvas.pos + 100.0
    view.canvas.move(moved)
    segs = [
        (c.xData, c.yData) for c in view.canvas.edges.curves.values() if c.xData is not None and c.xData.size
    ]
    assert len(segs) == 1 and segs[0][0].size == 2
    shown = np.flatnonzero(view.state.shown())
    expected = sorted(map(tuple, moved[shown].round(6).tolist()))
    assert sorted(zip(segs[0][0].round(6).tolist(), segs[0][1].round(6).tolist(), strict=True)) == expected


def test_edge_pens_are_opaque_blends_of_the_edge_colour_over_the_background(view: Graph2DView) -> None:
    from bme_desktop.ui.theming.colors import mix
    from bme_desktop.ui.views.graph2d._edges import EDGE_ALPHA

    theme = view.context.themes.current
    for name in ("association", "causal"):
        colour = view.canvas.edges.curves[name].opts["pen"].color()
        assert colour.alpha() == 255
        assert colour.name() == QColor(mix(theme.color("background"), theme.edges[name], EDGE_ALPHA)).name()


def test_points_are_keyed_in_the_symbol_atlas_as_pyqtgraph_itself_keys_them(
    qtbot, story_view: Callable[..., Graph2DView]
) -> None:
    """The canvas writes the points' styles in place and asks the atlas once per distinct style;
    every point must still show the sprite pyqtgraph would pick for its size, pen and brush."""
    view = story_view(120)
    qtbot.waitUntil(lambda: view.canvas.scatter.data.size == 120, timeout=30000)
    view.state.set_hover(3)  # rings, dimmed alphas and sizes all differ
    scatter = view.canvas.scatter
    expected = scatter.fragmentAtlas[
        list(zip(*scatter._style(["symbol", "size", "pen", "brush"]), strict=True))
    ]
    assert [tuple(r) for r in scatter.data["sourceRect"].tolist()] == [tuple(c) for c in expected]
    assert len({tuple(r) for r in scatter.data["sourceRect"].tolist()}) > 2


def test_points_are_written_without_keying_each_one_in_the_symbol_atlas(
    qtbot, story_view: Callable[..., Graph2DView], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 19, "never freeze": a graph's first show (and every new set of rows) writes its points
    asking the atlas once per distinct style, never a point at a time (``setData`` keyed each of
    10k points with the default style, ~30 ms of the GUI thread)."""
    asked: list[int] = []
    ask = SymbolAtlas.__getitem__

    def counted(atlas: SymbolAtlas, styles: list[tuple[object, ...]]) -> object:
        asked.append(len(styles))
        return ask(atlas, styles)

    monkeypatch.setattr(SymbolAtlas, "__getitem__", counted)
    view = story_view(600, shown=False)
    qtbot.waitUntil(lambda: view.state.data.n == 600, timeout=30000)
    view.show()
    qtbot.waitUntil(lambda: view.canvas.scatter.data.size == 600, timeout=30000)
    view.state.set_hover(3)
    assert asked and sum(asked) < 600 / 2  # distinct styles only, on the show and on the hover
    scatter = view.canvas.scatter
    assert (scatter.data["sourceRect"]["w"] > 0).all()


def test_a_graph_view_built_behind_another_runs_no_layout_until_it_is_shown(
    qtbot, story_view: Callable[..., Graph2DView]
) -> None:
    view = story_view(120, shown=False)
    qtbot.waitUntil(lambda: view.state.data.n == 120, timeout=30000)
    qtbot.wait(50)
    assert view.link.runner is None
    view.show()
    qtbot.waitUntil(lambda: view.link.runner is not None, timeout=30000)
