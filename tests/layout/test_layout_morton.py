"""Morton codes and the tree levels built from them."""

from __future__ import annotations

import numpy as np
import pytest

from bme_desktop.layout.morton import MAX_DEPTH, MortonTree, expand_ranges, morton_encode, quantize


def _naive_code(cell: np.ndarray, bits: int) -> int:
    code = 0
    dim = len(cell)
    for bit in range(bits):
        for axis in range(dim):
            code |= ((int(cell[axis]) >> bit) & 1) << (bit * dim + axis)
    return code


@pytest.mark.parametrize("dim", [2, 3])
def test_encode_matches_bit_by_bit_interleaving(dim: int) -> None:
    rng = np.random.default_rng(3)
    cells = rng.integers(0, 1 << MAX_DEPTH, size=(200, dim))
    codes = morton_encode(cells)
    expected = [_naive_code(c, MAX_DEPTH) for c in cells]
    assert [int(c) for c in codes] == expected


def test_quantize_keeps_points_inside_the_grid() -> None:
    pos = np.array([[0.0, 0.0], [1.0, 2.0], [2.0, 2.0]])
    cells, origin, side = quantize(pos, depth=4)
    assert cells.min() >= 0 and cells.max() <= 15
    assert np.allclose(origin, [0.0, 0.0])
    assert side >= 2.0
    # Coincident points and a single point do not divide by zero.
    same, _, side1 = quantize(np.zeros((3, 3)), depth=4)
    assert (same == 0).all() and side1 > 0


@pytest.mark.parametrize("dim", [2, 3])
def test_levels_partition_points_with_correct_mass_and_centre(dim: int) -> None:
    rng = np.random.default_rng(5)
    pos = rng.normal(size=(500, dim))
    mass = rng.uniform(1.0, 3.0, size=500)
    tree = MortonTree(pos, mass)
    assert np.allclose(tree.pos, pos[tree.order])
    for depth in (0, 1, 3, 6):
        lvl = tree.level(depth)
        assert lvl.counts.sum() == 500
        assert np.allclose(lvl.mass.sum(), mass.sum())
        # Every point of a cell lies in the cell's box, and the centre of mass is right.
        owner = np.repeat(np.arange(lvl.counts.shape[0]), lvl.counts)
        lo = lvl.lower[owner]
        assert (tree.pos >= lo - 1e-9).all() and (tree.pos <= lo + lvl.width + 1e-9).all()
        k = int(np.argmax(lvl.counts))
        sl = slice(lvl.starts[k], lvl.starts[k] + lvl.counts[k])
        expect = (tree.pos[sl] * tree.mass[sl, None]).sum(0) / tree.mass[sl].sum()
        assert np.allclose(lvl.com[k], expect)
    first, n_children = tree.children(2)
    assert n_children.sum() == tree.level(3).counts.shape[0]
    assert (n_children >= 1).all() and (n_children <= 2**dim).all()
    assert first[0] == 0


def test_expand_ranges() -> None:
    got = expand_ranges(np.array([5, 0, 9]), np.array([2, 0, 3]))
    assert got.tolist() == [5, 6, 9, 10, 11]
    assert expand_ranges(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)).size == 0
