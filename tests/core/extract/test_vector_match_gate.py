"""An embedder's lexical gate: near-duplicate checks embed only proposed memories that share
enough words with a memory they could be, and compare by cosine only with those. Nor with one
about other people or places (``matching.about_others``): it would never be merged."""

from __future__ import annotations

from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.extract.operations import NodeOp, Plan
from bme_desktop.core.extract.vector_match import vector_scores
from bme_desktop.core.model import MessageIn
from bme_desktop.core.recall.embedding import QueryCache
from bme_desktop.core.recall.pipeline import attach
from bme_desktop.core.service import MemoryService
from tests.fakes.embedders import Gated

CHAT = "gate"


def scored(
    service: MemoryService, summary: str, characters: tuple[str, ...] = ()
) -> tuple[Gated, dict[str, float], frozenset[str], str]:
    embedder = Gated()
    recaller = attach(service, lambda: QueryCache(embedder))
    service.sync(CHAT, [MessageIn(0, "user", "hi"), MessageIn(1, "assistant", "hello")])
    for name in characters:
        service.create_node(CHAT, NodeDraft("character", {"name": name}, source_indices=[0]))
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


def test_a_memory_about_other_people_is_not_compared_by_cosine(service: MemoryService) -> None:
    embedder, above, indexed, old = scored(service, "Tom hides the brass key under the bell", ("Lena", "Tom"))
    assert above == {} and old in indexed  # counted as compared and far: it would not be merged
    assert not any("Tom hides" in text for text in embedder.embedded)


def test_a_memory_about_the_same_people_is_compared_by_cosine(service: MemoryService) -> None:
    embedder, above, indexed, old = scored(
        service, "Lena hides the brass key under the old bell", ("Lena", "Tom")
    )
    assert set(above) == {old} and old in indexed
    assert any("under the old bell" in text for text in embedder.embedded)
