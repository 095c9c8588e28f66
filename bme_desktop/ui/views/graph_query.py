"""Vectorised questions over :class:`GraphData`: filters, search, neighbourhoods, lanes, labels.

No Qt. Every function takes arrays (or a GraphData) and returns boolean masks or positions,
so the views hide and highlight by masks and never rebuild their items.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .graph_data import SCOPE_NAMES, TIER_NAMES, TYPE_NAMES, BoolArray, FloatArray, GraphData, IntArray

DORMANT = TIER_NAMES.index("dormant")
SHORT_TERM = TIER_NAMES.index("short_term")


@dataclass(frozen=True)
class GraphFilter:
    """What to show. ``None`` means "all"; owners use "" for the objective layer."""

    types: frozenset[str] | None = None
    tiers: frozenset[str] | None = None
    scopes: frozenset[str] | None = None  # who else remembers it: chat, character, persona, world
    owners: frozenset[str] | None = None
    regions: frozenset[str] | None = None
    #: The time scrubber: only memories first drawn from a message up to this index (None: all).
    #: Memories that name no source message (written by hand) always show.
    until_message: int | None = None


def _allowed(names: Collection[str], chosen: frozenset[str] | None) -> BoolArray:
    """A lookup table over ``names`` (plus one slot for unknowns) of what ``chosen`` allows."""
    if chosen is None:
        return np.ones(len(names) + 1, dtype=bool)
    return np.array([name in chosen for name in names] + [False], dtype=bool)


def filter_mask(data: GraphData, f: GraphFilter) -> BoolArray:
    """True for each node row that passes every part of the filter."""
    mask = _allowed(TYPE_NAMES, f.types)[data.type_idx]
    mask &= _allowed(TIER_NAMES, f.tiers)[data.tier_idx]
    mask &= _allowed(SCOPE_NAMES, f.scopes)[data.scope_idx]
    mask &= _allowed(data.owners.names, f.owners)[data.owner_idx]
    mask &= _allowed(data.regions.names, f.regions)[data.region_idx]
    if f.until_message is not None:
        mask &= data.first_message <= f.until_message
    return mask


def search_mask(data: GraphData, text: str) -> BoolArray:
    """Nodes whose title or text contains ``text`` (case-insensitive); none for empty text."""
    needle = text.strip().casefold()
    if not needle or data.n == 0:
        return np.zeros(data.n, dtype=bool)
    hay = np.array([f"{a}\n{b}".casefold() for a, b in zip(data.titles, data.texts, strict=True)])
    return np.char.find(hay, needle) >= 0


def visible_edges(data: GraphData, node_mask: BoolArray) -> BoolArray:
    """Edges whose two ends are both shown."""
    if data.m == 0:
        return np.zeros(0, dtype=bool)
    return node_mask[data.src] & node_mask[data.dst]


def k_hop(data: GraphData, seeds: IntArray, k: int) -> BoolArray:
    """Nodes within ``k`` edges of any seed row (edges taken as undirected)."""
    reach = np.zeros(data.n, dtype=bool)
    reach[seeds] = True
    for _ in range(max(0, k)):
        if data.m == 0:
            break
        a, b = reach[data.src], reach[data.dst]
        grown = reach.copy()
        grown[data.dst[a]] = True
        grown[data.src[b]] = True
        if np.array_equal(grown, reach):
            break
        reach = grown
    return reach


def lane_order(n_owners: int) -> IntArray:
    """Lane slot per owner index: objective (0) in the middle, owners alternate right, left…"""
    slots = np.zeros(max(1, n_owners), dtype=np.int64)
    k = np.arange(1, slots.size)
    slots[1:] = np.where(k % 2 == 1, (k + 1) // 2, -(k // 2))
    return slots


def lane_shift(
    pos: npt.NDArray[np.floating], owner_idx: IntArray, n_owners: int, gap: float = 0.25
) -> FloatArray:
    """Per-node (dx, 0) that centres each owner's nodes in its own column, side by side.

    Each column is as wide as most of its own nodes' spread (a far outlier is pulled to its
    column's edge; a lane of one or two memories gets a narrow column, not one as wide as the
    objective's) plus ``gap`` of it; the objective column is at x = 0, the owners' columns
    beside it, alternately right and left, outwards.
    """
    shift = np.zeros((owner_idx.size, 2))
    if owner_idx.size == 0 or not np.any(owner_idx):
        return shift
    lanes = max(1, n_owners)
    x = np.asarray(pos[:, 0], dtype=np.float64)
    count = np.bincount(owner_idx, minlength=lanes).astype(np.float64)
    mean = np.bincount(owner_idx, weights=x, minlength=lanes) / np.maximum(count, 1.0)
    local = x - mean[owner_idx]
    floor = float(np.quantile(np.abs(local), 0.9)) * 0.15 or 1.0  # the narrowest column
    half = np.full(lanes, floor)
    for lane in np.flatnonzero(count).tolist():
        half[lane] = max(floor, float(np.quantile(np.abs(local[owner_idx == lane]), 0.9)))
    local = np.clip(local, -half[owner_idx], half[owner_idx])
    width = 2.0 * half * (1.0 + gap)
    centre = np.zeros(lanes)
    slot = lane_order(lanes)
    for side in (1, -1):  # outwards on each side, in slot order, only lanes with memories take room
        edge = width[0] / 2
        for lane in sorted(
            (int(i) for i in np.flatnonzero((np.sign(slot) == side) & (count > 0))),
            key=lambda i: abs(int(slot[i])),
        ):
            centre[lane] = side * (edge + width[lane] / 2)
            edge += width[lane]
    shift[:, 0] = centre[owner_idx] + local - x
    return shift


def top_n(importance: FloatArray, candidates: BoolArray, n: int) -> IntArray:
    """Rows of the ``n`` most important candidate nodes, most important first."""
    rows = np.flatnonzero(candidates)
    if rows.size > n:
        rows = rows[np.argpartition(-importance[rows], n - 1)[:n]]
    return rows[np.argsort(-importance[rows], kind="stable")]
