"""Community detection for the graph views (no Qt): Louvain groups, pooled loose memories, names."""

from __future__ import annotations

import numpy as np

from bme_desktop.ui.views.communities import Communities, detect
from bme_desktop.ui.views.graph_data import TYPE_NAMES


def two_cliques_and_loners() -> tuple[list[str], list[str], np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Rows 0-5 and 6-11 are two cliques joined by one edge; 12-15 are unlinked facts."""
    ids = [f"n{i}" for i in range(16)]
    titles = [
        *(["Lyra"] + [f"a{i}" for i in range(1, 6)]),
        *(["Orsk"] + [f"b{i}" for i in range(1, 6)]),
        "f1",
        "f2",
        "f3",
        "f4",
    ]
    pairs = [(a, b) for a in range(6) for b in range(a + 1, 6)]
    pairs += [(a + 6, b + 6) for a, b in pairs] + [(0, 6)]
    src = np.array([p[0] for p in pairs], np.int64)
    dst = np.array([p[1] for p in pairs], np.int64)
    importance = np.zeros(16)
    importance[[0, 6]] = 9.0
    type_idx = np.full(16, TYPE_NAMES.index("event"), np.int64)
    type_idx[12:] = TYPE_NAMES.index("fact")
    return ids, titles, importance, type_idx, src, dst


def test_cliques_are_communities_and_loners_are_pooled_by_type() -> None:
    c = detect(*two_cliques_and_loners())
    assert c.count == 3
    assert len(set(c.label[:6].tolist())) == 1 and len(set(c.label[6:12].tolist())) == 1
    assert c.label[0] != c.label[6]
    pool = c.label[12]
    assert set(c.label[12:].tolist()) == {pool}
    assert c.loose_type[pool] == TYPE_NAMES.index("fact")
    assert c.loose_type[c.label[0]] == -1 and c.loose_type[c.label[6]] == -1


def test_a_community_is_named_after_its_best_connected_titles() -> None:
    c = detect(*two_cliques_and_loners())
    assert c.names[c.label[0]].startswith("Lyra")
    assert c.names[c.label[6]].startswith("Orsk")


def test_the_same_graph_gets_the_same_communities() -> None:
    a, b = detect(*two_cliques_and_loners()), detect(*two_cliques_and_loners())
    assert a.label.tolist() == b.label.tolist() and a.names == b.names


def test_labels_follow_ids_and_unknown_ids_have_none() -> None:
    c = detect(*two_cliques_and_loners())
    assert c.labels_for(["n6", "new", "n0"]).tolist() == [c.label[6], -1, c.label[0]]
    assert Communities().labels_for(["x"]).tolist() == [-1]
