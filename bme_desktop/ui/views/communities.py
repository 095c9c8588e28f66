"""Communities of the memory graph (Louvain, from networkx), for colouring, legends and cluster labels.

No Qt: :func:`detect` runs on a worker thread (``GraphSource`` schedules it after a load and after
structural changes) and returns a :class:`Communities` keyed by node id, so a result computed
before a change still maps onto the rows that exist after it.

Memories that are linked to almost nothing (a community smaller than ``MIN_SIZE``: single facts,
a lone pair) do not make a community of their own: they are pooled by type ("Unlinked facts"),
so a big chat shows a few dozen readable groups instead of thousands of singletons, and the
layout can gather each pool in one place instead of scattering them over a disc.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import networkx as nx
import numpy as np

from .graph_data import IntArray

MIN_SIZE = 3  # smaller communities are pooled by type
NAME_PARTS = 2  # a community is named after its most connected distinct titles
SEED = 7  # Louvain is randomised: a fixed seed gives the same colours for the same graph


@dataclass(frozen=True)
class Communities:
    """One label per node id; groups sorted by size (0 is the biggest).

    ``loose_type[g]`` is -1 for a real community, else the type index of the pooled unlinked
    memories of group ``g``. ``hubs[g]`` are the rows (at detection time) of its best connected
    members, most connected first; ``names[g]`` their distinct titles joined. ``of_chats``: the
    groups are the chats a memory belongs to (the graph of a character across its chats), not
    communities found in the links.
    """

    ids: tuple[str, ...] = ()
    label: IntArray = field(default_factory=lambda: np.zeros(0, np.int64))
    sizes: IntArray = field(default_factory=lambda: np.zeros(0, np.int64))
    names: tuple[str, ...] = ()
    loose_type: IntArray = field(default_factory=lambda: np.zeros(0, np.int64))
    of_chats: bool = False

    @property
    def count(self) -> int:
        return int(self.sizes.size)

    def labels_for(self, ids: Sequence[str]) -> IntArray:
        """The group of each of ``ids`` (rows of the current data); -1 for ids detected after."""
        known = dict(zip(self.ids, self.label.tolist(), strict=True))
        return np.array([known.get(i, -1) for i in ids], dtype=np.int64)


def by_chat(ids: Sequence[str], labels: Sequence[str]) -> Communities:
    """Groups given by the chat each memory belongs to, named by it; the biggest first."""
    sizes: dict[str, int] = {}
    for label in labels:
        sizes[label] = sizes.get(label, 0) + 1
    order = sorted(sizes, key=lambda k: (-sizes[k], k))
    index = {name: g for g, name in enumerate(order)}
    return Communities(
        ids=tuple(ids),
        label=np.array([index[x] for x in labels], dtype=np.int64),
        sizes=np.array([sizes[k] for k in order], dtype=np.int64),
        names=tuple(order),
        loose_type=np.full(len(order), -1, dtype=np.int64),
        of_chats=True,
    )


def detect(
    ids: Sequence[str],
    titles: Sequence[str],
    importance: np.ndarray,
    type_idx: IntArray,
    src: IntArray,
    dst: IntArray,
    *,
    seed: int = SEED,
) -> Communities:
    """Louvain communities of the undirected graph (parallel edges add weight)."""
    n = len(ids)
    if n == 0:
        return Communities()
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    weights: dict[tuple[int, int], float] = {}
    for a, b in zip(src.tolist(), dst.tolist(), strict=True):
        if a != b:
            key = (a, b) if a < b else (b, a)
            weights[key] = weights.get(key, 0.0) + 1.0
    graph.add_weighted_edges_from((a, b, w) for (a, b), w in weights.items())
    groups = [np.fromiter(c, dtype=np.int64) for c in nx.community.louvain_communities(graph, seed=seed)]
    degree = np.zeros(n, dtype=np.float64)
    for (a, b), w in weights.items():
        degree[a] += w
        degree[b] += w
    big = [g for g in groups if g.size >= MIN_SIZE]
    loose = np.concatenate([g for g in groups if g.size < MIN_SIZE] or [np.zeros(0, np.int64)])
    members: list[tuple[np.ndarray, int]] = [(g, -1) for g in big]
    for t in np.unique(type_idx[loose]).tolist():
        members.append((loose[type_idx[loose] == t], int(t)))
    members.sort(key=lambda m: (-m[0].size, m[1], int(m[0].min())))
    label = np.full(n, -1, dtype=np.int64)
    names: list[str] = []
    for g, (rows, _t) in enumerate(members):
        label[rows] = g
        names.append(_name(rows, titles, degree, importance))
    return Communities(
        ids=tuple(ids),
        label=label,
        sizes=np.array([m[0].size for m in members], np.int64),
        names=tuple(names),
        loose_type=np.array([m[1] for m in members], np.int64),
    )


def _name(rows: np.ndarray, titles: Sequence[str], degree: np.ndarray, importance: np.ndarray) -> str:
    """The most connected (then most important) distinct titles of a group, joined."""
    order = rows[np.lexsort((-importance[rows], -degree[rows]))]
    picked: list[str] = []
    for r in order[:50].tolist():
        title = titles[r].strip()
        if title and title.casefold() not in (p.casefold() for p in picked):
            picked.append(title)
        if len(picked) == NAME_PARTS:
            break
    return " · ".join(picked)
