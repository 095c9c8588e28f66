"""Where nodes start before the layout moves them: a seeded disc (ball), and new nodes beside
their neighbours so an update grows the picture instead of scattering it. No Qt."""

from __future__ import annotations

import numpy as np

from .graph_data import BoolArray, FloatArray, GraphData, IntArray


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


GOLDEN_ANGLE = np.pi * (3.0 - np.sqrt(5.0))


def arrange_groups(pos: FloatArray, groups: IntArray, keep: BoolArray | None = None) -> FloatArray:
    """Communities placed as super-nodes first: each group (``groups[i] >= 0``) is moved, as a
    whole, to its own spot on a sunflower spiral (biggest in the middle, each taking an area in
    proportion to its size within the graph's current RMS radius) and shrunk around its centre
    to that area; the layout then works inside and between them. Rows in no group and ``keep``
    rows (pinned) stay where they are."""
    out = np.array(pos, dtype=np.float64, copy=True)
    member = groups >= 0
    if keep is not None:
        member &= ~keep
    if not member.any():
        return out
    n, dim = out.shape[0], out.shape[1]
    centre = out.mean(axis=0)
    radius = max(1.0, float(np.sqrt(np.mean(np.sum((out - centre) ** 2, axis=1)))))
    g = groups[member]
    count = int(g.max()) + 1
    sizes = np.bincount(g, minlength=count).astype(np.float64)
    sums = np.stack([np.bincount(g, weights=out[member, d], minlength=count) for d in range(dim)], axis=1)
    own_centre = sums / np.maximum(sizes, 1.0)[:, None]
    order = np.argsort(-sizes, kind="stable")
    before = np.concatenate(([0.0], np.cumsum(sizes[order])[:-1]))
    anchor = np.zeros((count, dim))
    reach = radius * np.sqrt((before + sizes[order] / 2.0) / max(float(n), 1.0))
    angle = np.arange(count) * GOLDEN_ANGLE
    anchor[order, 0] = centre[0] + reach * np.cos(angle) * 1.6
    anchor[order, 1] = centre[1] + reach * np.sin(angle) * 1.6
    if dim == 3:
        anchor[order, 2] = centre[2]
    shrink = np.sqrt(sizes / max(float(n), 1.0))
    rows = np.flatnonzero(member)
    out[rows] = anchor[g] + (out[rows] - own_centre[g]) * shrink[g, None]
    return out
