"""Graph diffusion: personalised PageRank-style spreading activation on ``scipy.sparse``.

Excitatory edges form a symmetric, degree-normalised transition matrix (so a hub that touches
every event passes each only a sliver); ``contradicts`` edges (inhibitory relations) pass
negative energy; invalidated and deleted edges are left out. Consecutive events (by their
first source message) are joined by a weak synthetic link, as the turns around a remembered
one often belong to it. Energy never spreads out of a node whose energy is negative.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy import sparse

from ..model import Edge, Node
from ..schema import RELATIONS

RESTART = 0.15
DAMPING = 0.6  # ST-BME's per-step decay
INHIBITION = 2.0
STEPS = 3
SEQUENCE_LINK = 0.2
KEEP = 100  # only the most energised nodes survive (a hub must not flood the candidates)


@dataclass
class Graph:
    ids: list[str]
    position: dict[str, int]
    excite_t: sparse.csr_matrix  # transposed, row-normalised transitions: (excite_t @ e)[j] = inflow of j
    inhibit_t: sparse.csr_matrix


def build_graph(nodes: Mapping[str, Node], edges: list[Edge]) -> Graph:
    ids = sorted(nodes)
    position = {node_id: i for i, node_id in enumerate(ids)}
    rows: list[int] = []
    cols: list[int] = []
    vals: list[float] = []
    neg_rows: list[int] = []
    neg_cols: list[int] = []
    neg_vals: list[float] = []
    for e in edges:
        a, b = position.get(e.from_id), position.get(e.to_id)
        if a is None or b is None or a == b or not e.is_valid:
            continue
        relation = RELATIONS.get(e.relation)
        weight = max(0.0, min(1.0, e.strength))
        if relation is not None and relation.inhibitory:
            neg_rows += [a, b]
            neg_cols += [b, a]
            neg_vals += [weight, weight]
        else:
            rows += [a, b]
            cols += [b, a]
            vals += [weight, weight]
    events = sorted(
        (min(n.source_indices), node_id)
        for node_id, n in nodes.items()
        if n.type == "event" and n.source_indices
    )
    for (_, left), (_, right) in itertools.pairwise(events):
        a, b = position[left], position[right]
        rows += [a, b]
        cols += [b, a]
        vals += [SEQUENCE_LINK, SEQUENCE_LINK]
    n = len(ids)
    excite = sparse.csr_matrix((vals, (rows, cols)), shape=(n, n), dtype=np.float64)
    degree = np.asarray(excite.sum(axis=1)).ravel()
    scale = np.divide(1.0, degree, out=np.zeros_like(degree), where=degree > 0)
    excite = sparse.csr_matrix(sparse.diags(scale) @ excite)
    inhibit = sparse.csr_matrix((neg_vals, (neg_rows, neg_cols)), shape=(n, n), dtype=np.float64)
    return Graph(ids, position, excite.T.tocsr(), inhibit.T.tocsr())


def diffuse(
    graph: Graph, seeds: Mapping[str, float], steps: int = STEPS, keep: int = KEEP
) -> dict[str, float]:
    """Positive energy of the ``keep`` most energised nodes reached from ``seeds`` (seeds included)."""
    n = len(graph.ids)
    if n == 0 or not seeds:
        return {}
    seed: npt.NDArray[np.float64] = np.zeros(n, dtype=np.float64)
    for node_id, start in seeds.items():
        i = graph.position.get(node_id)
        if i is not None:
            seed[i] = max(seed[i], start)
    if not seed.any():
        return {}
    energy: npt.NDArray[np.float64] = seed.copy()
    best: npt.NDArray[np.float64] = seed.copy()
    excite_t, inhibit_t = graph.excite_t, graph.inhibit_t
    for _ in range(steps):
        spreading = np.clip(energy, 0.0, None)
        flow = DAMPING * (excite_t @ spreading - INHIBITION * (inhibit_t @ spreading))
        energy = np.clip(RESTART * seed + (1.0 - RESTART) * flow, -2.0, 2.0)
        energy[seed > 0] = np.maximum(energy[seed > 0], (1.0 - RESTART) * seed[seed > 0])
        energy[np.abs(energy) < 1e-4] = 0.0
        best = np.where(energy < 0, np.minimum(best, energy), np.maximum(best, energy))
    reached = np.flatnonzero(best > 0)
    if reached.size > keep:
        reached = reached[np.argpartition(-best[reached], keep - 1)[:keep]]
    return {graph.ids[i]: float(best[i]) for i in reached}
