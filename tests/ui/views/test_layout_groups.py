"""Community-aware layout: groups placed apart as wholes (super-nodes first), then held together
by a pull toward their own centre, so a big graph reads as clusters, not one disc (issue 19)."""

from __future__ import annotations

import numpy as np
import pytest

from bme_desktop.layout import ForceLayout, LayoutSettings
from bme_desktop.ui.views.placement import GroupPacking, arrange_groups


def _spread(pos: np.ndarray, groups: np.ndarray) -> tuple[float, float]:
    """The RMS radius within groups, and the smallest distance between two group centres."""
    centres = np.array([pos[groups == g].mean(axis=0) for g in np.unique(groups)])
    within = float(
        np.sqrt(
            np.mean([np.sum((pos[groups == g] - centres[g]) ** 2, axis=1).mean() for g in np.unique(groups)])
        )
    )
    gaps = [np.linalg.norm(a - b) for i, a in enumerate(centres) for b in centres[i + 1 :]]
    return within, float(min(gaps))


def test_arranging_moves_mixed_groups_apart_and_keeps_pinned_rows() -> None:
    rng = np.random.default_rng(3)
    pos = rng.uniform(-50, 50, size=(600, 2))
    groups = np.repeat(np.arange(4), 150)
    within, gap = _spread(pos, groups)
    assert gap < within  # one mixed disc
    keep = np.zeros(600, dtype=bool)
    keep[0] = True
    arranged = arrange_groups(pos, groups, keep)
    within, gap = _spread(arranged[1:], groups[1:])
    assert gap > 2 * within  # separate clusters
    assert arranged[0].tolist() == pos[0].tolist()


def test_group_gravity_keeps_communities_as_clusters_while_the_layout_runs() -> None:
    rng = np.random.default_rng(5)
    groups = np.repeat(np.arange(5), 80)
    start = arrange_groups(rng.uniform(-20, 20, size=(400, 2)), groups)
    plain = ForceLayout(positions=start, settings=LayoutSettings(gravity=5.0))
    pulled = ForceLayout(positions=start, settings=LayoutSettings(gravity=5.0, group_gravity=4.0))
    pulled.set_groups(groups)
    plain.run(300)
    pulled.run(300)
    within_plain, gap_plain = _spread(plain.positions, groups)
    within_pulled, gap_pulled = _spread(pulled.positions, groups)
    assert gap_pulled / within_pulled > 1.5 * gap_plain / within_plain
    assert gap_pulled > 2 * within_pulled


def test_groups_follow_added_and_removed_nodes() -> None:
    lay = ForceLayout(4, [[0, 1]], settings=LayoutSettings(group_gravity=1.0))
    lay.set_groups([0, 0, 1, 1])
    lay.add_nodes(2)
    assert lay.groups.tolist() == [0, 0, 1, 1, -1, -1]
    lay.remove_nodes([1])
    assert lay.groups.tolist() == [0, 1, 1, -1, -1]
    lay.run(5)  # no error with nodes in no group


def test_a_point_dragged_in_a_packed_cluster_maps_back_to_where_the_layout_has_it() -> None:
    rng = np.random.default_rng(9)
    groups = np.repeat(np.arange(3), 50)
    pos = rng.normal(size=(150, 2)) * 10
    packing = GroupPacking(groups)
    shown = packing.apply(pos)
    # a point well inside its disc (one on the rim was pulled in, and maps back to the rim)
    row = int(np.argmin(np.hypot(*(shown - packing.centre[groups]).T)))
    x, y = packing.to_layout(row, float(shown[row, 0]), float(shown[row, 1]))
    assert (x, y) == pytest.approx(tuple(pos[row]))
