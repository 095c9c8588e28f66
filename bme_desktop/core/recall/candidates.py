"""Candidates from the two first-stage retrievers, per query part, blended by part weight.

Lexical: BM25F over the memories (the current input's intents count as the current input:
the best of the full text and each intent). Vector: one matrix product per query part against
the chat's vector index. Both are put on a 0–1 scale per query: BM25 by the best hit, cosine
by its spread above the chat's median (dense cosines crowd near one value, so the raw number
says little). Name anchors are memories whose name occurs verbatim in the current input.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..index.vector_index import VectorIndex
from .chat_state import ChatState
from .part_cache import PartCache
from .query import Query, QueryPart

POOL = 60  # candidates taken from each retriever
ANCHOR_MIN_CHARS = 2
NAMED_TYPES = frozenset({"character", "location"})  # memories whose title is a name


@dataclass
class Candidates:
    lexical: dict[str, float]
    vector: dict[str, float]
    anchors: set[str]

    def ids(self) -> set[str]:
        return set(self.lexical) | set(self.vector) | self.anchors


def _blend(per_part: Sequence[tuple[QueryPart, dict[str, float]]]) -> dict[str, float]:
    """Weighted sum over context kinds; within the current input, the best of text and intents."""
    current: dict[str, float] = {}
    out: dict[str, float] = {}
    current_weight = 0.0
    for part, scores in per_part:
        if part.kind in ("current", "intent"):
            current_weight = part.weight
            for node_id, s in scores.items():
                current[node_id] = max(current.get(node_id, 0.0), s)
        else:
            for node_id, s in scores.items():
                out[node_id] = out.get(node_id, 0.0) + part.weight * s
    for node_id, s in current.items():
        out[node_id] = out.get(node_id, 0.0) + current_weight * s
    return out


def lexical_candidates(state: ChatState, query: Query, pool: int = POOL) -> dict[str, float]:
    per_part = []
    for part in query.parts:
        per_part.append((part, lexical_part(state, part.text, pool)))
    blended = _blend(per_part)
    return dict(sorted(blended.items(), key=lambda kv: (-kv[1], kv[0]))[: pool * 2])


def lexical_part(state: ChatState, text: str, pool: int = POOL) -> dict[str, float]:
    """BM25 hits of one part's text (kept while the chat's BM25 index is unchanged)."""
    version = state.lexical_version
    found = state.lexical_parts.get(str(pool), text, version)
    if found is None:
        found = {h.doc_id: h.score for h in state.lexical.search(text, k=pool)}
        state.lexical_parts.put(str(pool), text, version, found)
    return found


@dataclass
class VectorScorer:
    """Scaled, blended cosine scores of one query against one chat's index."""

    index: VectorIndex
    query: Query
    vectors: npt.NDArray[np.float32]  # one row per query part
    scale: list[tuple[float, float]]  # per part: (floor, top)

    cache: PartCache[tuple[dict[str, float], tuple[float, float]]] | None = None

    @classmethod
    def create(
        cls,
        index: VectorIndex,
        query: Query,
        vectors: npt.NDArray[np.float32],
        cache: PartCache[tuple[dict[str, float], tuple[float, float]]] | None = None,
    ) -> VectorScorer:
        return cls(index, query, vectors, [], cache)

    def _scaled(self, sims: npt.NDArray[np.float32], part: int) -> npt.NDArray[np.float32]:
        floor, top = self.scale[part]
        if top - floor < 1e-6:
            return np.zeros_like(sims)
        scaled: npt.NDArray[np.float32] = np.clip((sims - floor) / (top - floor), 0.0, 1.0).astype(np.float32)
        return scaled

    def candidates(self, pool: int = POOL) -> dict[str, float]:
        """The best ``pool`` memories of each part, blended. Fixes each part's scale."""
        per_part = []
        self.scale = []
        stamp = (self.index.uid, self.index.version, pool)
        for part, vector in zip(self.query.parts, self.vectors, strict=True):
            found = self.cache.get("vector", part.text, stamp) if self.cache is not None else None
            if found is None:
                found = self._part_candidates(vector, pool)
                if self.cache is not None:
                    self.cache.put("vector", part.text, stamp, found)
            self.scale.append(found[1])
            if found[0]:
                per_part.append((part, found[0]))
        blended = _blend(per_part)
        return dict(sorted(blended.items(), key=lambda kv: (-kv[1], kv[0]))[: pool * 2])

    def _part_candidates(
        self, vector: npt.NDArray[np.float32], pool: int
    ) -> tuple[dict[str, float], tuple[float, float]]:
        ids, sims = self.index.scores(vector)
        if sims.size == 0:
            return {}, (0.0, 0.0)
        # Dense cosines crowd near one value: the chat's median maps to 0, the best to 1.
        floor = float(np.median(sims)) if sims.size > 4 else float(sims.min()) - 1e-3
        scale = (floor, float(sims.max()))
        if scale[1] - scale[0] < 1e-6:
            return {}, scale
        scaled = np.clip((sims - scale[0]) / (scale[1] - scale[0]), 0.0, 1.0)
        k = min(pool, scaled.size)
        top = np.argpartition(-scaled, k - 1)[:k]
        return {ids[j]: float(scaled[j]) for j in top}, scale

    def scores_for(self, ids: Sequence[str]) -> dict[str, float]:
        """Blended score of particular memories (reached by diffusion or anchors)."""
        found, rows = self.index.vectors_of(list(ids))
        if not found or not self.scale:
            return {}
        sims = rows @ self.vectors.T
        per_part = [
            (part, dict(zip(found, self._scaled(sims[:, i], i).tolist(), strict=True)))
            for i, part in enumerate(self.query.parts)
        ]
        return _blend(per_part)


def named(state: ChatState, text: str) -> set[str]:
    """Memories whose title occurs verbatim in ``text``."""
    return {
        doc_id
        for doc_id in state.lexical.exact_name_hits(text)
        if doc_id in state.nodes and len(state.nodes[doc_id].title) >= ANCHOR_MIN_CHARS
    }


def anchors(state: ChatState, titled: set[str]) -> set[str]:
    """The entities (characters, places) among the memories named in the input (``named``).
    Other memories titled by their subject (a fact about "Melanie") are not anchors: naming a
    person must not seed every fact about her."""
    return {doc_id for doc_id in titled if state.nodes[doc_id].type in NAMED_TYPES}
