"""The nebula tells you something (real OpenGL under Xvfb, `-m gl`): a dense cluster keeps its hue
instead of blowing out to white, hover names the memory and lights its neighbourhood, the
selection is named and its links are drawn, the legend says what the colours mean."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import pytest

from bench.story_graph import story
from bme_desktop.core.model import Node
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.views.graph_data import GraphData
from bme_desktop.ui.views.graph_source import GraphSource
from bme_desktop.ui.views.nebula._geometry import project
from tests.ui.views.test_gl import _needs_display  # noqa: F401  (the same skip rules)

pytestmark = pytest.mark.gl


@pytest.fixture
def nebula(qtbot, context: AppContext, settled: Callable[[], None]) -> Iterator[object]:
    from bme_desktop.ui.views.nebula import NebulaView

    source = GraphSource(context)
    view = NebulaView(context, source=source, rotate=False)
    qtbot.addWidget(view)
    view.resize(600, 450)
    view.show()
    source.set_data(GraphData.from_records(*story(400)))
    settled()
    qtbot.waitUntil(lambda: view.state.communities.count > 0 and view.link.settled, timeout=120000)
    qtbot.wait(100)
    yield view
    view.close()


def test_a_dense_cluster_keeps_its_hue_and_never_turns_white(
    qtbot, context: AppContext, settled: Callable[[], None]
) -> None:
    from bme_desktop.ui.views.nebula import NebulaView

    source = GraphSource(context)
    view = NebulaView(context, source=source, rotate=False)
    view.set_color_by("type")
    view.set_layout_running(False)  # the seeded cloud as it is: one type, all in one cluster
    qtbot.addWidget(view)
    view.resize(400, 300)
    view.show()
    many = [
        Node(
            id=f"n{i}", chat_id="c", type="fact", title=f"f{i}", fields={}, importance=10.0, tier="long_term"
        )
        for i in range(1500)
    ]
    source.set_data(GraphData.from_records(many, []))
    settled()
    view.glview.setCameraPosition(distance=40.0)
    qtbot.wait(200)
    image = view.glview.grabFramebuffer()
    pixels = np.array(
        [
            [image.pixelColor(x, y).getRgb()[:3] for x in range(0, image.width(), 3)]
            for y in range(0, image.height(), 3)
        ],
        dtype=float,
    ).reshape(-1, 3)
    brightest = pixels[np.argmax(pixels.sum(axis=1))]
    assert brightest.max() > 150, "the cluster is drawn"
    assert brightest.max() - brightest.min() > 40, f"the brightest pixel {brightest} has lost its hue"
    view.close()


def test_hover_names_the_memory_and_lights_its_neighbourhood(qtbot, nebula: object) -> None:
    view: object = nebula
    st = view.state  # type: ignore[attr-defined]
    row = int(np.argmax(np.where(view.scene.drawn_size > 0, st.data.degree, -1)))  # type: ignore[attr-defined]
    at = view.screen_pos_of(row)  # type: ignore[attr-defined]
    qtbot.mouseMove(view.glview, at.toPoint())  # type: ignore[attr-defined]
    qtbot.waitUntil(lambda: st.hover >= 0, timeout=5000)
    hovered = st.hover
    assert st.near is not None and st.near[hovered] and st.near.sum() > 1
    tag = view.tags["hover"]  # type: ignore[attr-defined]
    assert tag.isVisible() and tag.text().rstrip("…") in st.data.titles[hovered]
    assert view.links.pos.shape[0] == 2 * int(st.data.degree[hovered])  # type: ignore[attr-defined]


def test_the_selection_is_named_and_its_links_are_drawn(nebula: object) -> None:
    view: object = nebula
    st = view.state  # type: ignore[attr-defined]
    row = int(np.argmax(st.data.degree))
    view.select(st.data.ids[row])  # type: ignore[attr-defined]
    tag = view.tags["selected"]  # type: ignore[attr-defined]
    assert tag.isVisible() and tag.text().rstrip("…") in st.data.titles[row]
    assert view.links.pos.shape[0] == 2 * int(st.data.degree[row])  # type: ignore[attr-defined]
    neighbours = np.concatenate((st.data.dst[st.data.src == row], st.data.src[st.data.dst == row]))
    assert (view.scene.drawn_size[neighbours] > 0).all()  # type: ignore[attr-defined]  # neighbours are drawn


def test_the_legend_and_the_clouds_name_the_communities(nebula: object) -> None:
    view: object = nebula
    legend = view.legend  # type: ignore[attr-defined]
    assert legend.isVisible() and legend.entries
    names = view.state.communities.names  # type: ignore[attr-defined]
    assert legend.entries[0].text == names[legend.entries[0].group]
    tags = [t for t in view.cluster_tags if t.isVisible()]  # type: ignore[attr-defined]
    floating = [t.text() for t in tags]
    assert len(floating) >= 2 and all(t.rstrip("…") in " ".join(names) for t in floating)
    boxes = [t.geometry() for t in tags] + [legend.geometry()]
    assert not any(
        a.intersects(b) for i, a in enumerate(boxes) for b in boxes[i + 1 :]
    )  # names never overlap
    st = view.state  # type: ignore[attr-defined]
    cloud = view.cloud  # type: ignore[attr-defined]
    assert np.array_equal(cloud, st.colours())  # one cloud per colour


def test_the_nebula_turns_about_a_centre_in_the_middle_of_the_view_below_the_legend(nebula) -> None:
    legend = nebula.legend.geometry()
    assert nebula.legend.isVisible()
    mvp = nebula._mvp()
    gl_view = nebula.glview
    centre, _front = project(np.array([[*gl_view.opts["center"]]]), mvp, gl_view.width(), gl_view.height())
    free_middle = (legend.bottom() + 6 + gl_view.height()) / 2
    assert abs(centre[0, 1] - free_middle) < 3
    assert abs(centre[0, 0] - gl_view.width() / 2) < 3


def _cloud_centres_on_screen(view: object) -> dict[int, np.ndarray]:
    st = view.state  # type: ignore[attr-defined]
    shown = st.shown()
    cloud, points = view.cloud, view.points  # type: ignore[attr-defined]
    gl_view = view.glview  # type: ignore[attr-defined]
    centres = {}
    for g in np.unique(cloud[shown]):
        centre = points[(cloud == g) & shown].mean(axis=0, keepdims=True)
        screen, front = project(centre, view._mvp(), gl_view.width(), gl_view.height())  # type: ignore[attr-defined]
        if front[0]:
            centres[int(g)] = screen[0]
    return centres


def test_each_cloud_name_floats_over_its_own_cloud_at_every_turn(nebula: object) -> None:
    """Names never stack over the middle: each sits nearer its own cloud's centre than any other's."""
    view: object = nebula
    gl_view = view.glview  # type: ignore[attr-defined]
    seen = set()
    for _turn in range(12):
        gl_view.orbit(30.0, 0.0)
        view._place_tags()  # type: ignore[attr-defined]
        centres = _cloud_centres_on_screen(view)
        tags = [t for t in view.cluster_tags if t.isVisible()]  # type: ignore[attr-defined]
        assert len(tags) >= 2
        for tag in tags:
            group = int(tag.property("group"))
            mid = np.array([tag.geometry().center().x(), tag.geometry().center().y()], dtype=float)
            nearest = min(centres, key=lambda g: float(np.hypot(*(centres[g] - mid))))
            assert np.hypot(*(centres[group] - mid)) <= np.hypot(*(centres[nearest] - mid)) + 0.5, tag.text()
            seen.add(group)
        boxes = [t.geometry().adjusted(-1, -1, 1, 1) for t in tags]
        assert not any(a.intersects(b) for i, a in enumerate(boxes) for b in boxes[i + 1 :])
    assert len(seen) >= 4  # as the nebula turns, most clouds get their name at some point


def test_a_cloud_name_never_covers_the_selected_memory_s_name(nebula: object) -> None:
    view: object = nebula
    st = view.state  # type: ignore[attr-defined]
    cloud, shown = view.cloud, st.shown()  # type: ignore[attr-defined]
    for g in np.unique(cloud[shown])[:6]:  # a memory in the middle of each cloud, where its name sits
        rows = np.flatnonzero((cloud == g) & shown & (view.scene.drawn_size > 0))  # type: ignore[attr-defined]
        if rows.size == 0:
            continue
        centre = view.points[rows].mean(axis=0)  # type: ignore[attr-defined]
        row = int(rows[np.argmin(np.linalg.norm(view.points[rows] - centre, axis=1))])  # type: ignore[attr-defined]
        view.select(st.data.ids[row])  # type: ignore[attr-defined]
        selected = view.tags["selected"]  # type: ignore[attr-defined]
        assert selected.isVisible()
        for tag in view.cluster_tags:  # type: ignore[attr-defined]
            assert not (tag.isVisible() and tag.geometry().intersects(selected.geometry())), tag.text()
