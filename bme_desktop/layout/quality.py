"""How faithful a layout is to its graph.

Two measures, both vectorised and usable on 100k-node graphs:

* :func:`neighborhood_preservation` (higher is better, 0..1): for each node,
  the Jaccard overlap between its graph neighbours and the same number of its
  nearest nodes in the layout. A random layout scores about ``degree / n``.
* :func:`normalized_stress` (lower is better, 0..1): stress between layout
  distances and hop distances, ``sum((a*D - G)**2 / G**2)`` over node pairs,
  with the best scale ``a`` (layouts are scale-free), divided by the number of
  pairs. Computed from a sample of pivot nodes on large graphs.

:func:`layout_quality` returns both.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import shortest_path
from scipy.spatial import cKDTree

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Quality:
    neighborhood: float
    stress: float


def _edges(edges: npt.ArrayLike, n: int) -> IntArray:
    e: IntArray = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    e = e[e[:, 0] != e[:, 1]]
    if e.size and (e.min() < 0 or e.max() >= n):
        raise IndexError("edge endpoint out of range")
    return e


def _neighbour_keys(edges: IntArray, n: int) -> IntArray:
    """Unique ``i * n + j`` for both directions of every edge."""
    both = np.concatenate((edges, edges[:, ::-1]))
    return np.unique(both[:, 0] * n + both[:, 1])


def neighborhood_preservation(pos: npt.ArrayLike, edges: npt.ArrayLike, *, max_k: int = 64) -> float:
    """Mean Jaccard overlap of graph neighbours and layout nearest neighbours.

    Nodes without edges are skipped; a node with more than ``max_k``
    neighbours is compared with its ``max_k`` nearest layout nodes.
    """
    p = np.asarray(pos, dtype=np.float64)
    n = p.shape[0]
    e = _edges(edges, n)
    if n < 2 or e.shape[0] == 0:
        return 0.0
    keys = _neighbour_keys(e, n)
    src = keys // n
    degree = np.bincount(src, minlength=n)
    k_max = int(min(max_k, degree.max(), n - 1))
    # Nearest k_max + 1 (the node itself comes first, or a coincident twin).
    _, near = cKDTree(p).query(p, k=k_max + 1)
    near = np.asarray(near, dtype=np.int64).reshape(n, k_max + 1)
    want = np.minimum(degree, k_max)[:, None]
    rows = np.broadcast_to(np.arange(n)[:, None], near.shape)
    not_self = near != rows
    # Keep the first `want` non-self neighbours of each row.
    kept_rank = np.cumsum(not_self, axis=1)
    keep = not_self & (kept_rank <= want)
    layout_keys = rows[keep] * n + near[keep]
    hit = np.isin(layout_keys, keys, assume_unique=False)
    inter = np.bincount(rows[keep][hit], minlength=n).astype(np.float64)
    size_l = want[:, 0].astype(np.float64)
    union = degree + size_l - inter
    has = degree > 0
    return float(np.mean(inter[has] / union[has]))


def normalized_stress(pos: npt.ArrayLike, edges: npt.ArrayLike, *, pivots: int = 256, seed: int = 0) -> float:
    """Stress against hop distances at the best scale, per pair (0 is perfect).

    Uses all nodes as sources when there are at most ``pivots`` of them,
    otherwise ``pivots`` random ones (seeded). Unreachable pairs are ignored.
    """
    p = np.asarray(pos, dtype=np.float64)
    n = p.shape[0]
    e = _edges(edges, n)
    if n < 2 or e.shape[0] == 0:
        return 0.0
    adj = coo_matrix((np.ones(e.shape[0]), (e[:, 0], e[:, 1])), shape=(n, n)).tocsr()
    if n <= pivots:
        src = np.arange(n)
    else:
        src = np.sort(np.random.default_rng(seed).choice(n, size=pivots, replace=False))
    s0 = s1 = s2 = 0.0
    for lo in range(0, src.shape[0], 32):  # chunks keep memory at 32 x n
        rows = src[lo : lo + 32]
        g = np.asarray(shortest_path(adj, directed=False, unweighted=True, indices=rows), dtype=np.float64)
        diff = p[rows][:, None, :] - p[None, :, :]
        d = np.sqrt(np.einsum("ijk,ijk->ij", diff, diff))
        ok = np.isfinite(g) & (g > 0)
        ratio = d[ok] / g[ok]
        s0 += float(ratio.shape[0])
        s1 += float(ratio.sum())
        s2 += float(np.dot(ratio, ratio))
    if s0 == 0.0:
        return 0.0
    if s2 == 0.0:
        return 1.0
    # min over a of sum (a*r - 1)^2 = pairs - s1^2 / s2, with pairs = s0
    return max(0.0, (s0 - s1 * s1 / s2) / s0)


def layout_quality(pos: npt.ArrayLike, edges: npt.ArrayLike, *, pivots: int = 256, seed: int = 0) -> Quality:
    """Both measures at once."""
    return Quality(
        neighborhood=neighborhood_preservation(pos, edges),
        stress=normalized_stress(pos, edges, pivots=pivots, seed=seed),
    )
