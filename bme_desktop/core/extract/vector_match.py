"""Embedding cosines for near-duplicate matching, computed in the runner before the commit.

When the hybrid recaller's vector index holds vectors for the chat, each proposed new memory
that is matched by similarity (not by name, not a fact) is embedded with the same embedder
and scored against the index; ``matching.nearest`` then uses the cosine for every indexed
memory and the lexical overlap for the rest. Without an embedder or vectors (or if embedding
fails) nothing is returned and matching stays lexical. Never called on the writer thread.

Memories the index has not caught up with yet (the vector maintainer embeds in the
background) are embedded here too, up to ``CATCH_UP_LIMIT`` of them, so a chat extracted
again gives the same merges whether or not the index was ready. Their vectors are cached by
text, so the maintainer does not embed them again.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..index.vector_index import normalise_rows
from ..model import Node
from ..recall.documents import embed_text
from ..schema import NODE_TYPES, node_title
from .operations import NodeOp, Plan

if TYPE_CHECKING:
    from ..service import MemoryService
    from ..store.reader import Reader

log = logging.getLogger(__name__)
VECTOR_DUPLICATE_THRESHOLD = 0.92
CATCH_UP_LIMIT = 256  # more missing than this: the index is being (re)built; compare lexically


@dataclass(frozen=True)
class VectorScores:
    """Cosines of one proposed memory: ``indexed`` are the memories that have a vector,
    ``above`` those of them at or above ``threshold`` with their cosine."""

    indexed: frozenset[str]
    above: dict[str, float]
    threshold: float = VECTOR_DUPLICATE_THRESHOLD


def matched_by_similarity(op: NodeOp) -> bool:
    node_type = NODE_TYPES.get(op.type)
    return (op.action == "create" and node_type is not None and not op.entity and not node_type.latest_only
            and op.type != "fact")


def vector_scores(service: MemoryService, chat_id: str, plan: Plan,
                  threshold: float | None = None) -> dict[int, VectorScores]:
    """Scores by position in ``plan.ops``; empty when the chat has no vectors to compare with."""
    wanted = [(n, op) for n, op in enumerate(plan.ops) if matched_by_similarity(op)]
    vectors: Any = getattr(service.recaller, "vectors", None)
    if not wanted or vectors is None:
        return {}
    try:
        embedder = vectors.embedder()
        index = vectors.index(chat_id) if embedder is not None else None
        if embedder is None or index is None or len(index) == 0 or embedder.name != index.model:
            return {}
        if threshold is None:  # each model has its own scale: e5 puts distinct events at 0.85–0.97
            threshold = getattr(embedder, "duplicate_threshold", None) or VECTOR_DUPLICATE_THRESHOLD
        texts = [embed_text(Node(id="", chat_id=chat_id, type=op.type, title=node_title(op.type, op.fields),
                                 fields=dict(op.fields))) for _, op in wanted]
        rows = np.asarray(embedder.embed(texts), dtype=np.float32)
        if rows.shape != (len(texts), index.dim):
            raise ValueError(f"embedder returned shape {rows.shape}, index holds dimension {index.dim}")
        late_ids, late_rows = _not_yet_indexed(service, chat_id, index, embedder)
        out: dict[int, VectorScores] = {}
        for (n, _), row in zip(wanted, rows, strict=True):
            ids, sims = index.scores(row)
            if late_ids:
                ids = ids + late_ids
                sims = np.concatenate([sims, late_rows @ normalise_rows(row)[0]])
            above = {node_id: float(s) for node_id, s in zip(ids, sims, strict=True) if s >= threshold}
            out[n] = VectorScores(frozenset(ids), above, threshold)
        return out
    except Exception as exc:  # an endpoint down or a bad reply: lexical matching still works
        log.warning("near-duplicate vectors unavailable for %s: %s", chat_id, exc)
        return {}


def _not_yet_indexed(service: MemoryService, chat_id: str, index: Any, embedder: Any) -> tuple[list[str], Any]:
    """The chat's live memories missing from ``index``, with their unit vectors (none when
    more than ``CATCH_UP_LIMIT`` are missing)."""
    def read(r: Reader) -> list[Node]:  # one transaction
        missing = [i for i in r.live_node_ids(chat_id) if i not in index]
        return r.nodes_by_ids(chat_id, missing) if 0 < len(missing) <= CATCH_UP_LIMIT else []

    nodes = [n for n in service.read(read) if n.deleted_at is None]
    if not nodes:
        return [], None
    rows = np.asarray(embedder.embed([embed_text(n) for n in nodes]), dtype=np.float32)
    if rows.shape != (len(nodes), index.dim):
        raise ValueError(f"embedder returned shape {rows.shape}, index holds dimension {index.dim}")
    return [n.id for n in nodes], normalise_rows(rows)
