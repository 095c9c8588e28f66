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


def pack_circles(radii: FloatArray, gap: float, candidates: int = 4000) -> FloatArray:
    """Centres for circles of ``radii`` packed around the origin, biggest first, each at the spot
    nearest the origin (of a sunflower spiral of candidate spots) where it keeps ``gap`` from every
    circle placed before it. Deterministic: the same radii give the same centres."""
    k = radii.size
    out = np.zeros((k, 2))
    if k <= 1:
        return out
    order = np.argsort(-radii, kind="stable")
    reach = 2.0 * float(np.sqrt(np.sum((radii + gap) ** 2))) + float(radii.max())
    i = np.arange(candidates) + 0.5
    dist = reach * np.sqrt(i / candidates)
    spots = np.stack((dist * np.cos(i * GOLDEN_ANGLE), dist * np.sin(i * GOLDEN_ANGLE)), axis=1)
    # room[s]: how far spot s is from the rim of the nearest circle placed so far
    first = int(order[0])
    room = np.hypot(spots[:, 0] - out[first, 0], spots[:, 1] - out[first, 1]) - radii[first]
    for j in order[1:].tolist():
        free = room >= radii[j] + gap
        spot = int(np.argmax(free)) if free.any() else candidates - 1
        out[j] = spots[spot]
        room = np.minimum(room, np.hypot(spots[:, 0] - out[j, 0], spots[:, 1] - out[j, 1]) - radii[j])
    return out


class GroupPacking:
    """Display positions in which each community is its own disc, apart from the others.

    The layout pulls communities together (links between them, gravity), so on its own a big
    graph ends as one disc of sectors. Here each group keeps the shape the layout gave it (its
    members' offsets from their centre), scaled to a disc whose area is in proportion to its size
    (the same density everywhere; outliers are brought in to its rim), and the discs are packed
    with a gap between them (``pack_circles``, recomputed only when the group sizes change). Rows
    in no group (-1) form one more disc. :meth:`to_layout` maps a display point back, for a drag.
    """

    GAP = 0.4  # between two discs, in units of the median disc radius
    FILL = float(np.sqrt(2.0))  # a uniform disc's radius over its RMS radius

    def __init__(self, groups: IntArray) -> None:
        g = np.asarray(groups, dtype=np.int64)
        self.groups = np.where(g >= 0, g, int(g.max(initial=-1)) + 1)
        self.count = np.bincount(self.groups).astype(np.float64)
        self.radius = np.sqrt(self.count)
        used = self.radius[self.count > 0]
        gap = self.GAP * float(np.median(used)) if used.size else 1.0
        self.centre = pack_circles(self.radius, gap)
        self.mean = np.zeros((self.count.size, 2))
        self.scale = np.ones(self.count.size)

    def fits(self, n: int) -> bool:
        return self.groups.size == n

    def apply(self, pos: FloatArray) -> FloatArray:
        g, k = self.groups, self.count.size
        safe = np.maximum(self.count, 1.0)
        self.mean = (
            np.stack([np.bincount(g, weights=pos[:, d], minlength=k) for d in range(2)], axis=1)
            / safe[:, None]
        )
        local = pos[:, :2] - self.mean[g]
        sq = np.einsum("ij,ij->i", local, local)
        rms = np.sqrt(np.bincount(g, weights=sq, minlength=k) / safe)
        self.scale = self.radius / (self.FILL * np.where(rms > 0, rms, 1.0))
        local = local * self.scale[g, None]
        norm = np.sqrt(sq) * self.scale[g]
        rim = self.radius[g]
        over = norm > rim
        local[over] *= (rim[over] / norm[over])[:, None]
        return self.centre[g] + local

    def to_layout(self, row: int, x: float, y: float) -> tuple[float, float]:
        """The layout position that :meth:`apply` shows at (x, y) for ``row``."""
        g = int(self.groups[row])
        return (
            float(self.mean[g, 0] + (x - self.centre[g, 0]) / self.scale[g]),
            float(self.mean[g, 1] + (y - self.centre[g, 1]) / self.scale[g]),
        )
