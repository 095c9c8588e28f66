"""Frames per second of the graph views beside a bare pyqtgraph item of the same points (the floor).

Run under Xvfb (GL needs a real X server):
    QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1280x1024x24" .venv/bin/python bench/render.py

2D: the canvas at 1k / 10k nodes with 2× edges, each frame moving the nodes (as while the
layout streams) on the raster and the OpenGL viewport, vs a bare ScatterPlotItem.
3D: the nebula's glow sprites at 10k / 100k points while turning, vs a bare GLScatterPlotItem.
Targets on llvmpipe: 2D ≥ 30 fps at 10k, nebula ≥ 30 fps at 100k.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable

import numpy as np

os.environ.setdefault("QT_QPA_PLATFORM", "xcb")
from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QApplication

app = QApplication(sys.argv)

import pyqtgraph as pg  # noqa: E402
import pyqtgraph.opengl as gl  # noqa: E402

from bme_desktop.core.model import Edge, Node, Scope  # noqa: E402
from bme_desktop.core.schema import NODE_TYPES, RELATIONS  # noqa: E402
from bme_desktop.ui.resources import themes_dir  # noqa: E402
from bme_desktop.ui.theming import ThemeManager  # noqa: E402
from bme_desktop.ui.views.graph2d._canvas import GraphCanvas  # noqa: E402
from bme_desktop.ui.views.graph_data import GraphData  # noqa: E402
from bme_desktop.ui.views.graph_state import GraphState  # noqa: E402
from bme_desktop.ui.views.nebula._geometry import clustered  # noqa: E402
from bme_desktop.ui.views.nebula._sprites import GlowScatterItem  # noqa: E402

FRAMES = 30
THEME = ThemeManager(themes_dir()).current


class _Source(QObject):
    """Stands in for GraphSource: the same signals, fixed data."""

    sigReset, sigNodesAdded, sigNodesChanged = Signal(), Signal(object), Signal(object)
    sigNodesRemoving, sigNodesRemoved, sigEdgesChanged = Signal(object), Signal(object), Signal()

    def __init__(self, data: GraphData) -> None:
        super().__init__()
        self.data = data


def synthetic(n: int, seed: int = 1) -> GraphData:
    rng = np.random.default_rng(seed)
    types, tiers, rels = list(NODE_TYPES), ["short_term", "long_term", "long_term", "dormant"], list(RELATIONS)
    nodes = [Node(f"n{i}", "c", types[i % len(types)], f"memory {i}", {}, importance=float(rng.uniform(0, 10)),
                  tier=tiers[i % 4], scope=Scope("pov", f"o{i % 3}") if i % 5 == 0 else Scope()) for i in range(n)]
    a, b = rng.integers(0, n, 2 * n), rng.integers(0, n, 2 * n)
    edges = [Edge(f"e{k}", "c", f"n{a[k]}", f"n{b[k]}", rels[k % len(rels)]) for k in range(2 * n) if a[k] != b[k]]
    return GraphData.from_records(nodes, edges)


def fps(frame: Callable[[int], None]) -> float:
    frame(-1)
    app.processEvents()
    start = time.perf_counter()
    for i in range(FRAMES):
        frame(i)
        app.processEvents()
    return FRAMES / (time.perf_counter() - start)


def bench_2d(n: int, use_opengl: bool) -> tuple[float, float]:
    data = synthetic(n)
    pos = np.random.default_rng(2).normal(size=(n, 2)) * np.sqrt(n)
    canvas = GraphCanvas(GraphState(_Source(data)), THEME, use_opengl=use_opengl)  # type: ignore[arg-type]
    canvas.resize(1000, 700)
    canvas.show()
    canvas.pos = pos
    canvas.refresh()
    canvas.vb.autoRange()

    def ours(i: int) -> None:
        canvas.move(pos + 0.01 * i)
        canvas.viewport().repaint()
    ours_fps = fps(ours)
    canvas.close()
    bare = pg.GraphicsView()
    if use_opengl:
        bare.useOpenGL(True)
    vb = pg.ViewBox()
    bare.setCentralItem(vb)
    scatter = pg.ScatterPlotItem(x=pos[:, 0], y=pos[:, 1], size=10, pen=None, brush=pg.mkBrush(THEME.node_color("event")))
    vb.addItem(scatter)
    bare.resize(1000, 700)
    bare.show()
    vb.autoRange()
    floor_fps = fps(lambda i: bare.viewport().repaint())
    bare.close()
    return ours_fps, floor_fps


def bench_3d(n: int) -> tuple[float, float]:
    rng = np.random.default_rng(3)
    types = rng.integers(0, len(NODE_TYPES), n)
    pts = clustered(rng.normal(size=(n, 3)), types, len(NODE_TYPES) + 1).astype(np.float32)
    colour = np.concatenate((rng.uniform(0.3, 1, (n, 3)), np.full((n, 1), 0.8)), axis=1).astype(np.float32)
    size = rng.uniform(12, 36, n).astype(np.float32)
    results = []
    gl.GLScatterPlotItem._shaderProgram = None  # pyqtgraph caches one program for all contexts
    for item in (GlowScatterItem(pos=pts, color=colour, size=size, pxMode=True),
                 gl.GLScatterPlotItem(pos=pts, color=colour, size=size, pxMode=True)):
        view = gl.GLViewWidget()
        view.setCameraPosition(distance=34.0)
        view.addItem(item)
        view.resize(1000, 700)
        view.show()

        def turn(i: int, view: gl.GLViewWidget = view) -> None:
            view.orbit(0.5, 0.0)
            view.repaint()
        results.append(fps(turn))
        view.close()
    return results[0], results[1]


def main() -> None:
    from bme_desktop.ui.views.gl_probe import opengl_problem
    problem = opengl_problem()
    print(f"platform {app.platformName()}, OpenGL: {problem or 'yes'}")
    for n in (1000, 10000):
        for use_gl in ((False, True) if not problem else (False,)):
            ours, floor = bench_2d(n, use_gl)
            print(f"2D {n:>6} nodes, {2 * n} edges, {'GL    ' if use_gl else 'raster'}: {ours:6.1f} fps "
                  f"(bare scatter {floor:6.1f} fps, ratio {ours / floor:.2f})")
    if not problem:
        for n in (10000, 100000):
            ours, floor = bench_3d(n)
            print(f"nebula {n:>6} points: {ours:6.1f} fps (bare GLScatterPlotItem {floor:6.1f} fps, "
                  f"ratio {ours / floor:.2f})")


if __name__ == "__main__":
    main()
