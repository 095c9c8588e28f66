"""Layout-quality measures."""

from __future__ import annotations

import itertools

import numpy as np

from bme_desktop.layout import (
    ForceLayout,
    LayoutSettings,
    layout_quality,
    neighborhood_preservation,
    normalized_stress,
)


def test_path_on_a_line_is_perfect() -> None:
    n = 30
    edges = [[i, i + 1] for i in range(n - 1)]
    pos = np.column_stack((np.arange(n) * 3.0, np.zeros(n)))
    assert normalized_stress(pos, edges) < 1e-12
    # Each inner node's 2 nearest layout nodes are its 2 graph neighbours.
    assert neighborhood_preservation(pos, edges) > 0.95


def test_shuffled_layout_scores_worse() -> None:
    n = 30
    edges = [[i, i + 1] for i in range(n - 1)]
    pos = np.column_stack((np.arange(n) * 3.0, np.zeros(n)))
    shuffled = pos[np.random.default_rng(0).permutation(n)]
    assert normalized_stress(shuffled, edges) > 0.1
    assert neighborhood_preservation(shuffled, edges) < 0.5


def test_degenerate_inputs() -> None:
    assert neighborhood_preservation(np.zeros((1, 2)), np.zeros((0, 2))) == 0.0
    assert normalized_stress(np.zeros((3, 2)), np.zeros((0, 2))) == 0.0
    assert normalized_stress(np.zeros((3, 2)), [[0, 1]]) == 1.0  # all at one point


def test_pivots_sample_large_graphs() -> None:
    rng = np.random.default_rng(1)
    edges = rng.integers(0, 2000, size=(4000, 2))
    pos = rng.normal(size=(2000, 2))
    s1 = normalized_stress(pos, edges, pivots=64, seed=0)
    s2 = normalized_stress(pos, edges, pivots=64, seed=0)
    assert s1 == s2 and 0.0 < s1 < 1.0


def test_laid_out_graph_beats_a_random_layout() -> None:
    rng = np.random.default_rng(2)
    # Communities: 8 groups of 25 with dense insides and a few links between.
    edges = []
    for g in range(8):
        members = range(25 * g, 25 * (g + 1))
        pairs = list(itertools.combinations(members, 2))
        pick = rng.choice(len(pairs), size=60, replace=False)
        edges += [pairs[k] for k in pick]
    edges += rng.integers(0, 200, size=(20, 2)).tolist()
    edges_arr = np.array(edges)
    for dim in (2, 3):
        lay = ForceLayout(200, edges_arr, settings=LayoutSettings(dim=dim), seed=3)
        lay.run(2000)
        laid = layout_quality(lay.positions, edges_arr)
        random = layout_quality(rng.uniform(-10, 10, size=(200, dim)), edges_arr)
        assert laid.neighborhood > 3 * random.neighborhood
        assert laid.neighborhood > 0.15
        assert laid.stress < 0.75 * random.stress


def test_random_graph_layout_beats_random_positions() -> None:
    rng = np.random.default_rng(4)
    edges = rng.integers(0, 500, size=(1000, 2))
    lay = ForceLayout(500, edges, seed=4)
    lay.run(2000)
    laid = layout_quality(lay.positions, edges)
    random = layout_quality(rng.uniform(size=(500, 2)), edges)
    assert laid.neighborhood > 5 * random.neighborhood
    assert laid.stress < random.stress
