"""Embedding cosines for near-duplicate matching, computed in the runner before the commit.

Each proposed new memory that is matched by similarity (not by name, not a fact) is embedded
with the recall's embedder and compared by cosine with *every* memory ``matching.nearest``
could pick for it: the chat's live, unarchived memories of its type (events: those drawn
from the 40 messages before it). Their vectors come from the vector index where it holds
them for the same text, and are embedded here where it does not (the maintainer works in
the background; the embedder caches them by text, so it does not embed them again). The
decision therefore depends only on the chat's memories and the embedder, never on how far
the index had got: the same messages give the same merges. Cosines are taken in float64,
one memory at a time, so no BLAS blocking can move one across the threshold. Without an
embedder (or if embedding fails) nothing is returned and matching stays lexical. Never
called on the writer thread.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from sqlalchemy import select

from ..index.vector_index import normalise_rows
from ..index.vector_store import text_hash
from ..model import Node
from ..recall.documents import embed_text
from ..schema import NODE_TYPES, node_title
from ..store import tables as t
from ..store.rows import row_to_node
from .operations import NodeOp, Plan

if TYPE_CHECKING:
    from ..service import MemoryService
    from ..store.reader import Reader

log = logging.getLogger(__name__)
VECTOR_DUPLICATE_THRESHOLD = 0.92
EVENT_DUPLICATE_WINDOW = 40  # events repeat only nearby (a re-sent reply); other types anywhere in the chat
EMBED_CHUNK = 64


@dataclass(frozen=True)
class VectorScores:
    """Cosines of one proposed memory: ``indexed`` are the memories it was compared with by
    cosine, ``above`` those of them at or above ``threshold`` with their cosine."""

    indexed: frozenset[str]
    above: dict[str, float]
    threshold: float = VECTOR_DUPLICATE_THRESHOLD


def matched_by_similarity(op: NodeOp) -> bool:
    node_type = NODE_TYPES.get(op.type)
    return (op.action == "create" and node_type is not None and not op.entity and not node_type.latest_only
            and op.type != "fact")


def similarity_since(op: NodeOp) -> int | None:
    """The first message a near duplicate of ``op`` may be drawn from (None: anywhere)."""
    if op.type == "event" and op.source_indices:
        return min(op.source_indices) - EVENT_DUPLICATE_WINDOW
    return None


def vector_scores(service: MemoryService, chat_id: str, plan: Plan,
                  threshold: float | None = None) -> dict[int, VectorScores]:
    """Scores by position in ``plan.ops``; empty without an embedder."""
    wanted = [(n, op) for n, op in enumerate(plan.ops) if matched_by_similarity(op)]
    vectors: Any = getattr(service.recaller, "vectors", None)
    if not wanted or vectors is None:
        return {}
    try:
        embedder = vectors.embedder()
        if embedder is None:
            return {}
        if threshold is None:  # each model has its own scale: e5 puts distinct events at 0.85–0.97
            threshold = getattr(embedder, "duplicate_threshold", None) or VECTOR_DUPLICATE_THRESHOLD
        texts = [embed_text(Node(id="", chat_id=chat_id, type=op.type, title=node_title(op.type, op.fields),
                                 fields=dict(op.fields))) for _, op in wanted]
        proposed = _embed(embedder, texts)
        nodes = service.read(lambda r: _comparable(r, chat_id, [op for _, op in wanted]))
        known = _unit_vectors(vectors.index(chat_id), embedder, nodes, proposed.shape[1])
        out: dict[int, VectorScores] = {}
        for (n, op), row in zip(wanted, proposed, strict=True):
            since = similarity_since(op)
            pool = [node.id for node in nodes if node.type == op.type
                    and (since is None or (node.source_indices and min(node.source_indices) >= since))]
            query = row.astype(np.float64)
            above: dict[str, float] = {}
            for node_id in pool:
                cosine = float(np.dot(known[node_id], query))
                if cosine >= threshold:
                    above[node_id] = cosine
            out[n] = VectorScores(frozenset(pool), above, threshold)
        return out
    except Exception as exc:  # an endpoint down or a bad reply: lexical matching still works
        log.warning("near-duplicate vectors unavailable for %s: %s", chat_id, exc)
        return {}


def _embed(embedder: Any, texts: list[str]) -> Any:
    """Unit rows (float32) for ``texts``, asked for in chunks."""
    parts = [np.asarray(embedder.embed(texts[i:i + EMBED_CHUNK]), dtype=np.float32)
             for i in range(0, len(texts), EMBED_CHUNK)]
    rows = np.concatenate(parts) if parts else np.zeros((0, 0), np.float32)
    if rows.ndim != 2 or rows.shape[0] != len(texts):
        raise ValueError(f"embedder returned shape {rows.shape} for {len(texts)} texts")
    return normalise_rows(rows)


def _comparable(r: Reader, chat_id: str, ops: list[NodeOp]) -> list[Node]:
    """Every live, unarchived memory ``matching.nearest`` could pick for one of ``ops``."""
    pk = r.require_chat_pk(chat_id)
    found: list[Node] = []
    for type_id in sorted({op.type for op in ops}):
        sinces = [similarity_since(op) for op in ops if op.type == type_id]
        cond = [t.nodes.c.chat_pk == pk, t.nodes.c.type == type_id, t.nodes.c.deleted_at.is_(None),
                t.nodes.c.tier != "archived"]
        if None not in sinces:
            cond.append(t.nodes.c.src_min >= min(s for s in sinces if s is not None))
        found += [row_to_node(row, chat_id) for row in r.conn.execute(select(t.nodes).where(*cond)).mappings()]
    return found


def _unit_vectors(index: Any, embedder: Any, nodes: list[Node], dim: int) -> dict[str, Any]:
    """A float64 unit vector for each of ``nodes``: the index's where it holds one for the
    memory's current text (the same embedder gives the same vector for the same text), else
    embedded now."""
    texts = {node.id: embed_text(node) for node in nodes}
    out: dict[str, Any] = {}
    if index is not None and index.model == embedder.name and index.dim == dim:
        current = [i for i, text in texts.items() if index.text_hash(i) == text_hash(text)]
        ids, rows = index.vectors_of(current)
        out.update(zip(ids, rows.astype(np.float64), strict=True))
    missing = [i for i in texts if i not in out]
    if missing:
        rows = _embed(embedder, [texts[i] for i in missing])
        if rows.shape[1] != dim:
            raise ValueError(f"embedder returned dimension {rows.shape[1]} for memories, {dim} for the new ones")
        out.update(zip(missing, rows.astype(np.float64), strict=True))
    return out
