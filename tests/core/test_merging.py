"""Merging two memories: evidence and empty fields move to the kept node, edges are re-pointed
without self-loops or duplicates, the other node is binned, and one undo restores both."""

from __future__ import annotations

import pytest

from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.errors import ValidationError
from bme_desktop.core.model import Edge, MessageIn, Node
from bme_desktop.core.service import MemoryService

CHAT = "merge-chat"


def _fact(service: MemoryService, statement: str, sources: list[int], **fields: str) -> Node:
    return service.create_node(
        CHAT, NodeDraft(type="fact", fields={"statement": statement, **fields}, source_indices=sources)
    ).value


@pytest.fixture
def graph(service: MemoryService) -> dict[str, Node]:
    service.sync(CHAT, [MessageIn(index=i, role="user", text=f"m{i}") for i in range(6)], complete=True)
    nodes = {
        "keep": _fact(service, "Lyra keeps the lantern", [1, 3]),
        "other": _fact(service, "Lyra tends the lantern", [2, 3], subject="Lyra", category="habit"),
        "a": _fact(service, "The harbour is cold", [0]),
        "b": _fact(service, "Orsk owes money", [4]),
    }
    service.link(CHAT, nodes["keep"].id, nodes["a"].id, "updates")
    service.link(CHAT, nodes["other"].id, nodes["a"].id, "updates")  # duplicates keep→a once re-pointed
    service.link(CHAT, nodes["b"].id, nodes["other"].id, "contradicts")  # re-pointed to b→keep
    service.link(CHAT, nodes["other"].id, nodes["keep"].id, "evolves")  # would be a self-loop
    return nodes


def _live_edges(service: MemoryService) -> list[Edge]:
    return service.edges(CHAT)


def test_merge_unions_evidence_and_fills_only_empty_fields(
    service: MemoryService, graph: dict[str, Node]
) -> None:
    merged = service.merge_nodes(CHAT, graph["keep"].id, graph["other"].id).value
    stored = service.get_node(CHAT, graph["keep"].id)
    assert stored == merged
    assert stored.source_indices == [1, 2, 3]
    assert stored.fields == {"statement": "Lyra keeps the lantern", "subject": "Lyra", "category": "habit"}


def test_merge_repoints_edges_without_self_loops_or_duplicates(
    service: MemoryService, graph: dict[str, Node]
) -> None:
    keep, other, a, b = (graph[k].id for k in ("keep", "other", "a", "b"))
    service.merge_nodes(CHAT, keep, other)
    ends = sorted((e.from_id, e.to_id, e.relation) for e in _live_edges(service))
    assert ends == sorted([(keep, a, "updates"), (b, keep, "contradicts")])
    assert all(e.from_id != e.to_id for e in _live_edges(service))


def test_merge_moves_the_other_node_to_the_recycle_bin(
    service: MemoryService, graph: dict[str, Node]
) -> None:
    service.merge_nodes(CHAT, graph["keep"].id, graph["other"].id)
    assert service.get_node(CHAT, graph["other"].id, include_deleted=True).deleted_at is not None


def test_one_undo_restores_both_nodes_and_all_edges_exactly(
    service: MemoryService, graph: dict[str, Node]
) -> None:
    before_nodes = [service.get_node(CHAT, graph[k].id) for k in ("keep", "other")]
    before_edges = _live_edges(service)
    service.merge_nodes(CHAT, graph["keep"].id, graph["other"].id)
    assert service.undo(CHAT).value
    assert [service.get_node(CHAT, graph[k].id) for k in ("keep", "other")] == before_nodes
    assert _live_edges(service) == before_edges


def test_a_node_cannot_be_merged_with_itself(service: MemoryService, graph: dict[str, Node]) -> None:
    with pytest.raises(ValidationError):
        service.merge_nodes(CHAT, graph["keep"].id, graph["keep"].id)
