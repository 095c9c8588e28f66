"""Rebuilding a chat's vectors embeds aside and swaps at the end: cancelled, nothing changed."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import pytest

from bme_desktop.core.cancel import Cancelled, CancelToken
from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.index import vector_store
from bme_desktop.core.model import MessageIn
from bme_desktop.core.providers.local_embedder_hashed import HashedNgramEmbedder
from bme_desktop.core.recall.pipeline import attach
from bme_desktop.core.service import MemoryService

CHAT = "rebuild-chat"


class Shifting:
    """Hashed vectors plus an offset, so a rebuild's vectors differ from the first ones; can
    cancel a token once it has embedded a batch."""

    def __init__(self) -> None:
        self._inner = HashedNgramEmbedder(dim=64)
        self.name = self._inner.name
        self.dim: int | None = 64
        self.offset = 0.0
        self.cancel_after_batch: CancelToken | None = None
        self.batches = 0

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        self.batches += 1
        if self.cancel_after_batch is not None:
            self.cancel_after_batch.cancel()
        rows = self._inner.embed(texts) + self.offset
        return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)

    def embed_query(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return self.embed(texts)


def stored(service: MemoryService) -> dict[str, bytes]:
    rows = service.read(lambda r: vector_store.load_vectors(r, CHAT, HashedNgramEmbedder(dim=64).name))
    return {s.node_id: s.vector.tobytes() for s in rows}


@pytest.fixture
def setup(service: MemoryService) -> tuple[MemoryService, Shifting]:
    embedder = Shifting()
    recaller = attach(service, lambda: embedder)
    service.sync(CHAT, [MessageIn(0, "user", "hello"), MessageIn(1, "assistant", "hi")])
    for i in range(20):  # two batches
        service.create_node(
            CHAT,
            NodeDraft("fact", {"statement": f"Fact number {i} about the lighthouse"}, source_indices=[0]),
        )
    assert recaller.vectors is not None and recaller.vectors.index(CHAT) is not None
    assert recaller.vectors.wait_idle(30)
    return service, embedder


def test_a_cancelled_rebuild_leaves_the_stored_vectors_as_they_were(
    setup: tuple[MemoryService, Shifting],
) -> None:
    service, embedder = setup
    before = stored(service)
    assert len(before) == 20
    token = CancelToken()
    embedder.offset, embedder.cancel_after_batch, embedder.batches = 0.5, token, 0
    with pytest.raises(Cancelled):
        service.run_maintenance(CHAT, "rebuild_vectors", cancel=token)
    assert embedder.batches == 1 and stored(service) == before


def test_a_finished_rebuild_replaces_every_vector(setup: tuple[MemoryService, Shifting]) -> None:
    service, embedder = setup
    before = stored(service)
    embedder.offset = 0.5
    service.run_maintenance(CHAT, "rebuild_vectors", cancel=CancelToken())
    after = stored(service)
    assert after.keys() == before.keys() and all(after[k] != before[k] for k in after)


def test_a_rebuild_reports_memories_embedded_after_each_batch(setup: tuple[MemoryService, Shifting]) -> None:
    from bme_desktop.core.events import MaintenanceProgressed

    service, _embedder = setup
    seen: list[tuple[int, int]] = []
    off = service.events.on(MaintenanceProgressed, lambda e: seen.append((e.done, e.total)))
    try:
        service.run_maintenance(CHAT, "rebuild_vectors", cancel=CancelToken())
    finally:
        off()
    assert seen == [(0, 20), (16, 20), (20, 20)]  # batches of 16
