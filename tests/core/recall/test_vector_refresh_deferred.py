"""While a chat is being extracted, a memory whose text changed keeps its old vector and is
embedded again once the extraction is idle; new memories are embedded at once."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.extract.api import NoExtraction
from bme_desktop.core.index.vector_store import text_hash
from bme_desktop.core.model import MessageIn
from bme_desktop.core.recall.documents import embed_text
from bme_desktop.core.recall.pipeline import attach
from bme_desktop.core.service import MemoryService

CHAT = "import"


class Counting:
    name = "counting"
    dim: int | None = 2

    def __init__(self) -> None:
        self.texts: list[str] = []

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        self.texts += texts
        return np.tile(np.array([1.0, 0.0], np.float32), (len(texts), 1))

    def embed_query(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return self.embed(texts)


class Extracting(NoExtraction):
    """Stands in for the extraction worker: says whether the chat is being extracted."""

    def __init__(self) -> None:
        self.on = threading.Event()

    def busy(self, chat_id: str) -> bool:
        return self.on.is_set()


def until(condition: object, limit: float = 20.0) -> bool:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.01)
    return False


def test_a_changed_memory_is_embedded_again_once_extraction_is_idle(service: MemoryService) -> None:
    embedder = Counting()
    extraction = Extracting()
    service.extraction = extraction
    vectors = attach(service, lambda: embedder).vectors
    assert vectors is not None
    service.sync(CHAT, [MessageIn(0, "user", "hi"), MessageIn(1, "assistant", "hello")])
    sera = service.create_node(
        CHAT, NodeDraft("character", {"name": "Sera", "state": "a guide"}, source_indices=[0])
    ).value
    assert vectors.index(CHAT) is not None and vectors.wait_idle(20)
    extraction.on.set()  # an import is running
    changed = service.update_node(
        CHAT, sera.id, {"fields": {"name": "Sera", "state": "a guide with a bow"}}
    ).value
    new = service.create_node(
        CHAT, NodeDraft("character", {"name": "Wren", "state": "her brother"}, source_indices=[1])
    ).value
    index = vectors.index(CHAT)
    assert index is not None
    assert until(lambda: new.id in index)  # a new memory: embedded at once
    assert index.text_hash(sera.id) == text_hash(embed_text(sera))  # the old vector, for now
    assert vectors.pending(CHAT)
    assert embed_text(changed) not in embedder.texts
    extraction.on.clear()  # the import is over
    assert vectors.wait_idle(20)
    assert index.text_hash(sera.id) == text_hash(embed_text(changed))
    assert embedder.texts.count(embed_text(changed)) == 1
    vectors.stop()
