"""The graph as numpy arrays for the views: no Qt, no Python object per node on the drawing path.

:class:`GraphData` holds one row per node (type, tier, point-of-view owner, region, importance,
size, title, text) and one row per edge (endpoints as node rows, colour bucket, inhibitory,
invalidated). Rows are appended by upserts and compacted (order kept) by removals, the same
way :class:`bme_desktop.layout.engine.ForceLayout` renumbers its nodes, so the two stay aligned.
Queries over the arrays (filters, search, k-hop neighbourhoods, lanes) live in ``graph_query``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from ...core.model import Edge, Node
from ...core.schema import NODE_TYPES, RELATIONS, TIERS
from ...core.scopes import SCOPE_KINDS
from ..theming.model import EDGE_BUCKETS, RELATION_BUCKETS

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

TYPE_NAMES: tuple[str, ...] = tuple(NODE_TYPES)
TIER_NAMES: tuple[str, ...] = tuple(TIERS)
SCOPE_NAMES: tuple[str, ...] = tuple(SCOPE_KINDS)
BUCKET_NAMES: tuple[str, ...] = tuple(EDGE_BUCKETS)
MIN_SIZE, MAX_SIZE = 6.0, 17.0  # node diameter in px, by importance 0..10 (as ST-BME)


HUB_EXTRA = 9.0  # px added to the best connected node's diameter (hubs stand out in a big graph)


def node_size(importance: npt.ArrayLike, degree: npt.ArrayLike | None = None) -> FloatArray:
    """Diameter in px: importance 0..10 spans MIN..MAX_SIZE; with ``degree``, up to ``HUB_EXTRA``
    more on a log scale of the links relative to the best connected node."""
    imp = np.clip(np.asarray(importance, dtype=np.float64), 0.0, 10.0)
    size = MIN_SIZE + (MAX_SIZE - MIN_SIZE) * imp / 10.0
    if degree is not None:
        deg = np.log1p(np.asarray(degree, dtype=np.float64))
        top = float(deg.max()) if deg.size else 0.0
        if top > 0:
            size = size + HUB_EXTRA * deg / top
    return size


def _summary(node: Node) -> str:
    spec = NODE_TYPES.get(node.type)
    return node.fields.get(spec.summary_field, "") if spec is not None else ""


def _first(node: Node) -> int:
    """The message a memory was first drawn from (-1 if it names none, e.g. written by hand)."""
    return min(node.source_indices) if node.source_indices else -1


def _scope(node: Node) -> int:
    """Who else remembers a memory, as an index in SCOPE_NAMES (an unknown kind: past the end)."""
    kind = node.scope.kind
    return SCOPE_NAMES.index(kind) if kind in SCOPE_NAMES else len(SCOPE_NAMES)


class _Labels:
    """Interns strings (owners, regions) as small integers; 0 is "none"."""

    def __init__(self) -> None:
        self.names: list[str] = [""]
        self._index: dict[str, int] = {"": 0}

    def of(self, name: str | None) -> int:
        key = name or ""
        if key not in self._index:
            self._index[key] = len(self.names)
            self.names.append(key)
        return self._index[key]


class GraphData:
    """Nodes and edges of one chat as parallel arrays (rows ``0..n-1``, ``0..m-1``)."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.row: dict[str, int] = {}
        self.titles: list[str] = []
        self.texts: list[str] = []
        self.type_idx: IntArray = np.zeros(0, np.int64)
        self.tier_idx: IntArray = np.zeros(0, np.int64)
        self.owner_idx: IntArray = np.zeros(0, np.int64)
        self.region_idx: IntArray = np.zeros(0, np.int64)
        self.importance: FloatArray = np.zeros(0)
        self.first_message: IntArray = np.zeros(0, np.int64)  # first source message (-1: none known)
        self.scope_idx: IntArray = np.zeros(0, np.int64)  # index in SCOPE_NAMES: who else remembers it
        self.owners = _Labels()
        self.regions = _Labels()
        self.edge_ids: list[str] = []
        self.edge_row: dict[str, int] = {}
        self.src: IntArray = np.zeros(0, np.int64)
        self.dst: IntArray = np.zeros(0, np.int64)
        self.bucket: IntArray = np.zeros(0, np.int64)
        self.inhibitory: BoolArray = np.zeros(0, bool)
        self.invalid: BoolArray = np.zeros(0, bool)
        self.strength: FloatArray = np.zeros(0)

    @classmethod
    def from_records(cls, nodes: Iterable[Node], edges: Iterable[Edge]) -> GraphData:
        data = cls()
        data.upsert_nodes(nodes)
        data.upsert_edges(edges)
        return data

    @property
    def n(self) -> int:
        return len(self.ids)

    @property
    def m(self) -> int:
        return len(self.edge_ids)

    @property
    def degree(self) -> IntArray:
        """Links per node (both directions)."""
        if self.m == 0:
            return np.zeros(self.n, np.int64)
        return np.bincount(self.src, minlength=self.n) + np.bincount(self.dst, minlength=self.n)

    @property
    def sizes(self) -> FloatArray:
        return node_size(self.importance, self.degree)

    def rows_of(self, ids: Iterable[str]) -> IntArray:
        return np.array([self.row[i] for i in ids if i in self.row], dtype=np.int64)

    # nodes ---------------------------------------------------------------------------------
    def upsert_nodes(self, nodes: Iterable[Node]) -> tuple[IntArray, IntArray]:
        """Add new nodes at the end, update known ones in place; returns (added, changed) rows."""
        new: list[Node] = []
        changed: list[int] = []
        for node in nodes:
            if node.deleted_at is not None:
                continue
            r = self.row.get(node.id)
            if r is None:
                self.row[node.id] = self.n + len(new)
                new.append(node)
            else:
                changed.append(r)
                self._set_row(r, node)
        start = self.n
        if new:
            self.ids.extend(n.id for n in new)
            self.titles.extend(n.title for n in new)
            self.texts.extend(_summary(n) for n in new)
            self.type_idx = np.concatenate((self.type_idx, [self._type(n.type) for n in new]))
            self.tier_idx = np.concatenate((self.tier_idx, [self._tier(n.tier) for n in new]))
            self.owner_idx = np.concatenate((self.owner_idx, [self._owner(n) for n in new]))
            self.region_idx = np.concatenate(
                (self.region_idx, [self.regions.of(n.scope.region) for n in new])
            )
            self.importance = np.concatenate((self.importance, [float(n.importance) for n in new]))
            self.first_message = np.concatenate((self.first_message, [_first(n) for n in new])).astype(
                np.int64
            )
            self.scope_idx = np.concatenate((self.scope_idx, [_scope(n) for n in new])).astype(np.int64)
        return np.arange(start, self.n, dtype=np.int64), np.array(changed, dtype=np.int64)

    def _set_row(self, r: int, node: Node) -> None:
        self.titles[r] = node.title
        self.texts[r] = _summary(node)
        self.type_idx[r] = self._type(node.type)
        self.tier_idx[r] = self._tier(node.tier)
        self.owner_idx[r] = self._owner(node)
        self.region_idx[r] = self.regions.of(node.scope.region)
        self.importance[r] = float(node.importance)
        self.first_message[r] = _first(node)
        self.scope_idx[r] = _scope(node)

    @staticmethod
    def _type(name: str) -> int:
        return TYPE_NAMES.index(name) if name in TYPE_NAMES else len(TYPE_NAMES)

    @staticmethod
    def _tier(name: str) -> int:
        return TIER_NAMES.index(name) if name in TIER_NAMES else 0

    def _owner(self, node: Node) -> int:
        return self.owners.of(node.scope.owner) if node.scope.layer == "pov" else 0

    def remove_nodes(self, ids: Iterable[str]) -> IntArray:
        """Drop nodes (and their edges); returns ``remap`` old row → new row, -1 when removed."""
        gone = self.rows_of(ids)
        keep = np.ones(self.n, dtype=bool)
        keep[gone] = False
        remap = np.full(self.n, -1, dtype=np.int64)
        remap[keep] = np.arange(int(keep.sum()), dtype=np.int64)
        kept = np.flatnonzero(keep)
        self.ids = [self.ids[i] for i in kept]
        self.titles = [self.titles[i] for i in kept]
        self.texts = [self.texts[i] for i in kept]
        self.row = {node_id: i for i, node_id in enumerate(self.ids)}
        for name in (
            "type_idx",
            "tier_idx",
            "owner_idx",
            "region_idx",
            "importance",
            "first_message",
            "scope_idx",
        ):
            setattr(self, name, getattr(self, name)[keep])
        if self.m:
            self.src, self.dst = remap[self.src], remap[self.dst]
            dead = (self.src < 0) | (self.dst < 0)
            self._drop_edges(np.flatnonzero(dead))
        return remap

    # edges ---------------------------------------------------------------------------------
    def upsert_edges(self, edges: Iterable[Edge]) -> None:
        """Add or update edges between known nodes; edges to unknown or deleted nodes are skipped."""
        new: list[tuple[str, int, int, Edge]] = []
        for edge in edges:
            a, b = self.row.get(edge.from_id), self.row.get(edge.to_id)
            r = self.edge_row.get(edge.id)
            if edge.deleted_at is not None or a is None or b is None:
                if r is not None:
                    self.remove_edges([edge.id])
                continue
            if r is None:
                self.edge_row[edge.id] = self.m + len(new)
                new.append((edge.id, a, b, edge))
            else:
                self.src[r], self.dst[r] = a, b
                self.bucket[r], self.inhibitory[r] = (
                    self._bucket(edge.relation),
                    self._inhibitory(edge.relation),
                )
                self.invalid[r], self.strength[r] = not edge.is_valid, edge.strength
        if new:
            self.edge_ids.extend(e[0] for e in new)
            self.src = np.concatenate((self.src, [e[1] for e in new])).astype(np.int64)
            self.dst = np.concatenate((self.dst, [e[2] for e in new])).astype(np.int64)
            self.bucket = np.concatenate((self.bucket, [self._bucket(e[3].relation) for e in new])).astype(
                np.int64
            )
            self.inhibitory = np.concatenate(
                (self.inhibitory, [self._inhibitory(e[3].relation) for e in new])
            )
            self.invalid = np.concatenate((self.invalid, [not e[3].is_valid for e in new]))
            self.strength = np.concatenate((self.strength, [float(e[3].strength) for e in new]))

    @staticmethod
    def _bucket(relation: str) -> int:
        return BUCKET_NAMES.index(RELATION_BUCKETS.get(relation, "association"))

    @staticmethod
    def _inhibitory(relation: str) -> bool:
        spec = RELATIONS.get(relation)
        return bool(spec and spec.inhibitory)

    def remove_edges(self, ids: Iterable[str]) -> None:
        self._drop_edges(np.array([self.edge_row[i] for i in ids if i in self.edge_row], dtype=np.int64))

    def _drop_edges(self, rows: IntArray) -> None:
        if rows.size == 0:
            return
        keep = np.ones(self.m, dtype=bool)
        keep[rows] = False
        self.edge_ids = [self.edge_ids[i] for i in np.flatnonzero(keep)]
        self.edge_row = {edge_id: i for i, edge_id in enumerate(self.edge_ids)}
        for name in ("src", "dst", "bucket", "inhibitory", "invalid", "strength"):
            setattr(self, name, getattr(self, name)[keep])

    def edge_pairs(self) -> IntArray:
        """Edges as an ``(m, 2)`` array of node rows (for the layout)."""
        return np.stack((self.src, self.dst), axis=1) if self.m else np.zeros((0, 2), np.int64)


def segments(
    pos: npt.NDArray[np.floating], src: Sequence[int] | IntArray, dst: Sequence[int] | IntArray
) -> tuple[FloatArray, FloatArray]:
    """x and y arrays ``[a0, b0, a1, b1, …]`` for a ``connect="pairs"`` curve."""
    s, d = np.asarray(src, np.int64), np.asarray(dst, np.int64)
    xy = np.empty((2 * s.size, 2), dtype=np.float64)
    xy[0::2], xy[1::2] = pos[s, :2], pos[d, :2]
    return xy[:, 0], xy[:, 1]
