"""What recall holds in memory is bounded: the states and vector indexes of the chats recalled
last are kept, older ones are dropped and loaded again when asked for; a resync drops them all."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.model import MessageIn
from bme_desktop.core.providers.local_embedder_hashed import HashedNgramEmbedder
from bme_desktop.core.recall.api import RecallRequest
from bme_desktop.core.recall.pipeline import HybridRecaller, attach
from bme_desktop.core.service import MemoryService
from bme_desktop.core.store.notify import RESYNC

WORDS = {"a": "lighthouse", "b": "orchard", "c": "foundry"}


@pytest.fixture
def recaller(service: MemoryService) -> Iterator[HybridRecaller]:
    attached = attach(service, lambda: HashedNgramEmbedder(dim=64))  # type: ignore[arg-type,return-value]
    attached.cache.max_chats = 2
    assert attached.vectors is not None
    attached.vectors.max_indexes = 2
    yield attached
    attached.vectors.stop()


def memory_in(service: MemoryService, chat: str, word: str) -> str:
    service.sync(chat, [MessageIn(0, "user", f"Meet me at the {word} tonight.")], complete=True)
    return service.create_node(
        chat, NodeDraft("event", {"summary": f"They meet at the {word}"}, source_indices=[0])
    ).value.id


def recalled(service: MemoryService, chat: str, word: str) -> list[str]:
    return [r.node.id for r in service.recall(RecallRequest(chat, f"What happens at the {word}?")).nodes]


def test_only_the_chats_recalled_last_keep_their_state_and_index(
    service: MemoryService, recaller: HybridRecaller
) -> None:
    vectors = recaller.vectors
    assert vectors is not None
    ids = {chat: memory_in(service, chat, word) for chat, word in WORDS.items()}
    for chat, word in WORDS.items():
        assert recalled(service, chat, word) == [ids[chat]]
        assert vectors.wait_idle(30)
    assert recaller.cache.chats() == ["b", "c"]
    assert {chat for chat in WORDS if vectors.status(chat)[0] is not None} == {"b", "c"}

    assert recalled(service, "a", "lighthouse") == [ids["a"]]  # loaded again from the database
    assert vectors.wait_idle(30)
    assert recaller.cache.chats() == ["c", "a"]
    assert {chat for chat in WORDS if vectors.status(chat)[0] is not None} == {"c", "a"}
    index = vectors.index("a")
    assert index is not None and index.text_hash(ids["a"]) is not None  # its vector read back from the table


def test_a_resync_drops_what_was_loaded_and_the_next_recall_reads_the_database(tmp_path: Path) -> None:
    # Two services on one SQLite file: the second one's writes reach the first only through the
    # database, as another instance's do when notifications were missed.
    first = MemoryService.open(tmp_path, attach=False)
    second = MemoryService.open(tmp_path, attach=False)
    recaller = attach(first, lambda: HashedNgramEmbedder(dim=64))  # type: ignore[arg-type,return-value]
    try:
        memory_in(first, "a", "lighthouse")
        recalled(first, "a", "orchard")  # loads the chat's recall state
        added = second.create_node(
            "a", NodeDraft("event", {"summary": "They plant pears in the orchard"}, source_indices=[0])
        ).value.id
        assert added not in recalled(first, "a", "orchard")  # nothing told the first service
        first.events.publish(RESYNC)
        assert recaller.cache.chats() == []
        assert recalled(first, "a", "orchard")[0] == added
    finally:
        assert recaller.vectors is not None
        recaller.vectors.stop()
        second.close()
        first.close()
