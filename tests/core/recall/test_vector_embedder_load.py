"""Loading the embedder (seconds, for a local model) never holds up what only asks the vector
maintainer how far it is: a chat's stats, ``pending``, a sync waiting for its vectors."""

from __future__ import annotations

import threading
from pathlib import Path

from bme_desktop.core.providers.local_embedder_hashed import HashedNgramEmbedder
from bme_desktop.core.recall.embedding import QueryCache
from bme_desktop.core.recall.pipeline import attach
from bme_desktop.core.service import MemoryService


def test_asking_whether_a_chat_waits_for_vectors_does_not_wait_for_the_model_to_load(tmp_path: Path) -> None:
    loading, loaded = threading.Event(), threading.Event()

    def slow_model() -> QueryCache:
        loading.set()
        loaded.wait(60)
        return QueryCache(HashedNgramEmbedder(dim=32))

    service = MemoryService.open(tmp_path / "data", attach=False)
    try:
        vectors = attach(service, slow_model).vectors
        assert vectors is not None
        builder = threading.Thread(target=vectors.embedder)
        builder.start()
        assert loading.wait(60)
        answers: list[bool] = []
        asker = threading.Thread(target=lambda: answers.append(vectors.pending("c")))
        asker.start()
        asker.join(10)
        held = asker.is_alive()
        loaded.set()
        builder.join(60)
        asker.join(60)
        assert not held and answers == [False]
        assert vectors.embedder() is not None
    finally:
        loaded.set()
        service.close()
