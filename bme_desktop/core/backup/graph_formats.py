"""GraphML and GEXF of the memory graph, for Gephi, yEd, Cytoscape and networkx.

Live nodes only (the recycle bin stays out) with type, title, text, importance, tier and
chat; live edges between them with relation and strength. Built with ``xml.etree``, which
escapes markup; characters XML 1.0 cannot hold at all are dropped.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from ..model import Edge, Node
from ..schema import RELATIONS
from ..store.reader import Reader
from ..store.rows import node_one_line

GRAPHML_NS = "http://graphml.graphdrawing.org/xmlns"
GEXF_NS = "http://gexf.net/1.3"
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
NODE_ATTRS = (
    ("type", "string"),
    ("title", "string"),
    ("text", "string"),
    ("importance", "double"),
    ("tier", "string"),
    ("chat", "string"),
)
EDGE_ATTRS = (("relation", "string"), ("strength", "double"))


def clean(text: str) -> str:
    return _NOT_XML.sub("", text)


def graph_of(reader: Reader, chat_ids: Sequence[str] | None = None) -> tuple[list[Node], list[Edge]]:
    nodes: list[Node] = []
    edges: list[Edge] = []
    for chat_id in sorted(reader.chat_ids() if chat_ids is None else chat_ids):
        chat_nodes = sorted(reader.all_nodes(chat_id), key=lambda n: n.id)
        live = {n.id for n in chat_nodes}
        nodes.extend(chat_nodes)
        edges.extend(
            sorted(
                (e for e in reader.edges(chat_id) if e.from_id in live and e.to_id in live),
                key=lambda e: e.id,
            )
        )
    return nodes, edges


def _node_values(node: Node) -> dict[str, str]:
    return {
        "type": node.type,
        "title": clean(node.title),
        "text": clean(node_one_line(node)),
        "importance": repr(float(node.importance)),
        "tier": node.tier,
        "chat": clean(node.chat_id),
    }


def _directed(edges: Sequence[Edge]) -> bool:
    return all(RELATIONS[e.relation].directed if e.relation in RELATIONS else True for e in edges)


def to_graphml(nodes: Sequence[Node], edges: Sequence[Edge]) -> bytes:
    ET.register_namespace("", GRAPHML_NS)
    root = ET.Element(f"{{{GRAPHML_NS}}}graphml")
    for scope, attrs in (("node", NODE_ATTRS), ("edge", EDGE_ATTRS)):
        for name, kind in attrs:
            ET.SubElement(
                root,
                f"{{{GRAPHML_NS}}}key",
                {"id": f"{scope[0]}_{name}", "for": scope, "attr.name": name, "attr.type": kind},
            )
    graph = ET.SubElement(root, f"{{{GRAPHML_NS}}}graph", {"id": "memory", "edgedefault": "directed"})
    for node in nodes:
        el = ET.SubElement(graph, f"{{{GRAPHML_NS}}}node", {"id": node.id})
        for name, value in _node_values(node).items():
            ET.SubElement(el, f"{{{GRAPHML_NS}}}data", {"key": f"n_{name}"}).text = value
    for edge in edges:
        el = ET.SubElement(
            graph, f"{{{GRAPHML_NS}}}edge", {"id": edge.id, "source": edge.from_id, "target": edge.to_id}
        )
        if edge.relation in RELATIONS and not RELATIONS[edge.relation].directed:
            el.set("directed", "false")
        ET.SubElement(el, f"{{{GRAPHML_NS}}}data", {"key": "e_relation"}).text = edge.relation
        ET.SubElement(el, f"{{{GRAPHML_NS}}}data", {"key": "e_strength"}).text = repr(float(edge.strength))
    ET.indent(root, space=" ")
    return bytes(ET.tostring(root, encoding="utf-8", xml_declaration=True)) + b"\n"


def to_gexf(nodes: Sequence[Node], edges: Sequence[Edge]) -> bytes:
    ET.register_namespace("", GEXF_NS)
    root = ET.Element(f"{{{GEXF_NS}}}gexf", {"version": "1.3"})
    meta = ET.SubElement(root, f"{{{GEXF_NS}}}meta")
    ET.SubElement(meta, f"{{{GEXF_NS}}}creator").text = "BME Desktop"
    graph = ET.SubElement(
        root,
        f"{{{GEXF_NS}}}graph",
        {"defaultedgetype": "directed" if _directed(edges) else "mixed", "mode": "static"},
    )
    for scope, attrs in (("node", NODE_ATTRS), ("edge", EDGE_ATTRS)):
        block = ET.SubElement(graph, f"{{{GEXF_NS}}}attributes", {"class": scope})
        for name, kind in attrs:
            ET.SubElement(block, f"{{{GEXF_NS}}}attribute", {"id": name, "title": name, "type": kind})
    node_list = ET.SubElement(graph, f"{{{GEXF_NS}}}nodes")
    for node in nodes:
        values = _node_values(node)
        el = ET.SubElement(node_list, f"{{{GEXF_NS}}}node", {"id": node.id, "label": values["title"]})
        holder = ET.SubElement(el, f"{{{GEXF_NS}}}attvalues")
        for name, value in values.items():
            ET.SubElement(holder, f"{{{GEXF_NS}}}attvalue", {"for": name, "value": value})
    edge_list = ET.SubElement(graph, f"{{{GEXF_NS}}}edges")
    for edge in edges:
        directed = RELATIONS[edge.relation].directed if edge.relation in RELATIONS else True
        el = ET.SubElement(
            edge_list,
            f"{{{GEXF_NS}}}edge",
            {
                "id": edge.id,
                "source": edge.from_id,
                "target": edge.to_id,
                "label": edge.relation,
                "weight": repr(float(edge.strength)),
                "type": "directed" if directed else "undirected",
            },
        )
        holder = ET.SubElement(el, f"{{{GEXF_NS}}}attvalues")
        ET.SubElement(holder, f"{{{GEXF_NS}}}attvalue", {"for": "relation", "value": edge.relation})
        ET.SubElement(
            holder, f"{{{GEXF_NS}}}attvalue", {"for": "strength", "value": repr(float(edge.strength))}
        )
    ET.indent(root, space=" ")
    return bytes(ET.tostring(root, encoding="utf-8", xml_declaration=True)) + b"\n"
