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

An embedder may say that two texts sharing too few words never reach its duplicate cosine
(``lexical_gate``, a Jaccard overlap of ``textutil.term_set``; e5 at 0.975 says 0.3, measured
in docs/embedders.md). Then only the memories sharing at least that much with the proposed
one are compared by cosine (the rest count as compared and far), and a proposed memory with
no such memory is not embedded here at all: the vector index embeds it in the background.
The gate depends only on the texts, so the decision stays the same whatever the timing.

Nor is a memory compared by cosine that ``matching.nearest`` would never merge with the
proposed one whatever its cosine: one about other people or places (each names a character or
place of the chat that the other does not, ``matching.about_others``), judged by the names the
chat had before the batch (the applier judges by those plus the batch's own, and a pair about
others by fewer names is about others by more). On a templated role-play most proposals close
in words differ in names, and were embedded on extraction's path only to be refused.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..index.vector_index import normalise_rows
from ..index.vector_store import text_hash
from ..model import Node
from ..recall.documents import embed_text
from ..schema import NODE_TYPES, node_text, node_title
from ..store.live_nodes import LiveFilter, live_nodes
from .matching import ENTITY_TYPES, MAX_ENTITIES, about_others, folded_names, names_in
from .operations import NodeOp, Plan
from .textutil import overlap, term_set

if TYPE_CHECKING:
    from ..ports import Matching
    from ..store.reader import Reader

log = logging.getLogger(__name__)
VECTOR_DUPLICATE_THRESHOLD = 0.92
EVENT_DUPLICATE_WINDOW = 40  # events repeat only nearby (a re-sent reply); other types anywhere in the chat
EMBED_CHUNK = 64
TERMS_CACHE = 20000  # term sets kept by ``TermCache`` (texts of the chat's comparable memories)


class TermCache:
    """``term_set`` of texts seen before (the same memories are compared batch after batch).
    One per runner; cleared when full."""

    def __init__(self, size: int = TERMS_CACHE) -> None:
        self.size = size
        self._terms: dict[str, frozenset[str]] = {}

    def __call__(self, text: str) -> frozenset[str]:
        found = self._terms.get(text)
        if found is None:
            if len(self._terms) >= self.size:
                self._terms.clear()
            found = self._terms[text] = term_set(text)
        return found


@dataclass(frozen=True)
class VectorScores:
    """Cosines of one proposed memory: ``indexed`` are the memories it was compared with by
    cosine, ``above`` those of them at or above ``threshold`` with their cosine."""

    indexed: frozenset[str]
    above: dict[str, float]
    threshold: float = VECTOR_DUPLICATE_THRESHOLD


def matched_by_similarity(op: NodeOp) -> bool:
    node_type = NODE_TYPES.get(op.type)
    return (
        op.action == "create"
        and node_type is not None
        and not op.entity
        and not node_type.latest_only
        and op.type != "fact"
    )


def similarity_since(op: NodeOp) -> int | None:
    """The first message a near duplicate of ``op`` may be drawn from (None: anywhere)."""
    if op.type == "event" and op.source_indices:
        return min(op.source_indices) - EVENT_DUPLICATE_WINDOW
    return None


def vector_scores(
    service: Matching,
    chat_id: str,
    plan: Plan,
    threshold: float | None = None,
    terms: TermCache | None = None,
) -> dict[int, VectorScores]:
    """Scores by position in ``plan.ops``; empty without an embedder."""
    wanted = [(n, op) for n, op in enumerate(plan.ops) if matched_by_similarity(op)]
    vectors: Any = service.vector_index()
    if not wanted or vectors is None:
        return {}
    try:
        embedder = vectors.embedder()
        if embedder is None:
            return {}
        if threshold is None:  # each model has its own scale: e5 puts distinct events at 0.85–0.97
            threshold = getattr(embedder, "duplicate_threshold", None) or VECTOR_DUPLICATE_THRESHOLD
        gate = getattr(embedder, "lexical_gate", None)
        terms = terms or TermCache()
        nodes, names = service.read(
            lambda r: (_comparable(r, chat_id, [op for _, op in wanted]), _entity_names(r, chat_id))
        )
        pools: list[list[Node]] = []
        close: list[list[Node]] = []
        for _, op in wanted:
            since = similarity_since(op)
            pool = [
                node
                for node in nodes
                if node.type == op.type
                and (since is None or (node.source_indices and min(node.source_indices) >= since))
            ]
            pools.append(pool)
            text = node_text(op.type, op.fields)
            mine = terms(text)
            near = (
                pool
                if gate is None
                else [
                    node for node in pool if overlap(mine, terms(node_text(node.type, node.fields))) >= gate
                ]
            )
            named = names_in(text, names)
            close.append(
                [
                    node
                    for node in near
                    if not about_others(named, names_in(node_text(node.type, node.fields), names))
                ]
            )
        asked = [k for k, near in enumerate(close) if near]
        texts = [
            embed_text(
                Node(
                    id="",
                    chat_id=chat_id,
                    type=wanted[k][1].type,
                    title=node_title(wanted[k][1].type, wanted[k][1].fields),
                    fields=dict(wanted[k][1].fields),
                )
            )
            for k in asked
        ]
        compared = list({node.id: node for k in asked for node in close[k]}.values())
        known, missing = _indexed_vectors(vectors.index(chat_id), embedder, compared)
        # one encode call for the proposed memories and the compared ones the index lacks
        rows = _embed(embedder, texts + [embed_text(node) for node in missing]) if texts else None
        proposed = {k: rows[i] for i, k in enumerate(asked)} if rows is not None else {}
        if rows is not None:
            if known and rows.shape[1] != next(iter(known.values())).shape[0]:
                raise ValueError(f"embedder returned dimension {rows.shape[1]}, the index holds another")
            known.update(
                (node.id, row.astype(np.float64))
                for node, row in zip(missing, rows[len(texts) :], strict=True)
            )
        out: dict[int, VectorScores] = {}
        for k, (n, _) in enumerate(wanted):
            above: dict[str, float] = {}
            if k in proposed:
                query = proposed[k].astype(np.float64)
                for node in close[k]:
                    cosine = float(np.dot(known[node.id], query))
                    if cosine >= threshold:
                        above[node.id] = cosine
            out[n] = VectorScores(frozenset(node.id for node in pools[k]), above, threshold)
        return out
    except Exception as exc:  # an endpoint down or a bad reply: lexical matching still works
        log.warning("near-duplicate vectors unavailable for %s: %s", chat_id, exc)
        return {}


def _embed(embedder: Any, texts: list[str]) -> Any:
    """Unit rows (float32) for ``texts``, asked for in chunks."""
    parts = [
        np.asarray(embedder.embed(texts[i : i + EMBED_CHUNK]), dtype=np.float32)
        for i in range(0, len(texts), EMBED_CHUNK)
    ]
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
        since = None if None in sinces else min(s for s in sinces if s is not None)
        found += live_nodes(r, chat_id, pk, LiveFilter((type_id,), since=since))
    return found


def _entity_names(r: Reader, chat_id: str) -> list[str]:
    """The chat's character and place names as the applier's ``matching.nearest`` folds them,
    read before the batch: the applier's list holds these and those the batch adds, and a pair
    about others by fewer names is about others by more (``about_others``)."""
    pk = r.require_chat_pk(chat_id)
    return folded_names(live_nodes(r, chat_id, pk, LiveFilter(ENTITY_TYPES), limit=MAX_ENTITIES))


def _indexed_vectors(index: Any, embedder: Any, nodes: list[Node]) -> tuple[dict[str, Any], list[Node]]:
    """Float64 unit vectors of ``nodes`` from the index where it holds one for the memory's
    current text (the same embedder gives the same vector for the same text), and the nodes
    it holds none for (to be embedded now)."""
    out: dict[str, Any] = {}
    if (
        index is not None
        and index.model == embedder.name
        and (embedder.dim is None or index.dim == embedder.dim)
    ):
        current = [node.id for node in nodes if index.text_hash(node.id) == text_hash(embed_text(node))]
        ids, rows = index.vectors_of(current)
        out.update(zip(ids, rows.astype(np.float64), strict=True))
    return out, [node for node in nodes if node.id not in out]
