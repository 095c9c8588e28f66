"""GraphData and the queries over it: plain numpy, no Qt application needed."""

from __future__ import annotations

import numpy as np

from bme_desktop.core.model import Edge, Node, Scope
from bme_desktop.ui.views.graph_data import BUCKET_NAMES, TYPE_NAMES, GraphData, segments
from bme_desktop.ui.views.graph_query import GraphFilter, filter_mask, k_hop, lane_shift, search_mask, top_n
from bme_desktop.ui.views.nebula._geometry import clustered, pick, project


def node(
    i: str,
    type_: str = "fact",
    *,
    tier: str = "long_term",
    owner: str | None = None,
    importance: float = 5.0,
    title: str = "",
) -> Node:
    scope = Scope("pov", owner) if owner else Scope()
    return Node(
        i,
        "c",
        type_,
        title or i,
        {"statement": f"text of {i}"},
        importance=importance,
        tier=tier,
        scope=scope,
    )


def edge(i: str, a: str, b: str, relation: str = "related", valid_until: float | None = None) -> Edge:
    return Edge(i, "c", a, b, relation, valid_until=valid_until)


def chain() -> GraphData:
    nodes = [node("a", "character"), node("b", "event"), node("c", "location", tier="dormant"), node("d")]
    edges = [
        edge("ab", "a", "b", "involved_in"),
        edge("bc", "b", "c", "contradicts"),
        edge("cd", "c", "d", valid_until=1.0),
    ]
    return GraphData.from_records(nodes, edges)


def test_records_become_parallel_arrays_with_buckets_and_flags() -> None:
    g = chain()
    assert g.n == 4 and g.m == 3
    assert [TYPE_NAMES[t] for t in g.type_idx] == ["character", "event", "location", "fact"]
    assert g.src.tolist() == [0, 1, 2] and g.dst.tolist() == [1, 2, 3]
    assert BUCKET_NAMES[g.bucket[0]] == "participation"
    assert g.inhibitory.tolist() == [False, True, False]
    assert g.invalid.tolist() == [False, False, True]


def test_removing_a_node_compacts_rows_and_drops_its_edges() -> None:
    g = chain()
    remap = g.remove_nodes(["b"])
    assert remap.tolist() == [0, -1, 1, 2]
    assert g.ids == ["a", "c", "d"] and g.row == {"a": 0, "c": 1, "d": 2}
    assert g.edge_ids == ["cd"] and g.src.tolist() == [1] and g.dst.tolist() == [2]


def test_upsert_appends_new_rows_and_updates_known_ones_in_place() -> None:
    g = chain()
    added, changed = g.upsert_nodes([node("e"), node("a", "character", importance=9.0)])
    assert added.tolist() == [4] and changed.tolist() == [0]
    assert g.importance[0] == 9.0 and g.sizes[0] > g.sizes[1]


def test_filter_by_type_tier_and_owner() -> None:
    g = GraphData.from_records(
        [node("a", "character"), node("b", owner="Lyra"), node("c", tier="dormant")], []
    )
    assert filter_mask(g, GraphFilter(types=frozenset({"fact"}))).tolist() == [False, True, True]
    assert filter_mask(g, GraphFilter(tiers=frozenset({"long_term"}))).tolist() == [True, True, False]
    assert filter_mask(g, GraphFilter(owners=frozenset({"Lyra"}))).tolist() == [False, True, False]


def test_k_hop_reaches_only_nodes_within_k_edges() -> None:
    g = chain()
    assert k_hop(g, np.array([0]), 1).tolist() == [True, True, False, False]
    assert k_hop(g, np.array([0]), 2).tolist() == [True, True, True, False]


def test_search_matches_title_or_text_case_insensitively() -> None:
    g = GraphData.from_records([node("a", title="Ember Road"), node("b")], [])
    assert search_mask(g, "ember").tolist() == [True, False]
    assert search_mask(g, "TEXT OF B").tolist() == [False, True]
    assert not search_mask(g, "  ").any()


def test_lanes_put_objective_in_the_middle_and_each_owner_in_its_own_column() -> None:
    g = GraphData.from_records(
        [node("o1"), node("o2"), node("l1", owner="Lyra"), node("w1", owner="Wren")], []
    )
    pos = np.array([[0.0, 0.0], [1.0, 0.0], [0.2, 0.0], [0.4, 0.0]])
    x = (pos + lane_shift(pos, g.owner_idx, len(g.owners.names)))[:, 0]
    assert abs(x[:2].mean()) < 1e-9
    assert x[2] > x[1] and x[3] < x[0]


def test_segments_interleave_edge_ends_for_pair_curves() -> None:
    x, y = segments(np.array([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]), [0, 1], [1, 2])
    assert x.tolist() == [0.0, 2.0, 2.0, 4.0] and y.tolist() == [1.0, 3.0, 3.0, 5.0]


def test_top_n_returns_the_most_important_candidates_first() -> None:
    imp = np.array([1.0, 9.0, 5.0, 7.0])
    assert top_n(imp, np.array([True, True, False, True]), 2).tolist() == [1, 3]


def test_nebula_clusters_each_type_around_its_own_centre() -> None:
    rng = np.random.default_rng(0)
    types = np.repeat([0, 1], 50)
    pos = clustered(rng.normal(size=(100, 3)), types, 2)
    gap = np.linalg.norm(pos[:50].mean(axis=0) - pos[50:].mean(axis=0))
    assert gap > 2 * np.linalg.norm(pos[:50] - pos[:50].mean(axis=0), axis=1).mean()


def test_projection_and_picking_find_the_point_under_the_cursor() -> None:
    mvp = np.eye(4)  # NDC = world: x, y in [-1, 1]
    pts = np.array([[0.0, 0.0, 0.0], [0.5, 0.5, 0.0]])
    screen, front = project(pts, mvp, 200, 100)
    assert screen.tolist() == [[100.0, 50.0], [150.0, 25.0]]
    assert pick(screen, front, 149, 27, 4.0) == 1
    assert pick(screen, front, 10, 10, 4.0) == -1


def test_the_scope_filter_keeps_the_memories_shared_as_chosen_even_after_an_update() -> None:
    shared = [
        Node("p", "c", "fact", "p", {}, scope=Scope(kind="persona")),
        node("a"),
        Node("w", "c", "fact", "w", {}, scope=Scope(kind="world")),
    ]
    g = GraphData.from_records(shared, [])
    assert filter_mask(g, GraphFilter(scopes=frozenset({"chat", "world"}))).tolist() == [False, True, True]
    g.upsert_nodes([Node("a", "c", "fact", "a", {}, scope=Scope(kind="persona"))])  # shared later
    assert filter_mask(g, GraphFilter(scopes=frozenset({"persona"}))).tolist() == [True, True, False]
    g.remove_nodes(["p"])
    assert filter_mask(g, GraphFilter(scopes=frozenset({"world"}))).tolist() == [False, True]


def test_a_lane_of_few_memories_gets_a_narrow_column_beside_a_wide_objective_one() -> None:
    objective = [node(f"o{i}") for i in range(40)]
    g = GraphData.from_records([*objective, node("l1", owner="Lyra"), node("w1", owner="Wren")], [])
    pos = np.zeros((42, 2))
    pos[:40, 0] = np.linspace(-10.0, 10.0, 40)
    x = (pos + lane_shift(pos, g.owner_idx, len(g.owners.names)))[:, 0]
    spread = x[:40].max() - x[:40].min()
    assert spread > 15.0  # the objective column keeps its width
    beyond = max(abs(x[40]), abs(x[41])) - x[:40].max()
    assert 0 < beyond < spread * 0.5  # the owners' columns sit close beside it, not a whole width away
