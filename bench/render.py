"""Frames per second of the graph views beside a bare pyqtgraph item of the same points (the floor).

Run under Xvfb (GL needs a real X server):
    QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1600x1000x24" .venv/bin/python bench/render.py
Options: ``--only 2d|3d``, ``--repeat R`` (median of R runs, default 3), ``--frames F``,
``--sizes2d 1000,10000,50000``, ``--sizes3d 10000,100000,1000000``, ``--opengl`` (2D on the GL viewport
too), ``--hairball`` (2D edges between random nodes: long and crossing, the fill-rate worst case; by default
nodes sit in clumps as after a layout and 90 % of edges are short).

Two kinds of frame, each against its own floor measured in the same run:
* static — nothing changes but the camera: 2D pans, the nebula turns;
  floor: a bare ScatterPlotItem (2D, no edges) / GLScatterPlotItem (3D, 2 px points) panned/turned.
* streaming — the layout moves every node each frame (what LayoutLink delivers, ≤ 30/s);
  floor: the same bare item given the new positions with setData.

A frame is counted when the widget actually painted (one change + event processing each), so
queued repaints are neither missed nor counted twice.
2D: the GraphCanvas (nodes, 2 × n edges in 7 curves, labels) in a 1000×700 window.
3D: the NebulaScene (glow sprites + dust level of detail) in a 1000×700 GLViewWidget.
Targets on llvmpipe: 2D ≥ 30 fps at 10k, nebula ≥ 30 fps at 100k; usable at 50k / 1M.
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

os.environ.setdefault("QT_QPA_PLATFORM", "xcb")
from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QApplication, QWidget

app = QApplication(sys.argv[:1])

import pyqtgraph as pg  # noqa: E402
import pyqtgraph.opengl as gl  # noqa: E402

from bme_desktop.core.schema import NODE_TYPES, RELATIONS  # noqa: E402
from bme_desktop.ui.resources import themes_dir  # noqa: E402
from bme_desktop.ui.theming import ThemeManager  # noqa: E402
from bme_desktop.ui.theming.colors import to_rgb  # noqa: E402
from bme_desktop.ui.views.graph2d._canvas import GraphCanvas  # noqa: E402
from bme_desktop.ui.views.graph_data import BUCKET_NAMES, TYPE_NAMES, FloatArray, GraphData, IntArray  # noqa: E402
from bme_desktop.ui.views.graph_state import GraphState  # noqa: E402
from bme_desktop.ui.views.nebula._geometry import clustered  # noqa: E402
from bme_desktop.ui.views.nebula._sprites import GlowScatterItem  # noqa: E402

try:  # pyqtgraph's own item, with its program per GL context (the class caches one for all)
    from bme_desktop.ui.views.nebula._sprites import DustScatterItem as BareScatter
except ImportError:
    BareScatter = gl.GLScatterPlotItem  # type: ignore[misc]

try:
    from bme_desktop.ui.views.nebula._scene import NebulaScene
except ImportError:  # an older tree (PYTHONPATH=<git archive of an old commit>): every point a glow

    class NebulaScene:  # type: ignore[no-redef]
        def __init__(self, view: gl.GLViewWidget) -> None:
            self.glow = GlowScatterItem(pos=np.zeros((0, 3), np.float32), pxMode=True)
            view.addItem(self.glow)
            self.glow_rows, self.dust_rows = np.zeros(0, np.int64), np.zeros(0, np.int64)

        def show(
            self, points: FloatArray, rgb: np.ndarray, alpha: np.ndarray, size: np.ndarray, must: np.ndarray
        ) -> None:
            self.glow_rows = np.arange(points.shape[0])
            colour = np.concatenate((rgb, alpha[:, None]), axis=1).astype(np.float32)
            self.glow.setData(pos=points.astype(np.float32), color=colour, size=size)

        def move(self, points: FloatArray) -> None:
            self.glow.setData(pos=points.astype(np.float32))


THEME = ThemeManager(themes_dir()).current
_closed: list[QWidget] = []  # GL views stay alive: their items' buffers must not outlive the context
W, H = 1000, 700


class _Source(QObject):
    """Stands in for GraphSource: the same signals, fixed data."""

    sigReset, sigNodesAdded, sigNodesChanged = Signal(), Signal(object), Signal(object)
    sigNodesRemoving, sigNodesRemoved, sigEdgesChanged = Signal(object), Signal(object), Signal()
    sigCommunities = Signal()

    def __init__(self, data: GraphData) -> None:
        super().__init__()
        self.data = data
        # communities colour the graph since they exist; none here: the muted colour, as before detection
        try:
            from bme_desktop.ui.views.communities import Communities

            self.communities = Communities()
        except ImportError:
            pass


def laid_out(n: int, seed: int = 2) -> FloatArray:
    """2D positions like a settled force layout's: a few dozen clumps of different sizes."""
    rng = np.random.default_rng(seed)
    k = max(1, int(np.sqrt(n) / 3))
    centres = rng.normal(size=(k, 2)) * np.sqrt(n) * 0.6
    spread = rng.uniform(0.05, 0.2, k) * np.sqrt(n)
    which = rng.integers(0, k, n)
    out: FloatArray = centres[which] + rng.normal(size=(n, 2)) * spread[which, None]
    return out


def local_edges(pos: FloatArray, m: int, seed: int = 5, far: float = 0.1) -> tuple[IntArray, IntArray]:
    """Mostly short edges, as after a layout: each joins near neighbours in a grid-cell order
    (a ``far`` share joins random nodes); ``--hairball`` uses only random ones (worst case)."""
    rng = np.random.default_rng(seed)
    n = pos.shape[0]
    cell = np.floor(pos / (np.ptp(pos, axis=0).max() / max(np.sqrt(n) / 4, 1.0) + 1e-9)).astype(np.int64)
    order = np.lexsort((cell[:, 1], cell[:, 0]))
    at = rng.integers(0, n, m)
    near = np.clip(at + rng.integers(-6, 7, m), 0, n - 1)
    a, b = order[at], order[near]
    wild = rng.random(m) < far
    b[wild] = rng.integers(0, n, int(wild.sum()))
    return a.astype(np.int64), b.astype(np.int64)


def synthetic(n: int, seed: int = 1, pos: FloatArray | None = None) -> GraphData:
    """n nodes and ~2n edges straight into the arrays (records would take minutes at 1M);
    with ``pos``, edges are mostly short (laid out), else they join random nodes."""
    rng = np.random.default_rng(seed)
    data = GraphData()
    rows = np.arange(n)
    data.ids = [f"n{i}" for i in range(n)]
    data.row = {node_id: i for i, node_id in enumerate(data.ids)}
    data.titles = [f"memory {i}" for i in range(n)]
    data.texts = [""] * n
    data.type_idx = (rows % len(NODE_TYPES)).astype(np.int64)
    data.tier_idx = np.array([0, 1, 1, 2], np.int64)[rows % 4]  # short, long, long, dormant
    data.owner_idx = np.where(rows % 5 == 0, 1 + rows % 3, 0).astype(np.int64)
    data.owners.names = ["", "o0", "o1", "o2"]
    data.region_idx = np.zeros(n, np.int64)
    data.importance = rng.uniform(0, 10, n)
    a, b = (
        local_edges(pos, 2 * n) if pos is not None else (rng.integers(0, n, 2 * n), rng.integers(0, n, 2 * n))
    )
    keep = a != b
    m = int(keep.sum())
    data.edge_ids = [f"e{k}" for k in range(m)]
    data.edge_row = {edge_id: k for k, edge_id in enumerate(data.edge_ids)}
    data.src, data.dst = a[keep].astype(np.int64), b[keep].astype(np.int64)
    relations = list(RELATIONS)
    rel = np.arange(m) % len(relations)
    data.bucket = np.array([GraphData._bucket(r) for r in relations], np.int64)[rel]
    data.inhibitory = np.array([GraphData._inhibitory(r) for r in relations], bool)[rel]
    data.invalid = rng.random(m) < 0.02
    data.strength = np.ones(m)
    assert data.bucket.max() < len(BUCKET_NAMES)
    return data


def fps(widget: QWidget, frame: Callable[[int], None], frames: int) -> float:
    """Painted frames per second of ``widget`` while ``frame(i)`` changes something each frame."""
    painted = [0]

    class _Counter(QObject):
        def eventFilter(self, obj: QObject, ev: object) -> bool:
            if getattr(ev, "type", lambda: None)() == ev.Type.Paint:  # type: ignore[attr-defined]
                painted[0] += 1
            return False

    target = widget.viewport() if hasattr(widget, "viewport") else widget
    counter = _Counter()
    target.installEventFilter(counter)
    for i in range(3):
        frame(-1 - i)
        app.processEvents()
    painted[0] = 0
    start = time.perf_counter()
    for i in range(frames):
        frame(i)
        app.processEvents()
    elapsed = time.perf_counter() - start
    target.removeEventFilter(counter)
    return max(painted[0], 1) / elapsed


def _show(widget: QWidget) -> None:
    widget.resize(W, H)
    widget.show()
    for _ in range(5):
        app.processEvents()


def bench_2d(n: int, frames: int, use_opengl: bool, hairball: bool) -> dict[str, float]:
    if hairball:
        pos = np.random.default_rng(2).normal(size=(n, 2)) * np.sqrt(n)
        data = synthetic(n)
    else:
        pos = laid_out(n)
        data = synthetic(n, pos=pos)
    jitter = np.random.default_rng(4).normal(size=(n, 2)) * 0.05 * np.sqrt(n) / 30
    out: dict[str, float] = {}
    canvas = GraphCanvas(GraphState(_Source(data)), THEME, use_opengl=use_opengl)  # type: ignore[arg-type]
    _show(canvas)
    canvas.pos = pos
    canvas.refresh()
    canvas.vb.autoRange()
    step = canvas.vb.viewRect().width() / 200
    out["static"] = fps(canvas, lambda i: canvas.vb.translateBy(x=step if i % 20 < 10 else -step), frames)
    out["stream"] = fps(canvas, lambda i: canvas.move(pos + jitter * (i % 10)), frames)
    canvas.close()
    bare = pg.GraphicsView()
    if use_opengl:
        bare.useOpenGL(True)
    vb = pg.ViewBox()
    bare.setCentralItem(vb)
    scatter = pg.ScatterPlotItem(
        x=pos[:, 0], y=pos[:, 1], size=10, pen=None, brush=pg.mkBrush(THEME.node_color("event"))
    )
    vb.addItem(scatter)
    _show(bare)
    vb.autoRange()
    out["static floor"] = fps(bare, lambda i: vb.translateBy(x=step if i % 20 < 10 else -step), frames)

    def bare_move(i: int) -> None:
        moved = pos + jitter * (i % 10)
        scatter.setData(x=moved[:, 0], y=moved[:, 1])

    out["stream floor"] = fps(bare, bare_move, frames)
    bare.close()
    return out


def bench_3d(n: int, frames: int) -> dict[str, float]:
    rng = np.random.default_rng(3)
    types = rng.integers(0, len(NODE_TYPES), n)
    base = rng.normal(size=(n, 3))
    pts = clustered(base, types, len(NODE_TYPES) + 1)
    rgb = (np.array([to_rgb(THEME.node_color(t)) for t in (*TYPE_NAMES, "")], np.float32) / 255.0)[types]
    alpha = np.where(rng.random(n) < 0.25, 0.5, 1.0).astype(np.float32)
    importance = rng.uniform(0, 10, n).astype(np.float32)
    crowd = float(np.clip(np.sqrt(3000.0 / n), 0.35, 1.0))  # as NebulaView._restyle
    size = ((5.0 + 2.2 * importance) * 2.4 * crowd).astype(np.float32)
    out: dict[str, float] = {}
    view = gl.GLViewWidget()
    view.setCameraPosition(distance=34.0, elevation=20.0, azimuth=35.0)
    scene = NebulaScene(view)
    scene.show(pts, rgb, alpha, size, np.zeros(n, bool))
    _show(view)
    out["static"] = fps(view, lambda i: view.orbit(0.5, 0.0), frames)
    drift = rng.normal(size=(n, 3)) * 0.02

    def stream(i: int) -> None:
        scene.move(pts + drift * (i % 10))
        view.orbit(0.5, 0.0)

    out["stream"] = fps(view, stream, frames)
    out["glows"], out["dust"] = float(scene.glow_rows.size), float(scene.dust_rows.size)
    view.close()
    _closed.append(view)
    gl.GLScatterPlotItem._shaderProgram = None  # pyqtgraph caches one program for all contexts
    floor_view = gl.GLViewWidget()
    floor_view.setCameraPosition(distance=34.0, elevation=20.0, azimuth=35.0)
    colour = np.concatenate((rgb, alpha[:, None]), axis=1).astype(np.float32)
    bare = BareScatter(pos=pts.astype(np.float32), color=colour, size=2.0, pxMode=True)
    floor_view.addItem(bare)
    _show(floor_view)
    out["static floor"] = fps(floor_view, lambda i: floor_view.orbit(0.5, 0.0), frames)

    def bare_stream(i: int) -> None:
        bare.setData(pos=(pts + drift * (i % 10)).astype(np.float32))
        floor_view.orbit(0.5, 0.0)

    out["stream floor"] = fps(floor_view, bare_stream, frames)
    floor_view.close()
    _closed.append(floor_view)
    return out


def median_runs(run: Callable[[], dict[str, float]], repeat: int) -> dict[str, float]:
    runs = [run() for _ in range(repeat)]
    return {k: statistics.median(r[k] for r in runs) for k in runs[0]}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", choices=("2d", "3d"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--frames", type=int, default=30)
    parser.add_argument("--sizes2d", default="1000,10000,50000")
    parser.add_argument("--sizes3d", default="10000,100000,1000000")
    parser.add_argument("--hairball", action="store_true", help="2D edges join random nodes (long, crossing)")
    parser.add_argument("--opengl", action="store_true", help="also the 2D canvas on the GL viewport")
    args = parser.parse_args()
    from bme_desktop.ui.views.gl_probe import opengl_problem

    problem = opengl_problem()
    print(f"platform {app.platformName()}, OpenGL: {problem or 'yes'}; {W}x{H}, median of {args.repeat}")
    if args.only != "3d":
        for n in (int(s) for s in args.sizes2d.split(",")):
            for use_gl in (False, True) if args.opengl and not problem else (False,):
                r = median_runs(
                    functools.partial(bench_2d, n, args.frames, use_gl, args.hairball), args.repeat
                )
                print(
                    f"2D {n:>7} nodes {2 * n:>7} {'random' if args.hairball else 'local'} edges "
                    f"{'GL    ' if use_gl else 'raster'}: "
                    f"static {r['static']:6.1f} fps (bare scatter {r['static floor']:6.1f}) | "
                    f"streaming {r['stream']:6.1f} fps (bare setData {r['stream floor']:6.1f})",
                    flush=True,
                )
    if args.only != "2d" and not problem:
        for n in (int(s) for s in args.sizes3d.split(",")):
            r = median_runs(functools.partial(bench_3d, n, args.frames), args.repeat)
            print(
                f"nebula {n:>7} points ({r['glows']:.0f} glows, {r['dust']:.0f} dust): "
                f"static {r['static']:6.1f} fps (bare 2px points {r['static floor']:6.1f}) | "
                f"streaming {r['stream']:6.1f} fps (bare setData {r['stream floor']:6.1f})",
                flush=True,
            )


if __name__ == "__main__":
    main()
