"""What the model sees of the graph: the relevant existing memories as short labels
(``G1``…, mapped back to node ids when the model refers to them), active summaries, story
time and the current region. Read on the extraction thread with its own connection."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from ..model import Node
from ..schema import node_text
from ..store.live_nodes import LiveFilter, live_node_keys, newest_by_source
from ..store.reader import Reader
from .cleaning import PreparedMessage
from .story import MISTAKEN, OPEN, PROMISED, UNSURE, OpenItem
from .textutil import clip

MAX_MEMORIES = 16
_PROBE = re.compile(r"[a-z0-9]{5,}|[\u4e00-\u9fff]{2}")


@dataclass
class GraphContext:
    labels: dict[str, str] = field(default_factory=dict)  # label -> node id
    memories: list[dict[str, str]] = field(default_factory=list)
    summaries: list[str] = field(default_factory=list)
    story_time: str = ""
    region: str = ""


def graph_context(
    reader: Reader, chat_id: str, prepared: list[PreparedMessage], state: dict[str, object], names: list[str]
) -> GraphContext:
    pk = reader.chat_pk(chat_id)
    ctx = GraphContext()
    if pk is None:
        return ctx
    picked: dict[str, Node] = {}
    text = " ".join(m.text for m in prepared).lower()
    if names:
        for node in _first(
            reader, chat_id, pk, LiveFilter(types=("character", "location"), titles=names), MAX_MEMORIES
        ):
            picked.setdefault(node.id, node)
    # a plural probes by its singular ("mushrooms" finds "mushroom stew"): the memory a new
    # statement revises or replaces is often worded in the other number
    probes = sorted(
        {
            w[:-1] if len(w) > 5 and w.endswith("s") and not w.endswith("ss") else w
            for w in _PROBE.findall(text)
        },
        key=lambda w: (-len(w), w),
    )[:8]
    if probes and len(picked) < MAX_MEMORIES:
        for node in _first(reader, chat_id, pk, LiveFilter(words=probes), MAX_MEMORIES - len(picked)):
            picked.setdefault(node.id, node)
    for n, node in enumerate(picked.values(), start=1):
        label = f"G{n}"
        ctx.labels[label] = node.id
        ctx.memories.append(
            {"label": label, "type": node.type, "text": clip(node_text(node.type, node.fields), 240)}
        )
    ctx.summaries = [clip(s.text, 400) for s in reader.summaries(chat_id, status="active")[-3:]]
    story = state.get("story_time")
    if isinstance(story, dict):
        ctx.story_time = f"{story.get('label', '')} ({story.get('tense', 'unknown')})"
    regions = state.get("regions")
    if isinstance(regions, dict) and isinstance(regions.get("active"), str):
        ctx.region = regions["active"]
    return ctx


def _first(reader: Reader, chat_id: str, pk: int, found: LiveFilter, limit: int) -> list[Node]:
    """The ``limit`` most important matching memories, most recently updated first among
    equals, then by first source message, type and title: the same graph gives the same
    labels on SQLite and PostgreSQL (an SQL LIMIT over ties keeps whichever rows the scan met)."""
    keys = live_node_keys(reader, pk, found)
    keys.sort(key=lambda k: (-k[1], -k[2], (1 << 30) if k[3] is None else k[3], k[4], k[5], k[0]))
    ids = [k[0] for k in keys[:limit]]
    nodes = {n.id: n for n in reader.nodes_by_ids(chat_id, ids)} if ids else {}
    return [nodes[i] for i in ids if i in nodes]


def messages_json(prepared: list[PreparedMessage]) -> str:
    """The chat excerpt as JSON data: quoting makes every message inert text."""
    return json.dumps(
        [
            {"index": m.index, "role": m.role, "name": m.name, "context_only": m.context_only, "text": m.text}
            for m in prepared
        ],
        ensure_ascii=False,
        indent=1,
    )


MAX_OPEN_ITEMS = 24


def open_story_items(reader: Reader, chat_id: str) -> tuple[list[OpenItem], dict[str, str]]:
    """The open plot threads, open promises and beliefs not known to be wrong (newest
    ``MAX_OPEN_ITEMS``, oldest first), labelled ``S1``… for the heuristic extractor, which may
    close them; and the labels mapped to node ids. Ordered by content, never by random ids."""
    pk = reader.chat_pk(chat_id)
    if pk is None:
        return [], {}
    nodes = newest_by_source(
        reader, chat_id, pk, LiveFilter(types=("thread", "pov_memory")), MAX_OPEN_ITEMS * 4
    )
    items: list[tuple[tuple[int, str, str], Node]] = []
    for node in nodes:
        status = node.fields.get("status" if node.type == "thread" else "certainty", "").strip().lower()
        if node.type == "thread" and status not in (OPEN, PROMISED, ""):
            continue
        if node.type == "pov_memory" and (status == MISTAKEN or node.scope.layer != "pov"):
            continue
        first = min(node.source_indices) if node.source_indices else -1
        items.append(((first, node.title, json.dumps(node.fields, sort_keys=True, ensure_ascii=False)), node))
    items = sorted(items, key=lambda x: x[0])[-MAX_OPEN_ITEMS:]
    out: list[OpenItem] = []
    labels: dict[str, str] = {}
    for n, (_, node) in enumerate(items, start=1):
        label = f"S{n}"
        labels[label] = node.id
        if node.type == "thread":
            status = node.fields.get("status", "").strip().lower() or OPEN
            text = node.fields.get("summary") or node.title
        else:
            status = node.fields.get("certainty", "").strip().lower() or UNSURE
            text = node.fields.get("belief") or node.fields.get("summary") or node.title
        out.append(OpenItem(label, node.type, status, text, node.scope.owner))
    return out, labels
