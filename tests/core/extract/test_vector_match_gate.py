"""An embedder's lexical gate: near-duplicate checks embed only proposed memories that share
enough words with a memory they could be, and compare by cosine only with those."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.extract.operations import NodeOp, Plan
from bme_desktop.core.extract.vector_match import vector_scores
from bme_desktop.core.model import MessageIn
from bme_desktop.core.recall.embedding import QueryCache
from bme_desktop.core.recall.pipeline import attach
from bme_desktop.core.service import MemoryService

CHAT = "gate"


class Gated:
    """Every text points the same way (cosine 1 with everything); remembers what it embedded."""

    name = "gated"
    dim: int | None = 2
    duplicate_threshold = 0.9
    lexical_gate = 0.3

    def __init__(self) -> None:
        self.embedded: list[str] = []

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        self.embedded += texts
        return np.tile(np.array([1.0, 0.0], np.float32), (len(texts), 1))

    def embed_query(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return self.embed(texts)


def scored(service: MemoryService, summary: str) -> tuple[Gated, dict[str, float], frozenset[str], str]:
    embedder = Gated()
    recaller = attach(service, lambda: QueryCache(embedder))
    service.sync(CHAT, [MessageIn(0, "user", "hi"), MessageIn(1, "assistant", "hello")])
    old = service.create_node(
        CHAT, NodeDraft("event", {"summary": "Lena hides the brass key under the bell"}, source_indices=[0])
    ).value
    plan = Plan("heuristic", [NodeOp("create", "event", {"summary": summary}, source_indices=[1])])
    found = vector_scores(service, CHAT, plan)[0]
    assert recaller.vectors is not None
    recaller.vectors.stop()
    return embedder, found.above, found.indexed, old.id


def test_a_memory_sharing_no_words_is_not_embedded_and_counts_as_far(service: MemoryService) -> None:
    embedder, above, indexed, old = scored(service, "Tom rows across the grey lake at dawn")
    assert above == {} and old in indexed  # compared, and far: no lexical fallback either
    assert not any("Tom rows" in text for text in embedder.embedded)


def test_a_memory_sharing_enough_words_is_compared_by_cosine(service: MemoryService) -> None:
    embedder, above, indexed, old = scored(service, "Lena hides the brass key under the old bell")
    assert set(above) == {old} and old in indexed
    assert any("under the old bell" in text for text in embedder.embedded)
