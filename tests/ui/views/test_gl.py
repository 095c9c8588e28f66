"""Both views on real OpenGL under Xvfb: pixels where nodes are, background elsewhere, picking.

Run: ``QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1280x1024x24" .venv/bin/pytest -p no:xvfb
tests/ui/views -m gl`` (or set ``xvfb_colordepth = 24`` for pytest-xvfb).
"""

from __future__ import annotations

import os
from collections.abc import Callable

import numpy as np
import pytest
from PySide6.QtGui import QColor, QGuiApplication, QImage

from bme_desktop.core.model import Node
from bme_desktop.core.service import MemoryService
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.views.gl_probe import opengl_available

CHAT = "chat-1"
pytestmark = pytest.mark.gl


@pytest.fixture(autouse=True)
def _needs_display(qapp: object) -> None:
    if not os.environ.get("DISPLAY"):
        pytest.skip(
            "GL tests need an X server: DISPLAY is unset (run under xvfb-run with QT_QPA_PLATFORM=xcb)"
        )
    if QGuiApplication.platformName() != "xcb" or not opengl_available():
        pytest.skip(
            f"GL tests need QT_QPA_PLATFORM=xcb and OpenGL (platform: {QGuiApplication.platformName()})"
        )
    depth = QGuiApplication.primaryScreen().depth()
    if depth < 24:  # llvmpipe windows read back black on pytest-xvfb's default 16-bit display
        pytest.skip(
            f"GL pixel tests need a 24-bit display (this one is {depth}-bit): set xvfb_colordepth = 24 "
            "or run `QT_QPA_PLATFORM=xcb xvfb-run -a -s '-screen 0 1280x1024x24' pytest -p no:xvfb -m gl`"
        )


@pytest.fixture
def graph(seed: Callable[..., Node], service: MemoryService) -> list[Node]:
    nodes = [seed("character", {"name": f"C{i}"}, importance=10.0) for i in range(3)]
    nodes += [seed("location", {"name": f"L{i}"}, importance=10.0) for i in range(3)]
    for a, b in zip(nodes, nodes[3:], strict=False):
        service.link(CHAT, a.id, b.id, "related")
    return nodes


def rgb(image: QImage, x: float, y: float) -> np.ndarray:
    c = QColor(image.pixel(round(x), round(y)))
    return np.array([c.red(), c.green(), c.blue()], dtype=float)


def near(a: np.ndarray, b: str, tol: float = 60.0) -> bool:
    c = QColor(b)
    return float(np.abs(a - np.array([c.red(), c.green(), c.blue()])).max()) <= tol


def test_2d_view_draws_node_colours_on_the_gl_viewport(
    qtbot, context: AppContext, graph: list[Node], settled: Callable[[], None]
) -> None:
    from bme_desktop.ui.views.graph2d import Graph2DView

    context.set_chat(CHAT)
    view = Graph2DView(context, use_opengl=True)
    view.set_color_by("type")  # the node type's colour is what this test looks for
    qtbot.addWidget(view)
    view.resize(500, 400)
    view.show()
    settled()
    qtbot.waitUntil(lambda: view.state.data.n == 6 and view.link.settled, timeout=60000)
    view.fit()
    qtbot.wait(200)
    qtbot.waitExposed(view)
    qtbot.wait(200)
    # the GL viewport's pixels as X shows them (grab() would re-render it without GL)
    image = QGuiApplication.primaryScreen().grabWindow(view.winId()).toImage()
    theme = context.themes.current
    row = view.state.data.row[graph[0].id]
    at = view.canvas.mapTo(view, view.canvas.mapFromScene(view.canvas.scene_pos_of(row)))
    assert near(rgb(image, at.x(), at.y()), theme.node_color("character"))
    assert near(rgb(image, 2, 2), theme.color("background"), 8)
    view.close()


def test_nebula_renders_glows_on_the_theme_background_and_picks_the_clicked_node(
    qtbot, context: AppContext, graph: list[Node], settled: Callable[[], None]
) -> None:
    from bme_desktop.ui.views.nebula import NebulaView

    context.set_chat(CHAT)
    view = NebulaView(context, rotate=False)
    view.set_color_by("type")
    qtbot.addWidget(view)
    view.resize(500, 400)
    view.show()
    settled()
    qtbot.waitUntil(lambda: view.state.data.n == 6 and view.link.settled, timeout=60000)
    qtbot.wait(200)
    image = view.glview.grabFramebuffer()
    theme = context.themes.current
    row = view.state.data.row[graph[3].id]
    at = view.screen_pos_of(row)
    colour = rgb(image, at.x(), at.y())
    assert colour.max() > 120, "a bright sprite where the node is"
    target = QColor(theme.node_color("location"))
    hue = np.array([target.red(), target.green(), target.blue()], dtype=float)
    assert int(np.argmax(colour)) == int(np.argmax(hue)), "the sprite has the node type's dominant channel"
    assert near(rgb(image, 2, 2), theme.color("background"), 8)
    assert view.node_at(at.x(), at.y()) == row
    view.close()
