"""GraphML and GEXF parse back with the live graph's nodes, edges and attributes."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from bme_desktop.core.backup.graph_formats import GEXF_NS, GRAPHML_NS, graph_of, to_gexf, to_graphml
from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.service import MemoryService

G = f"{{{GRAPHML_NS}}}"
X = f"{{{GEXF_NS}}}"


def test_graphml_parses_back_with_live_nodes_edges_and_escaped_text(filled: MemoryService) -> None:
    filled.create_node("story-1", NodeDraft("fact", {"statement": 'a < b & "c" \x01 城堡'}))
    nodes, edges = filled.read(graph_of)
    root = ET.fromstring(to_graphml(nodes, edges))
    graph = root.find(f"{G}graph")
    assert graph is not None
    assert len(graph.findall(f"{G}node")) == 5  # the fact in the recycle bin stays out
    assert len(graph.findall(f"{G}edge")) == 2
    keys = {k.get("id"): k.get("attr.name") for k in root.findall(f"{G}key")}
    texts = [d.text for d in graph.iter(f"{G}data") if keys[d.get("key")] == "text"]
    assert 'a < b & "c"  城堡' in texts
    relations = {d.text for d in graph.iter(f"{G}data") if d.get("key") == "e_relation"}
    assert relations == {"involved_in", "occurred_at"}


def test_gexf_parses_back_with_counts_and_weights(filled: MemoryService) -> None:
    nodes, edges = filled.read(graph_of)
    root = ET.fromstring(to_gexf(nodes, edges))
    assert root.get("version") == "1.3"
    node_list = root.findall(f"{X}graph/{X}nodes/{X}node")
    edge_list = root.findall(f"{X}graph/{X}edges/{X}edge")
    assert len(node_list) == 4 and len(edge_list) == 2
    assert {n.get("label") for n in node_list} >= {"Ann", "North castle", "No magic"}
    assert sorted(float(e.get("weight", "0")) for e in edge_list) == [0.6, 0.8]
    ids = {n.get("id") for n in node_list}
    assert all(e.get("source") in ids and e.get("target") in ids for e in edge_list)
