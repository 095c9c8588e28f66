"""The 2D graph stays readable (offscreen): labels never overlap and are never cut at the edge at
any zoom, colours follow communities with a legend, hover lights a node's neighbourhood and
fades the rest, the local graph shows only what lies a few steps from the selection."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator

import numpy as np
import pytest
from PySide6.QtCore import QPointF, QRectF

from bme_desktop.ui.context import AppContext
from bme_desktop.ui.views.graph2d import Graph2DView
from bme_desktop.ui.views.graph_colors import BY_TYPE
from bme_desktop.ui.views.graph_data import node_size


@pytest.fixture
def view(qtbot, story_view: Callable[..., Graph2DView], settled: Callable[[], None]) -> Iterator[Graph2DView]:
    v = story_view(300)
    settled()
    qtbot.waitUntil(lambda: v.state.communities.count > 0 and v.link.settled, timeout=120000)
    v.fit()
    v.canvas._update_labels()
    yield v
    v.close()


def label_rects(v: Graph2DView) -> list[QRectF]:
    """Where the shown label items are drawn, in the canvas viewport's pixels."""
    v.canvas.vb.updateMatrix()  # as a paint would: the items' scene geometry follows the view range
    out = []
    for item in v.canvas.labels.items:
        if item.isVisible():
            out.append(v.canvas.mapFromScene(item.sceneBoundingRect()).boundingRect().toRectF())
    return out


def overlaps(rects: list[QRectF], gap: float = 2.0) -> int:
    """Pairs of labels that overlap or come closer than ``gap`` px (touching boxes read as one)."""
    return sum(
        1 for a, b in itertools.combinations(rects, 2) if a.adjusted(-gap, -gap, gap, gap).intersects(b)
    )


def test_labels_never_overlap_nor_leave_the_view_at_any_zoom(qtbot, view: Graph2DView) -> None:
    frame = QRectF(view.canvas.viewport().rect())
    counts = []
    # zoom in on the biggest community (the view's middle may be a gap between two clusters)
    group = view.state.group
    biggest = np.bincount(group[group >= 0]).argmax()
    cx, cy = view.canvas.pos[group == biggest].mean(axis=0)
    for step in range(4):  # the whole graph, then zoomed in twice as far each time
        if step:
            view.canvas.vb.scaleBy((0.5, 0.5), center=QPointF(float(cx), float(cy)))
        view.canvas._update_labels()
        qtbot.wait(1)
        rects = label_rects(view)
        counts.append(len(rects))
        assert overlaps(rects) == 0
        assert all(frame.contains(r) for r in rects), [r for r in rects if not frame.contains(r)]
    assert min(counts) >= 5  # labels are there to be checked, at every zoom


def test_a_title_shows_once_however_many_memories_carry_it(view: Graph2DView) -> None:
    texts = [item.textItem.toPlainText() for item in view.canvas.labels.items if item.isVisible()]
    assert len(texts) == len(set(texts))


def test_colours_follow_communities_and_the_legend_names_them(view: Graph2DView) -> None:
    st = view.state
    entries = view.legend.entries
    assert view.legend.isVisible() and len(entries) >= 2
    assert entries[0].text == st.communities.names[entries[0].group]
    a, b = (np.flatnonzero(st.group == g)[0] for g in (entries[0].group, entries[1].group))
    brushes = view.canvas.scatter.data["brush"]
    assert brushes[a].color().name() != brushes[b].color().name()
    view.set_color_by(BY_TYPE)
    assert view.legend.title.text() == "<b>Types</b>"


def test_a_click_on_a_legend_line_lights_that_community(view: Graph2DView) -> None:
    group = view.legend.entries[0].group
    view.legend.body.linkActivated.emit(str(group))
    assert view.state.highlight is not None
    assert np.array_equal(view.state.highlight, view.state.group == group)


def test_hover_lights_the_neighbourhood_and_fades_the_rest(qtbot, view: Graph2DView) -> None:
    data = view.state.data
    row = int(np.argmax(data.degree))  # a hub: it has neighbours and non-neighbours
    view.canvas.vb.setRange(
        QRectF(QPointF(*(view.canvas.pos[row] - 3)), QPointF(*(view.canvas.pos[row] + 3)))
    )
    qtbot.wait(20)
    point = view.canvas.mapFromScene(view.canvas.scene_pos_of(row))
    qtbot.mouseMove(view.canvas.viewport(), point)
    qtbot.waitUntil(lambda: view.state.hover == row, timeout=5000)
    near = view.state.near
    assert near is not None and near[row] and 1 < near.sum() < data.n
    alpha = np.array([b.color().alphaF() for b in view.canvas.scatter.data["brush"]])
    far = ~near & (data.tier_idx == data.tier_idx[row])
    close = near & (data.tier_idx == data.tier_idx[row])
    assert alpha[far].max() < alpha[close].min()
    assert row in view.canvas.labels.rows.tolist()  # the hovered node is labelled


def test_the_local_graph_shows_only_what_lies_k_steps_from_the_selection(view: Graph2DView) -> None:
    data = view.state.data
    row = int(np.argmin(np.where(data.degree > 0, data.degree, 10**9)))
    view.set_local_depth(1)
    view.select(data.ids[row])
    shown = view.canvas.scatter.data["visible"]
    neighbours = set(data.dst[data.src == row].tolist()) | set(data.src[data.dst == row].tolist())
    assert set(np.flatnonzero(shown).tolist()) == neighbours | {row}
    view.set_local_depth(2)
    assert view.canvas.scatter.data["visible"].sum() > len(neighbours) + 1
    view.set_local_depth(0)
    assert view.canvas.scatter.data["visible"].all()


def test_nodes_with_more_links_are_drawn_bigger(view: Graph2DView) -> None:
    same_importance = node_size(np.full(3, 5.0), np.array([0, 3, 40]))
    assert same_importance[0] < same_importance[1] < same_importance[2]
    data = view.state.data
    assert np.array_equal(view.canvas.scatter.data["size"], np.rint(node_size(data.importance, data.degree)))


def test_the_toolbar_toggles_look_different_when_checked(qtbot, context: AppContext) -> None:
    from bme_desktop.ui.theming.qt import stylesheet_for
    from bme_desktop.ui.views.graph_toolbar import GraphToolbar

    themes = context.themes
    bar = GraphToolbar(context, [])
    qtbot.addWidget(bar)
    bar.setStyleSheet(stylesheet_for(themes.current, themes._template, themes._icons))
    bar.show()
    button = bar.lanes
    before = button.grab().toImage()
    button.setChecked(True)
    after = button.grab().toImage()
    centre = (before.width() // 2, 3)
    assert before.pixelColor(*centre) != after.pixelColor(*centre)
    assert button.isCheckable() and bar.recall.isCheckable()  # assistive tools read the state too


def test_communities_are_drawn_as_separate_clusters(view: Graph2DView) -> None:
    """No node lies nearer to another community's disc than to its own: between any two
    communities there is a gap, so each reads as a blob of its own."""
    pos, group = view.canvas.pos, view.state.group
    packing = view.packing
    assert packing is not None and packing.fits(pos.shape[0])
    own = packing.groups
    centre, radius = packing.centre, packing.radius
    inside = np.hypot(*(pos - centre[own]).T) <= radius[own] + 1e-6
    assert inside.all()
    used = np.flatnonzero(packing.count > 0)
    for a, b in itertools.combinations(used.tolist(), 2):
        assert np.hypot(*(centre[a] - centre[b])) > radius[a] + radius[b]
    assert len(np.unique(group)) >= 3


def test_the_legend_covers_no_node(view: Graph2DView) -> None:
    legend = QRectF(view.legend.geometry())
    assert view.legend.isVisible()
    shown = np.flatnonzero(view.state.shown())
    view.canvas.vb.updateMatrix()
    covered = [
        r
        for r in shown.tolist()
        if legend.contains(view.canvas.mapFromScene(view.canvas.scene_pos_of(r)).toPointF())
    ]
    assert covered == []


def test_lanes_are_headed_by_whose_view_each_column_is(qtbot, view: Graph2DView) -> None:
    from bme_desktop.ui.views.graph2d._canvas import LANE_KEY

    view.set_lanes(True)
    view.canvas._update_labels()
    data, labels = view.state.data, view.canvas.labels
    lanes = {k - LANE_KEY for k in labels.clusters if k >= LANE_KEY}
    assert 0 in lanes and len(lanes) >= 3  # "Objective" and the owners' columns, at the default zoom
    texts = [item.textItem.toPlainText() for item in labels.items if item.isVisible()]
    owners = [f"{name}'s view" for name in data.owners.names[1:]]
    assert "Objective" in texts and any(t in owners for t in texts)
    assert overlaps(label_rects(view)) == 0
    view.set_lanes(False)
    view.canvas._update_labels()
    assert not any(k >= LANE_KEY for k in view.canvas.labels.clusters)
