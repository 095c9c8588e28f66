"""Query embeddings are cached: texts embedded a moment ago are not embedded again."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np
import pytest

from bme_desktop.core.recall.embedding import QueryCache


class CountingEmbedder:
    name = "counting"
    dim = 3

    def __init__(self) -> None:
        self.query_texts: list[str] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self.embed_query(texts)

    def embed_query(self, texts: Sequence[str]) -> np.ndarray:
        self.query_texts.extend(texts)
        return np.array([[len(t), 1.0, 0.0] for t in texts], dtype=np.float32)


def test_repeated_query_texts_are_embedded_once_and_keep_their_order() -> None:
    inner = CountingEmbedder()
    cache = QueryCache(inner)
    first = cache.embed_query(["a", "bb"])
    second = cache.embed_query(["bb", "ccc", "a"])
    assert inner.query_texts == ["a", "bb", "ccc"]
    assert second[:, 0].tolist() == [2.0, 3.0, 1.0] and first[:, 0].tolist() == [1.0, 2.0]


def test_the_cache_forgets_the_least_recently_used_text() -> None:
    inner = CountingEmbedder()
    cache = QueryCache(inner, size=2)
    cache.embed_query(["a"])
    cache.embed_query(["b"])
    cache.embed_query(["a"])  # a is now the most recent
    cache.embed_query(["c"])  # evicts b
    cache.embed_query(["a", "b"])
    assert inner.query_texts == ["a", "b", "c", "b"]


class GatedEmbedder(CountingEmbedder):
    """Blocks embedding the text ``gate_on`` until ``release`` is set."""

    def __init__(self, gate_on: str) -> None:
        super().__init__()
        self.gate_on = gate_on
        self.started = threading.Event()
        self.release = threading.Event()

    def embed_query(self, texts: Sequence[str]) -> np.ndarray:
        if self.gate_on in texts:
            self.started.set()
            assert self.release.wait(10)
        return super().embed_query(texts)


def test_a_prefetched_text_is_not_embedded_again() -> None:
    inner = CountingEmbedder()
    cache = QueryCache(inner)
    assert cache.prefetch(["the reply", "the reply", ""]) == 1
    rows = cache.embed_query(["the reply"])  # waits for the prefetch if it is still running
    assert inner.query_texts == ["the reply"] and rows[0, 0] == len("the reply")
    assert cache.prefetch(["the reply"]) == 0
    cache.close()


def test_a_recall_waits_for_a_running_prefetch_instead_of_embedding_twice() -> None:
    inner = GatedEmbedder("slow")
    cache = QueryCache(inner)
    cache.prefetch(["slow"])
    assert inner.started.wait(10)
    results: list[np.ndarray] = []
    asker = threading.Thread(target=lambda: results.append(cache.embed_query(["slow"])))
    asker.start()
    asker.join(0.2)
    assert asker.is_alive() and not results  # waiting on the running prefetch
    inner.release.set()
    asker.join(10)
    assert results and inner.query_texts == ["slow"]
    cache.close()


def test_a_recall_takes_over_a_prefetch_that_has_not_started() -> None:
    inner = GatedEmbedder("first")
    cache = QueryCache(inner)
    cache.prefetch(["first", "second"])  # one background thread: "second" waits behind "first"
    assert inner.started.wait(10)
    rows = cache.embed_query(["second"])  # must not wait for "first"
    assert rows[0, 0] == len("second") and inner.query_texts == ["second"]
    inner.release.set()
    cache.close()


def test_a_failed_embedding_reaches_every_asker_and_is_not_cached() -> None:
    class Failing(CountingEmbedder):
        fail = True

        def embed_query(self, texts: Sequence[str]) -> np.ndarray:
            if self.fail:
                raise ConnectionError("down")
            return super().embed_query(texts)

    inner = Failing()
    cache = QueryCache(inner)
    with pytest.raises(ConnectionError):
        cache.embed_query(["x"])
    inner.fail = False
    assert cache.embed_query(["x"])[0, 0] == 1.0 and not cache.prefetch(["x"])


def test_memory_texts_embedded_for_matching_are_not_embedded_again_for_the_index() -> None:
    inner = CountingEmbedder()
    cache = QueryCache(inner, document_size=2)
    cache.embed(["new event", "other"])  # extraction's near-duplicate check
    rows = cache.embed(["other", "new event"])  # the vector index, a moment later
    assert inner.query_texts == ["new event", "other"] and rows[:, 0].tolist() == [5.0, 9.0]
    cache.embed(["third"])  # evicts the oldest
    cache.embed(["new event"])
    assert inner.query_texts[-1] == "new event"
