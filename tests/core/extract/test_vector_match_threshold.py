"""Near-duplicates by cosine use the embedder's own threshold."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.extract.operations import NodeOp, Plan
from bme_desktop.core.extract.vector_match import VECTOR_DUPLICATE_THRESHOLD, vector_scores
from bme_desktop.core.model import MessageIn
from bme_desktop.core.recall.embedding import QueryCache
from bme_desktop.core.recall.pipeline import attach
from bme_desktop.core.service import MemoryService

CHAT = "dup-chat"


class TwoDirections:
    """Texts mentioning 'key' point one way, the rest 0.95 cosine away (close, not the same)."""

    name = "two-directions"
    dim: int | None = 2

    def __init__(self, threshold: float | None) -> None:
        self.duplicate_threshold = threshold

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        other = np.array([0.95, np.sqrt(1 - 0.95**2)], dtype=np.float32)
        return np.stack([np.array([1.0, 0.0], np.float32) if "key" in t else other for t in texts])

    def embed_query(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return self.embed(texts)


def scores(service: MemoryService, threshold: float | None) -> dict[str, float]:
    recaller = attach(service, lambda: QueryCache(TwoDirections(threshold)))
    service.sync(CHAT, [MessageIn(0, "user", "hi"), MessageIn(1, "assistant", "hello")])
    service.create_node(CHAT, NodeDraft("event", {"summary": "Lena hides the key"}, source_indices=[0]))
    assert recaller.vectors is not None and recaller.vectors.index(CHAT) is not None
    assert recaller.vectors.wait_idle(20)
    plan = Plan(
        "heuristic", [NodeOp("create", "event", {"summary": "Lena lights the lamp"}, source_indices=[1])]
    )
    found = vector_scores(service, CHAT, plan)
    recaller.vectors.stop()
    return found[0].above


def test_the_default_threshold_counts_a_close_memory_as_a_duplicate(service: MemoryService) -> None:
    assert VECTOR_DUPLICATE_THRESHOLD < 0.95 and len(scores(service, None)) == 1


def test_a_model_with_a_stricter_threshold_keeps_them_apart(service: MemoryService) -> None:
    assert scores(service, 0.975) == {}
