"""Barnes–Hut repulsion against the exact O(n²) sum."""

from __future__ import annotations

import numpy as np
import pytest

from bme_desktop.layout import expansion
from bme_desktop.layout.barnes_hut import RepulsionStats, exact_repulsion, repulsion


def _clustered(n: int, dim: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    centres = rng.normal(scale=20.0, size=(5, dim))
    pos = centres[rng.integers(0, 5, n)] + rng.normal(scale=rng.uniform(0.5, 4.0, size=(n, 1)), size=(n, dim))
    mass = 1.0 + rng.integers(0, 6, n).astype(float)
    return pos, mass


def _errors(approx: np.ndarray, exact: np.ndarray) -> tuple[float, float, float]:
    rel = np.linalg.norm(approx - exact, axis=1) / np.linalg.norm(exact, axis=1)
    total = float(np.linalg.norm(approx - exact) / np.linalg.norm(exact))
    return float(np.median(rel)), float(np.quantile(rel, 0.95)), total


@pytest.mark.parametrize("dim", [2, 3])
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("kind", ["uniform", "clustered"])
def test_matches_exact_forces(dim: int, seed: int, kind: str) -> None:
    rng = np.random.default_rng(seed)
    n = 1500
    if kind == "uniform":
        pos = rng.uniform(-10, 10, size=(n, dim))
        mass = np.ones(n)
    else:
        pos, mass = _clustered(n, dim, seed)
    exact = exact_repulsion(pos, mass, scale=2.0)
    stats = RepulsionStats()
    approx = repulsion(pos, mass, scale=2.0, theta=1.0, stats=stats)
    median, p95, total = _errors(approx, exact)
    # The bench and the docs quote these bounds (theta = 1).
    assert median < 0.02
    assert p95 < 0.06
    assert total < 0.03
    # It really approximated: far fewer exact pairs than n².
    assert stats.near < n * n / 4
    assert stats.far + stats.expanded > 0


@pytest.mark.parametrize("dim", [2, 3])
def test_smaller_theta_is_more_exact(dim: int) -> None:
    pos, mass = _clustered(1200, dim, 7)
    exact = exact_repulsion(pos, mass)
    coarse = _errors(repulsion(pos, mass, theta=1.2), exact)[2]
    fine = _errors(repulsion(pos, mass, theta=0.4), exact)[2]
    assert fine < coarse
    assert fine < 0.01


@pytest.mark.parametrize("dim", [2, 3])
def test_without_expansions_still_matches(dim: int) -> None:
    pos, mass = _clustered(800, dim, 11)
    exact = exact_repulsion(pos, mass)
    assert _errors(repulsion(pos, mass, expand_min=0), exact)[2] < 0.03


def test_small_sets_are_exact() -> None:
    rng = np.random.default_rng(4)
    pos = rng.normal(size=(20, 2))
    mass = rng.uniform(1, 2, 20)
    # Fewer points than the leaf size: everything is summed exactly.
    assert np.allclose(repulsion(pos, mass), exact_repulsion(pos, mass), rtol=1e-10, atol=1e-12)
    assert np.array_equal(repulsion(pos[:1], mass[:1]), np.zeros((1, 2)))


def test_coincident_points_give_finite_forces() -> None:
    pos = np.zeros((50, 3))
    pos[25:] = 1.0
    out = repulsion(pos, np.ones(50))
    assert np.isfinite(out).all()
    # Twins do not push each other; the two stacks push apart.
    assert out[0] @ np.ones(3) < 0 < out[30] @ np.ones(3)


def test_translated_expansion_equals_direct_evaluation() -> None:
    rng = np.random.default_rng(9)
    for dim in (2, 3):
        r = rng.normal(size=(dim, 40)) + 5.0
        coef = expansion.coefficients(r, rng.uniform(1, 3, 40))
        delta = rng.normal(scale=0.3, size=(dim, 40))
        d = rng.normal(scale=0.3, size=(dim, 40))
        moved = expansion.translate(coef, delta)
        assert np.allclose(expansion.evaluate(moved, d), expansion.evaluate(coef, delta + d))


def test_expansion_approximates_the_field() -> None:
    rng = np.random.default_rng(10)
    for dim in (2, 3):
        r = rng.normal(size=(dim, 30))
        r *= 10.0 / np.linalg.norm(r, axis=0)
        mass = rng.uniform(1, 3, 30)
        coef = expansion.coefficients(r, mass)
        d0 = rng.normal(scale=0.5, size=(dim, 30))
        errs = []
        for shrink in (1.0, 0.5):
            d = d0 * shrink
            x = r + d
            exact = mass * x / np.einsum("ij,ij->j", x, x)
            approx = expansion.evaluate(coef, d)
            errs.append(np.linalg.norm(approx - exact, axis=0) / np.linalg.norm(exact, axis=0))
        assert errs[0].max() < 1e-2
        # Second-order expansion: the error is third order in the offset.
        assert np.median(errs[0] / errs[1]) > 6.0


def test_a_pile_of_duplicates_costs_linear_time() -> None:
    # 20k points on one spot would be 4e8 exact pairs; the finest level treats them as one.
    pos = np.zeros((20_000, 2))
    pos[-3:] = [[5.0, 0.0], [0.0, 5.0], [-5.0, -5.0]]
    stats = RepulsionStats()
    out = repulsion(pos, np.ones(20_000), stats=stats)
    assert np.isfinite(out).all()
    assert stats.near + stats.far + stats.expanded < 1_000_000
    assert np.linalg.norm(out[-1]) > 0.0
    assert np.allclose(out[:-3], out[0])


def test_chunks_cover_every_item_once() -> None:
    from bme_desktop.layout.barnes_hut import _chunks

    sizes = np.random.default_rng(0).integers(0, 50, 1000)
    parts = _chunks(sizes, limit=300)
    covered = np.concatenate([np.arange(1000)[p] for p in parts])
    assert covered.tolist() == list(range(1000))
    assert max(int(sizes[p].sum()) for p in parts) <= 300 + 50
    assert _chunks(np.array([10**6]), limit=10) == [slice(0, 1)]
    assert _chunks(np.zeros(0, dtype=np.int64)) == [slice(0, 0)]


@pytest.mark.parametrize("dim", [2, 3])
def test_chunked_walk_gives_the_same_forces(dim: int, monkeypatch: pytest.MonkeyPatch) -> None:
    from bme_desktop.layout import barnes_hut

    pos, mass = _clustered(1500, dim, 3)
    whole = repulsion(pos, mass)
    monkeypatch.setattr(barnes_hut, "CHUNK", 97)
    assert np.allclose(repulsion(pos, mass), whole, rtol=1e-9, atol=1e-12)
