"""Near-duplicate matching sees memories the vector index has not embedded yet."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.extract.operations import NodeOp, Plan
from bme_desktop.core.extract.vector_match import vector_scores
from bme_desktop.core.model import MessageIn
from bme_desktop.core.recall.pipeline import attach
from bme_desktop.core.service import MemoryService

CHAT = "catch-up"


class HeldBackIndex:
    """'key' texts point one way, the rest another; the background indexer (thread
    ``bme-vectors``) waits at ``gate`` while it is closed, as a busy maintainer would."""

    name = "held-back"
    dim: int | None = 2

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.gate.set()
        self.waiting = threading.Event()

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        if threading.current_thread().name.startswith("bme-vectors") and not self.gate.is_set():
            self.waiting.set()
            assert self.gate.wait(30)
        return np.stack([np.array([1.0, 0.0] if "key" in t else [0.0, 1.0], np.float32) for t in texts])

    def embed_query(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return self.embed(texts)


def test_a_memory_still_waiting_for_its_vector_is_compared_by_cosine(service: MemoryService) -> None:
    embedder = HeldBackIndex()
    recaller = attach(service, lambda: embedder)
    vectors = recaller.vectors
    assert vectors is not None
    service.sync(CHAT, [MessageIn(0, "user", "hi"), MessageIn(1, "assistant", "hello")])
    first = service.create_node(
        CHAT, NodeDraft("event", {"summary": "Lena hides the key"}, source_indices=[0])
    ).value
    assert vectors.index(CHAT) is not None and vectors.wait_idle(20)
    embedder.gate.clear()  # the indexer now stalls on the next memory
    late = service.create_node(
        CHAT, NodeDraft("event", {"summary": "Tom finds the key"}, source_indices=[1])
    ).value
    assert embedder.waiting.wait(20)
    index = vectors.index(CHAT)
    assert index is not None and late.id not in index and first.id in index
    try:
        plan = Plan(
            "heuristic", [NodeOp("create", "event", {"summary": "the key again"}, source_indices=[1])]
        )
        found = vector_scores(service, CHAT, plan)[0]
        assert {first.id, late.id} <= found.indexed
        assert set(found.above) == {first.id, late.id}
    finally:
        embedder.gate.set()
        vectors.stop()
