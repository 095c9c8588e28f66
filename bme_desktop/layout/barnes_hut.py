"""Barnes–Hut repulsion, vectorised level by level over a Morton-code tree.

The force is ForceAtlas2's: node ``i`` is pushed away from node ``j`` with
magnitude ``scale * m_i * m_j / d`` (so the vector is
``scale * m_i * m_j * (x_i - x_j) / d**2``).

How the approximation is organised
----------------------------------
Instead of walking the tree once per point, the walk is done once per *level*
for all cells at once, as arrays of (target cell, source cell) pairs:

* On level ``L`` every still-open target cell ``c`` holds a list of source
  cells ("near list"). The root starts with itself.
* Going to level ``L + 1``, each pair (c, b) becomes the pairs
  (child of c, child of b).
* A pair is *accepted* when ``width(b) / dist(box(c), com(b)) < theta``: the
  distance is taken from the nearest point of ``c``'s box, so the classic
  Barnes–Hut opening criterion ``s / d < theta`` then holds for *every* point
  of ``c``, not only on average. Accepted pairs give each point of ``c`` the
  monopole force of ``b`` (its mass at its centre of mass).
* Accepted pairs whose target cell holds several points and is small against
  the distance are added to the target cell's second-order Taylor expansion
  (:mod:`.expansion`) instead; expansions are moved down to the children
  exactly and evaluated once per point where its cell stops.
* Rejected pairs stay in the near list. When the near list of a cell holds at
  most ``leaf_size`` points, the cell stops and its points interact exactly
  with every point of its near list. (At the full depth of 21 levels, points
  of one cell count as coincident.)

Each source point is accounted for exactly once per target point: either
through one accepted ancestor cell or through the exact near-field sum, so the
only error is the monopole (and expansion) truncation. ``tests/layout``
compares this against the exact O(n²) sum.
"""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt

from . import expansion
from .morton import MortonTree, expand_ranges

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

DEFAULT_THETA = 1.0
DEFAULT_LEAF_SIZE = 32
DEFAULT_EXPAND_MIN = 2
DEFAULT_ETA = 0.5


def exact_repulsion(pos: FloatArray, mass: FloatArray, scale: float = 1.0, chunk: int = 2048) -> FloatArray:
    """The same force summed over all pairs, O(n²); a reference for tests and small graphs."""
    pos = np.asarray(pos, dtype=np.float64)
    mass = np.asarray(mass, dtype=np.float64)
    n = pos.shape[0]
    out = np.zeros_like(pos)
    for lo in range(0, n, chunk):
        hi = min(n, lo + chunk)
        diff = pos[lo:hi, None, :] - pos[None, :, :]
        d2 = np.einsum("ijk,ijk->ij", diff, diff)
        same = d2 == 0.0
        d2[same] = 1.0
        w = mass[None, :] / d2
        w[same] = 0.0
        out[lo:hi] = np.einsum("ij,ijk->ik", w, diff)
    out *= (scale * mass)[:, None]
    return out


#: Pairs handled at once: bounds the temporaries (and keeps them nearer the cache).
CHUNK = 1 << 17


def _chunks(sizes: IntArray, limit: int | None = None) -> list[slice]:
    """Consecutive slices of ``sizes`` whose sums stay near ``limit`` (one item may exceed it)."""
    limit = CHUNK if limit is None else limit
    total = int(sizes.sum()) if sizes.shape[0] else 0
    if total <= limit:
        return [slice(0, sizes.shape[0])]
    ends = np.cumsum(sizes)
    cuts = np.unique(np.searchsorted(ends, np.arange(limit, total, limit), side="right"))
    bounds = [0, *[int(x) for x in cuts if 0 < x < sizes.shape[0]], sizes.shape[0]]
    return [slice(lo, hi) for lo, hi in itertools.pairwise(bounds) if hi > lo]


def _accumulate(acc: FloatArray, idx: IntArray, diff: FloatArray, w: FloatArray) -> None:
    """``acc[idx] += w * diff`` with repeated indices."""
    n = acc.shape[0]
    for axis in range(acc.shape[1]):
        acc[:, axis] += np.bincount(idx, weights=w * diff[:, axis], minlength=n)


def _far_field(tree: MortonTree, depth: int, c: IntArray, b: IntArray, acc: FloatArray) -> int:
    """Each point of target cell ``c`` feels the monopole of source cell ``b``."""
    lvl = tree.level(depth)
    total = 0
    for part in _chunks(lvl.counts[c]):
        cc = c[part]
        cnt = lvl.counts[cc]
        i = expand_ranges(lvl.starts[cc], cnt)
        bb = np.repeat(b[part], cnt)
        diff = tree.pos[i] - lvl.com[bb]
        d2 = np.einsum("ij,ij->i", diff, diff)
        np.maximum(d2, 1e-300, out=d2)
        _accumulate(acc, i, diff, lvl.mass[bb] / d2)
        total += int(i.shape[0])
    return total


def _near_field(tree: MortonTree, depth: int, c: IntArray, b: IntArray, acc: FloatArray) -> int:
    """Each point of target cell ``c`` feels every point of source cell ``b`` exactly."""
    lvl = tree.level(depth)
    total = 0
    for part in _chunks(lvl.counts[c] * lvl.counts[b]):
        cc = c[part]
        cnt_c = lvl.counts[cc]
        i = expand_ranges(lvl.starts[cc], cnt_c)
        bb = np.repeat(b[part], cnt_c)
        cnt_b = lvl.counts[bb]
        j = expand_ranges(lvl.starts[bb], cnt_b)
        i = np.repeat(i, cnt_b)
        keep = i != j
        i = i[keep]
        j = j[keep]
        diff = tree.pos[i] - tree.pos[j]
        d2 = np.einsum("ij,ij->i", diff, diff)
        # Coincident points have diff == 0 and so get no force whatever d2 is.
        np.maximum(d2, 1e-300, out=d2)
        _accumulate(acc, i, diff, tree.mass[j] / d2)
        total += int(i.shape[0])
    return total


class RepulsionStats:
    """Counts of the last call, for the bench and tests."""

    __slots__ = ("candidates", "depth", "expanded", "far", "near")

    def __init__(self) -> None:
        self.candidates = 0
        self.expanded = 0
        self.far = 0
        self.near = 0
        self.depth = 0


class _Walk:
    """State of one repulsion walk: the tree, the forces so far, the cells' expansions."""

    def __init__(self, tree: MortonTree, theta: float, expand_min: int, eta: float) -> None:
        self.tree = tree
        self.acc: FloatArray = np.zeros_like(tree.pos)
        self.local: FloatArray | None = None  # expansions about the cell centres of the current level
        self.theta2 = theta * theta
        self.expand_min = expand_min
        self.eta2 = eta * eta
        self.candidates = self.far = self.expanded = self.near = 0

    def descend(self, depth: int, first: IntArray, n_children: IntArray) -> None:
        """Move the expansions from the centres of level ``depth - 1`` to their children's."""
        if self.local is None:
            return
        parent = np.repeat(np.arange(first.shape[0]), n_children)
        delta = self.tree.level(depth).centre - self.tree.level(depth - 1).centre[parent]
        self.local = expansion.translate(self.local[:, parent], delta.T)

    def accept(self, depth: int, c: IntArray, b: IntArray) -> tuple[IntArray, IntArray]:
        """Apply the pairs that pass the opening criterion; return the ones that stay open."""
        lvl = self.tree.level(depth)
        self.candidates += int(c.shape[0])
        # Distance from the target box to the source's centre of mass, per axis.
        r = lvl.centre[c] - lvl.com[b]
        gap = np.maximum(np.abs(r) - 0.5 * lvl.width, 0.0)
        far = np.einsum("ij,ij->i", gap, gap) * self.theta2 > lvl.width * lvl.width
        if not far.any():
            return c, b
        fc = c[far]
        fb = b[far]
        if self.expand_min > 0:
            rf = r[far]
            rho2 = 0.25 * self.tree.dim * lvl.width * lvl.width
            ex = (lvl.counts[fc] >= self.expand_min) & (np.einsum("ij,ij->i", rf, rf) * self.eta2 >= rho2)
            if ex.any():
                self._expand(depth, fc[ex], np.ascontiguousarray(rf[ex].T), lvl.mass[fb[ex]])
                fc = fc[~ex]
                fb = fb[~ex]
        self.far += _far_field(self.tree, depth, fc, fb, self.acc)
        keep = ~far
        return c[keep], b[keep]

    def _expand(self, depth: int, c: IntArray, r: FloatArray, mass: FloatArray) -> None:
        n_cells = self.tree.level(depth).counts.shape[0]
        coef = expansion.coefficients(r, mass)
        if self.local is None:
            self.local = np.zeros((coef.shape[0], n_cells))
        for row in range(coef.shape[0]):
            self.local[row] += np.bincount(c, weights=coef[row], minlength=n_cells)
        self.expanded += int(c.shape[0])

    def evaluate(self, depth: int, cells: IntArray) -> None:
        """Add each stopping cell's expansion, evaluated at its own points."""
        if self.local is None or cells.shape[0] == 0:
            return
        lvl = self.tree.level(depth)
        cnt = lvl.counts[cells]
        i = expand_ranges(lvl.starts[cells], cnt)
        owner = np.repeat(cells, cnt)
        # i is a set of disjoint ranges, so plain fancy-index addition is safe.
        offset = (self.tree.pos[i] - lvl.centre[owner]).T
        self.acc[i] += expansion.evaluate(self.local[:, owner], offset).T


def repulsion(
    pos: FloatArray,
    mass: FloatArray,
    *,
    scale: float = 1.0,
    theta: float = DEFAULT_THETA,
    leaf_size: int = DEFAULT_LEAF_SIZE,
    expand_min: int = DEFAULT_EXPAND_MIN,
    eta: float = DEFAULT_ETA,
    stats: RepulsionStats | None = None,
) -> FloatArray:
    """Barnes–Hut approximation of :func:`exact_repulsion`, shape ``(n, dim)``.

    ``theta`` is the opening criterion (cell width over distance from the
    target cell's box to the source's centre of mass); smaller is more exact
    and slower. ``leaf_size`` is how many near points a cell may hold before it
    is split further instead of summed exactly. An accepted pair whose target
    cell holds at least ``expand_min`` points and whose target radius over
    distance is at most ``eta`` goes into the cell's Taylor expansion instead
    of being evaluated point by point (``expand_min=0`` turns that off).
    """
    pos = np.asarray(pos, dtype=np.float64)
    mass = np.asarray(mass, dtype=np.float64)
    n = pos.shape[0]
    if theta <= 0.0:
        raise ValueError("theta must be positive")
    if n < 2:
        return np.zeros_like(pos)
    walk = _Walk(MortonTree(pos, mass), theta, expand_min, eta)
    tree = walk.tree
    near_c = np.zeros(1, dtype=np.int64)
    near_b = np.zeros(1, dtype=np.int64)
    depth = 0
    for depth in range(1, tree.depth + 1):
        first, n_children = tree.children(depth - 1)
        lvl = tree.level(depth)
        n_cells = lvl.counts.shape[0]
        walk.descend(depth, first, n_children)

        # Candidate pairs: the children of each open (target, source) pair of the level above,
        # taken a chunk of parent pairs at a time; accepted ones are applied at once.
        active = np.zeros(n_cells, dtype=bool)
        per_parent = n_children[near_c] * n_children[near_b]
        open_c: list[IntArray] = []
        open_b: list[IntArray] = []
        for part in _chunks(per_parent):
            pc = near_c[part]
            pb = near_b[part]
            k = n_children[pc]
            c = expand_ranges(first[pc], k)
            b_parent = np.repeat(pb, k)
            k2 = n_children[b_parent]
            b = expand_ranges(first[b_parent], k2)
            c = np.repeat(c, k2)
            active[c] = True
            c, b = walk.accept(depth, c, b)
            open_c.append(c)
            open_b.append(b)
        c = np.concatenate(open_c)
        b = np.concatenate(open_b)

        if depth == tree.depth:
            # Cells of the finest grid are 2**-21 of the layout wide: their points are as
            # good as coincident. They do not push each other (as exactly coincident points
            # do not), neighbouring cells act through their monopoles, and a pile of
            # duplicates costs O(k), not O(k²).
            other = c != b
            walk.far += _far_field(tree, depth, c[other], b[other], walk.acc)
            walk.evaluate(depth, np.flatnonzero(active))
            break
        # Target cells whose open list holds few enough points stop here and sum exactly.
        near_count = np.bincount(c, weights=lvl.counts[b], minlength=n_cells)
        stop_cell = active & (near_count <= leaf_size)
        stop = stop_cell[c]
        if stop.any():
            walk.near += _near_field(tree, depth, c[stop], b[stop], walk.acc)
            c = c[~stop]
            b = b[~stop]
        walk.evaluate(depth, np.flatnonzero(stop_cell))
        if c.shape[0] == 0:
            break
        near_c, near_b = c, b
    acc = walk.acc
    if stats is not None:
        stats.candidates = walk.candidates
        stats.far = walk.far
        stats.expanded = walk.expanded
        stats.near = walk.near
        stats.depth = depth
    acc *= (scale * tree.mass)[:, None]
    out = np.empty_like(acc)
    out[tree.order] = acc
    return out
