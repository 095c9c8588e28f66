"""ForceLayout: clusters, pins, convergence, incremental updates, determinism."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from bme_desktop.layout import ForceLayout, LayoutSettings


def _clique(nodes: range) -> list[tuple[int, int]]:
    return list(itertools.combinations(nodes, 2))


def _random_graph(n: int, m: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, n, size=(m, 2))


@pytest.mark.parametrize("dim", [2, 3])
def test_two_disconnected_cliques_form_two_clusters(dim: int) -> None:
    edges = _clique(range(0, 12)) + _clique(range(12, 24))
    lay = ForceLayout(24, edges, settings=LayoutSettings(dim=dim), seed=3)
    lay.run(1000)
    pos = lay.positions
    a, b = pos[:12], pos[12:]
    ca, cb = a.mean(0), b.mean(0)
    gap = np.linalg.norm(ca - cb)
    spread = max(np.linalg.norm(a - ca, axis=1).max(), np.linalg.norm(b - cb, axis=1).max())
    assert gap > 2.0 * spread
    # Every node is nearer its own clique's centre.
    assert (np.linalg.norm(a - ca, axis=1) < np.linalg.norm(a - cb, axis=1)).all()
    assert (np.linalg.norm(b - cb, axis=1) < np.linalg.norm(b - ca, axis=1)).all()


def test_pinned_nodes_never_move() -> None:
    lay = ForceLayout(300, _random_graph(300, 600), seed=1)
    pinned = np.array([0, 5, 17, 299])
    lay.pin(pinned)
    before = lay.positions
    for _ in range(60):
        lay.step()
    after = lay.positions
    assert np.array_equal(after[pinned], before[pinned])
    assert not np.allclose(np.delete(after, pinned, 0), np.delete(before, pinned, 0))
    lay.unpin([5])
    lay.step()
    assert not np.array_equal(lay.positions[5], before[5])
    assert np.array_equal(lay.positions[[0, 17, 299]], before[[0, 17, 299]])


def test_set_positions_moves_and_pins() -> None:
    lay = ForceLayout(50, _random_graph(50, 100), seed=2)
    lay.run(50)
    lay.set_positions([3, 4], [[100.0, 0.0], [0.0, -100.0]])
    assert lay.pinned[[3, 4]].all()
    assert not lay.converged
    for _ in range(20):
        lay.step()
    assert np.array_equal(lay.positions[[3, 4]], [[100.0, 0.0], [0.0, -100.0]])
    lay.set_positions([7], [[1.0, 1.0]], pin=False)
    assert not lay.pinned[7]


def test_all_pinned_converges_at_once() -> None:
    lay = ForceLayout(10, _random_graph(10, 20), seed=0)
    lay.pin(np.arange(10))
    info = lay.step()
    assert info.converged and info.displacement == 0.0


@pytest.mark.parametrize("dim", [2, 3])
def test_convergence_stops_iterations(dim: int) -> None:
    lay = ForceLayout(200, _random_graph(200, 400), settings=LayoutSettings(dim=dim), seed=4)
    info = lay.run(5000)
    assert info.converged
    assert info.iteration < 5000
    assert lay.iteration == info.iteration
    # Once converged the layout reports it, and moves very little on another step.
    again = lay.step()
    assert again.displacement < 5 * lay.settings.convergence_tol


def test_convergence_patience_and_tolerance() -> None:
    edges = _random_graph(100, 200)
    loose = ForceLayout(100, edges, settings=LayoutSettings(convergence_tol=1e-2), seed=5).run(5000)
    strict = ForceLayout(100, edges, settings=LayoutSettings(convergence_tol=1e-3), seed=5).run(5000)
    assert loose.converged and strict.converged
    assert loose.iteration < strict.iteration


def test_add_nodes_keeps_old_positions_and_places_new_near_neighbours() -> None:
    n = 400
    edges = _random_graph(n, 800)
    lay = ForceLayout(n, edges, seed=6)
    lay.run(2000)
    before = lay.positions
    old_edges = lay.edges
    lengths = np.linalg.norm(before[old_edges[:, 0]] - before[old_edges[:, 1]], axis=1)
    radius = np.sqrt(((before - before.mean(0)) ** 2).sum(1).mean())

    # 400 joins 10 and 20; 401 joins 400 only (a chain of new nodes); 402 joins nothing.
    new = lay.add_nodes(3, [[400, 10], [20, 400], [401, 400]])
    assert new.tolist() == [400, 401, 402]
    pos = lay.positions
    assert np.array_equal(pos[:n], before)  # settled nodes stay put
    target = before[[10, 20]].mean(0)
    assert np.linalg.norm(pos[400] - target) < 0.5 * np.median(lengths)
    assert np.linalg.norm(pos[401] - pos[400]) < 0.5 * np.median(lengths)
    assert np.linalg.norm(pos[402] - before.mean(0)) < radius
    assert not lay.converged
    assert lay.mass[400] == 4.0 and lay.mass[10] == 1.0 + (old_edges == 10).sum() + 1


def test_add_nodes_with_given_positions() -> None:
    lay = ForceLayout(5, seed=0)
    lay.add_nodes(2, positions=[[1.0, 2.0], [3.0, 4.0]])
    assert np.array_equal(lay.positions[5:], [[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(ValueError):
        lay.add_nodes(1, positions=[[1.0, 2.0, 3.0]])


def test_remove_nodes_keeps_the_others_in_place() -> None:
    lay = ForceLayout(100, _random_graph(100, 200), seed=7)
    lay.run(100)
    lay.pin([50])
    before = lay.positions
    remap = lay.remove_nodes([3, 40, 41])
    assert lay.n_nodes == 97
    assert (remap[[3, 40, 41]] == -1).all()
    kept = np.flatnonzero(remap >= 0)
    assert np.array_equal(lay.positions[remap[kept]], before[kept])
    assert lay.pinned[remap[50]]
    assert (lay.edges < 97).all() and (lay.edges >= 0).all()
    assert lay.mass.sum() == 97 + 2 * len(lay.edges)
    lay.step()  # still steps


@pytest.mark.parametrize("dim", [2, 3])
def test_deterministic_with_a_seed(dim: int) -> None:
    edges = _random_graph(150, 300)
    settings = LayoutSettings(dim=dim)
    runs = []
    for _ in range(2):
        lay = ForceLayout(150, edges, settings=settings, seed=42)
        for _ in range(30):
            lay.step()
        lay.add_nodes(2, [[150, 0], [151, 3]])
        for _ in range(5):
            lay.step()
        runs.append(lay.positions)
    assert np.array_equal(runs[0], runs[1])
    other = ForceLayout(150, edges, settings=settings, seed=43).positions
    assert not np.array_equal(other, ForceLayout(150, edges, settings=settings, seed=42).positions)


def test_empty_and_tiny_graphs() -> None:
    empty = ForceLayout(0)
    assert empty.step().converged
    assert empty.positions.shape == (0, 2)
    one = ForceLayout(1, settings=LayoutSettings(dim=3))
    one.run(10)
    assert np.isfinite(one.positions).all()
    new = empty.add_nodes(3, [[0, 1]])
    assert new.tolist() == [0, 1, 2]
    empty.run(50)
    assert np.isfinite(empty.positions).all()


def test_weights_and_options() -> None:
    edges = [[0, 1], [1, 2], [2, 3]]
    heavy = ForceLayout(4, edges, weights=[10.0, 1.0, 1.0], seed=0)
    heavy.run(500)
    p = heavy.positions
    assert np.linalg.norm(p[0] - p[1]) < np.linalg.norm(p[2] - p[3])
    for opts in (
        {"lin_log": True},
        {"dissuade_hubs": True},
        {"strong_gravity": True},
        {"edge_weight_influence": 0.0},
    ):
        lay = ForceLayout(30, _random_graph(30, 60), settings=LayoutSettings(**opts), seed=1)
        lay.run(200)
        assert np.isfinite(lay.positions).all()


def test_input_validation() -> None:
    with pytest.raises(ValueError):
        LayoutSettings(dim=4)
    with pytest.raises(IndexError):
        ForceLayout(3, [[0, 3]])
    with pytest.raises(ValueError):
        ForceLayout(3, [[0, 1]], weights=[-1.0])
    with pytest.raises(ValueError):
        ForceLayout(positions=np.zeros((3, 3)))
    lay = ForceLayout(3, [[0, 0], [0, 1]])
    assert lay.edges.tolist() == [[0, 1]]  # self-loops dropped


def test_add_nodes_rejects_bad_edges_without_changing_state() -> None:
    lay = ForceLayout(5, [[0, 1]], seed=0)
    before = lay.positions
    with pytest.raises(IndexError):
        lay.add_nodes(2, [[0, 7]])
    assert lay.n_nodes == 5
    assert np.array_equal(lay.positions, before)


@pytest.mark.parametrize("dim", [2, 3])
def test_nodes_starting_at_one_point_spread_out(dim: int) -> None:
    edges = _random_graph(40, 80)
    lay = ForceLayout(positions=np.zeros((40, dim)), edges=edges, settings=LayoutSettings(dim=dim), seed=0)
    lay.run(300)
    pos = lay.positions
    assert np.isfinite(pos).all()
    assert len(np.unique(pos, axis=0)) == 40
    assert np.sqrt(((pos - pos.mean(0)) ** 2).sum(1).mean()) > 1.0
    # Dropped onto an occupied spot, a node is parted from it too; a pinned twin stays.
    lay.pin([0])
    lay.set_positions([1], pos[[0]], pin=False)
    lay.step()
    assert np.array_equal(lay.positions[0], pos[0])
    assert not np.array_equal(lay.positions[1], pos[0])


def test_speed_recovers_after_a_step_without_traction() -> None:
    lay = ForceLayout(50, _random_graph(50, 100), seed=0)
    lay.step()
    # Make the next force exactly opposite to the last one: no traction at all.
    lay._prev_force = -lay.forces()
    info = lay.step()
    assert info.speed > 0.0
    for _ in range(40):
        info = lay.step()
    assert info.speed > 0.1
