"""Where nodes start before the layout moves them: a seeded disc (ball), and new nodes beside
their neighbours so an update grows the picture instead of scattering it. No Qt."""

from __future__ import annotations

import numpy as np

from .graph_data import FloatArray, GraphData, IntArray


def initial_positions(n: int, dim: int = 2, seed: int = 7) -> FloatArray:
    """Uniform in a cube of half-width sqrt(n) (what ForceLayout itself would pick)."""
    radius = max(1.0, float(np.sqrt(n)))
    return np.random.default_rng(seed).uniform(-radius, radius, size=(n, dim))


def place_new(base: FloatArray, data: GraphData, rows: IntArray, seed: int = 11) -> FloatArray:
    """Positions for ``rows`` (appended after ``base``): the mean of placed neighbours plus jitter,
    else near the centre of the graph."""
    dim = base.shape[1] if base.ndim == 2 else 2
    n_old = base.shape[0]
    rng = np.random.default_rng(seed + n_old)
    centre = base.mean(axis=0) if n_old else np.zeros(dim)
    spread = float(base.std()) * 0.3 if n_old > 1 else 1.0
    out = centre + rng.normal(scale=max(spread, 1e-3), size=(rows.size, dim))
    if n_old and data.m:
        src, dst = data.src, data.dst
        a = (src >= n_old) & (dst < n_old)
        b = (dst >= n_old) & (src < n_old)
        new_rows = np.concatenate((src[a], dst[b])) - n_old
        old_rows = np.concatenate((dst[a], src[b]))
        ok = new_rows < rows.size
        new_rows, old_rows = new_rows[ok], old_rows[ok]
        count = np.bincount(new_rows, minlength=rows.size).astype(np.float64)
        sums = np.zeros((rows.size, dim))
        np.add.at(sums, new_rows, base[old_rows])
        has = count > 0
        jitter = rng.normal(scale=max(spread * 0.1, 1e-3), size=(int(has.sum()), dim))
        out[has] = sums[has] / count[has, None] + jitter
    return out
