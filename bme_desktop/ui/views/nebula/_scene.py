"""NebulaScene: what the nebula draws, with a level of detail sized for software GL.

On Mesa llvmpipe a frame costs about the sum of (a) the fragments of every sprite — the glow
shader runs per covered pixel, so big sprites are fill-rate bound — and (b) a fixed cost per
point of the point-sprite pipeline (~1 µs each on 2 shared cores). So:

* the ``GLOW_BUDGET`` most prominent memories (by drawn size; the selected, highlighted and
  searched ones always) are drawn as soft glow sprites (:class:`GlowScatterItem`), scaled down
  (to no less than ``MIN_GLOW_SCALE``) when their total area passes ``FILL_BUDGET``;
* every other memory is "dust": a 2 px point of its type's colour, additively blended, from a
  :class:`DustScatterItem` (pyqtgraph's plain disc shader: cheap fragments);
* above ``DUST_BUDGET`` dust points, a fixed pseudo-random subset of them is drawn (the same
  rows every frame, so nothing flickers) with its alpha raised by the thinning factor, so the
  cloud keeps its brightness; at these counts the dust covers the clouds densely anyway.

Below ``GLOW_BUDGET`` memories everything is a glow sprite, as before. While positions stream,
:meth:`move` re-uploads only the positions of the rows drawn (no restyle).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pyqtgraph.opengl as gl

from ..graph_data import BoolArray, FloatArray, IntArray
from ._sprites import DustScatterItem, GlowScatterItem

GLOW_BUDGET = 2000  # glow sprites drawn at most
FILL_BUDGET = 600_000.0  # px² of glow sprites (sum of size²) before they are drawn smaller
MIN_GLOW_SCALE = 0.6  # never smaller than this share of their size
DUST_BUDGET = 25000  # small points drawn at most (each costs ~0.4 µs of llvmpipe vertex work)
DUST_SIZE = 2.0  # px
MAX_THINNING_BOOST = 4.0  # alpha gain at most for a thinned dust cloud

F32 = npt.NDArray[np.float32]


def _stable_rank(n: int) -> FloatArray:
    """A fixed value in [0, 1) per row (a multiplicative hash): thinning picks the same rows."""
    rows = np.arange(n, dtype=np.uint64)
    return ((rows * np.uint64(2654435761)) % np.uint64(2**32)).astype(np.float64) / 2.0**32


def level_of_detail(
    size: F32, must: BoolArray, glow_budget: int = GLOW_BUDGET, dust_budget: int = DUST_BUDGET
) -> tuple[IntArray, IntArray, float]:
    """Rows drawn as glows, rows drawn as dust, and the dust's alpha gain.

    Rows with size 0 are hidden. ``must`` rows (selected, highlighted, searched) are glows first,
    then the largest sprites up to ``glow_budget``; the rest is dust, thinned to ``dust_budget``.
    """
    visible = size > 0
    n_visible = int(visible.sum())
    if n_visible <= glow_budget:
        return np.flatnonzero(visible), np.zeros(0, np.int64), 1.0
    forced = np.flatnonzero(must & visible)
    room = max(glow_budget - forced.size, 0)
    rest = visible & ~must
    key = np.where(rest, size, -1.0)
    if room > 0:
        top = np.argpartition(-key, room - 1)[:room]
        top = top[key[top] > 0]
    else:
        top = np.zeros(0, np.int64)
    glow = np.sort(np.concatenate((forced, top)).astype(np.int64))
    rest[top] = False
    dust = np.flatnonzero(rest)
    gain = 1.0
    if dust.size > dust_budget:
        keep = _stable_rank(size.size)[dust] < dust_budget / dust.size
        gain = min(dust.size / max(int(keep.sum()), 1), MAX_THINNING_BOOST)
        dust = dust[keep]
    return glow, dust.astype(np.int64), gain


class NebulaScene:
    """The two GL items of the nebula; ``show`` restyles, ``move`` streams positions."""

    def __init__(self, view: gl.GLViewWidget) -> None:
        self.glow = GlowScatterItem(pos=np.zeros((0, 3), np.float32), pxMode=True)
        self.dust = DustScatterItem(pos=np.zeros((0, 3), np.float32), pxMode=True)
        view.addItem(self.dust)
        view.addItem(self.glow)
        self.glow_rows: IntArray = np.zeros(0, np.int64)
        self.dust_rows: IntArray = np.zeros(0, np.int64)
        self.drawn_size: F32 = np.zeros(0, np.float32)

    def show(self, points: FloatArray, rgb: F32, alpha: F32, size: F32, must: BoolArray) -> None:
        """Restyle: colour (rgb per row), alpha, glow size (0 hides) and the rows kept as glows."""
        glow, dust, gain = level_of_detail(size, must)
        self.glow_rows, self.dust_rows = glow, dust
        colour = np.concatenate((rgb, alpha[:, None]), axis=1).astype(np.float32)
        glow_size = size[glow]
        fill = float(np.square(glow_size, dtype=np.float64).sum())
        scale = float(np.clip(np.sqrt(FILL_BUDGET / fill), MIN_GLOW_SCALE, 1.0)) if fill > 0 else 1.0
        self.drawn_size = np.zeros(size.size, np.float32)  # px on screen; 0: not drawn (hidden or thinned)
        self.drawn_size[glow] = glow_size * scale
        self.drawn_size[dust] = DUST_SIZE
        self.glow.setData(pos=points[glow].astype(np.float32), color=colour[glow], size=glow_size * scale)
        dust_colour = colour[dust]
        dust_colour[:, 3] = np.clip(dust_colour[:, 3] * 0.8 * gain, 0.0, 1.0)
        self.dust.setData(
            pos=points[dust].astype(np.float32),
            color=dust_colour,
            size=np.full(dust.size, DUST_SIZE, np.float32),
        )

    def move(self, points: FloatArray) -> None:
        """New positions for the same rows and styles."""
        self.glow.setData(pos=points[self.glow_rows].astype(np.float32))
        self.dust.setData(pos=points[self.dust_rows].astype(np.float32))
