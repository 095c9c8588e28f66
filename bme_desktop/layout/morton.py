"""Morton (Z-order) codes and the quadtree/octree levels built from them.

Points are quantised onto a ``2**MAX_DEPTH`` grid inside a cube that bounds
them, their integer coordinates are bit-interleaved into one ``uint64`` code,
and the points are sorted by that code once. After that, every cell of every
level of the quadtree (2D) or octree (3D) is a contiguous run of the sorted
points: the cells of level ``L`` are the distinct values of
``code >> (dim * (MAX_DEPTH - L))``. A level is therefore a handful of array
operations (shift, diff, ``np.add.reduceat``), never a Python object per node.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
CodeArray = npt.NDArray[np.uint64]

#: Levels below the root; 21 levels x 3 axes = 63 bits still fit in a uint64.
MAX_DEPTH = 21

_U = np.uint64


def _spread_2d(v: CodeArray) -> CodeArray:
    """Insert one zero bit between the low 32 bits of each value."""
    v = v & _U(0x00000000FFFFFFFF)
    v = (v | (v << _U(16))) & _U(0x0000FFFF0000FFFF)
    v = (v | (v << _U(8))) & _U(0x00FF00FF00FF00FF)
    v = (v | (v << _U(4))) & _U(0x0F0F0F0F0F0F0F0F)
    v = (v | (v << _U(2))) & _U(0x3333333333333333)
    v = (v | (v << _U(1))) & _U(0x5555555555555555)
    return v


def _spread_3d(v: CodeArray) -> CodeArray:
    """Insert two zero bits between the low 21 bits of each value."""
    v = v & _U(0x1FFFFF)
    v = (v | (v << _U(32))) & _U(0x1F00000000FFFF)
    v = (v | (v << _U(16))) & _U(0x1F0000FF0000FF)
    v = (v | (v << _U(8))) & _U(0x100F00F00F00F00F)
    v = (v | (v << _U(4))) & _U(0x10C30C30C30C30C3)
    v = (v | (v << _U(2))) & _U(0x1249249249249249)
    return v


def morton_encode(cells: npt.NDArray[np.integer]) -> CodeArray:
    """Interleave the bits of integer grid coordinates, shape ``(n, dim)``, into codes.

    Axis 0 takes the lowest bit of each group, so in 2D the code of ``(x, y)``
    is ``... y1 x1 y0 x0``.
    """
    cells = np.asarray(cells)
    if cells.ndim != 2 or cells.shape[1] not in (2, 3):
        raise ValueError("cells must have shape (n, 2) or (n, 3)")
    dim = cells.shape[1]
    spread = _spread_2d if dim == 2 else _spread_3d
    code = np.zeros(cells.shape[0], dtype=np.uint64)
    for axis in range(dim):
        code |= spread(cells[:, axis].astype(np.uint64)) << _U(axis)
    return code


def quantize(pos: FloatArray, depth: int = MAX_DEPTH) -> tuple[IntArray, FloatArray, float]:
    """Map positions to integer cells of a ``2**depth`` grid over their bounding cube.

    Returns ``(cells, origin, side)``: cell ``k`` along an axis covers
    ``[origin + k * side / 2**depth, origin + (k + 1) * side / 2**depth)``.
    The cube is a little larger than the bounding box so that no point sits on
    its upper face.
    """
    lo = pos.min(axis=0)
    hi = pos.max(axis=0)
    side = float((hi - lo).max())
    if not np.isfinite(side):
        raise ValueError("positions must be finite")
    if side <= 0.0:
        side = 1.0
    side *= 1.0 + 1e-9
    scale = (1 << depth) / side
    cells = np.floor((pos - lo) * scale).astype(np.int64)
    np.clip(cells, 0, (1 << depth) - 1, out=cells)
    return cells, lo.astype(np.float64), side


@dataclass(frozen=True)
class Level:
    """The occupied cells of one tree level, in Morton order.

    ``starts[k]`` and ``counts[k]`` delimit cell ``k``'s points in the sorted
    order; ``cells`` are its integer coordinates on this level's grid; ``mass``
    and ``com`` its total mass and centre of mass; ``lower`` and ``centre``
    the lower corner and centre of its box.
    """

    depth: int
    starts: IntArray
    counts: IntArray
    cells: IntArray
    mass: FloatArray
    com: FloatArray
    width: float
    lower: FloatArray  # lower corner of each cell, world units, shape (k, dim)
    centre: FloatArray  # centre of each cell's box, world units, shape (k, dim)


class MortonTree:
    """Sorted points plus lazily built levels of the quadtree/octree.

    ``order`` maps sorted position to original index; ``pos`` and ``mass`` are
    in sorted order. ``level(L)`` builds level ``L`` on demand.
    """

    def __init__(self, pos: FloatArray, mass: FloatArray, depth: int = MAX_DEPTH) -> None:
        if pos.ndim != 2 or pos.shape[1] not in (2, 3):
            raise ValueError("pos must have shape (n, 2) or (n, 3)")
        if pos.shape[0] == 0:
            raise ValueError("a tree needs at least one point")
        self.dim: int = int(pos.shape[1])
        self.depth = depth
        cells, origin, side = quantize(pos, depth)
        codes = morton_encode(cells)
        order = np.argsort(codes, kind="stable")
        self.order: IntArray = order.astype(np.int64)
        self.codes: CodeArray = codes[order]
        self.cells: IntArray = cells[order]
        self.pos: FloatArray = np.ascontiguousarray(pos[order], dtype=np.float64)
        self.mass: FloatArray = np.ascontiguousarray(mass[order], dtype=np.float64)
        self.weighted: FloatArray = self.pos * self.mass[:, None]
        self.origin = origin
        self.side = side
        self._levels: dict[int, Level] = {}

    @property
    def n(self) -> int:
        return int(self.pos.shape[0])

    def level(self, depth: int) -> Level:
        """Level ``depth`` (0 is the root cell holding every point)."""
        cached = self._levels.get(depth)
        if cached is not None:
            return cached
        shift = _U(self.dim * (self.depth - depth))
        keys = self.codes >> shift
        starts = np.flatnonzero(np.diff(keys)) + 1
        starts = np.concatenate((np.zeros(1, dtype=np.int64), starts.astype(np.int64)))
        counts = np.diff(np.append(starts, self.n))
        mass = np.add.reduceat(self.mass, starts)
        com = np.add.reduceat(self.weighted, starts, axis=0)
        safe = np.where(mass > 0.0, mass, 1.0)
        com /= safe[:, None]
        cells = self.cells[starts] >> (self.depth - depth)
        width = self.side / float(1 << depth)
        lower = self.origin + cells * width
        lvl = Level(depth, starts, counts, cells, mass, com, width, lower, lower + 0.5 * width)
        self._levels[depth] = lvl
        return lvl

    def children(self, depth: int) -> tuple[IntArray, IntArray]:
        """``(first_child, n_children)`` of each cell of level ``depth`` in level ``depth + 1``."""
        parent = self.level(depth)
        child = self.level(depth + 1)
        first = np.searchsorted(child.starts, parent.starts).astype(np.int64)
        n_children = np.diff(np.append(first, child.starts.shape[0])).astype(np.int64)
        return first, n_children


def expand_ranges(starts: IntArray, counts: IntArray) -> IntArray:
    """Concatenate ``arange(s, s + c)`` for each pair, without a Python loop."""
    total = int(counts.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    excl = np.cumsum(counts) - counts
    return np.repeat(starts - excl, counts) + np.arange(total, dtype=np.int64)
