"""Query embeddings are cached: texts embedded a moment ago are not embedded again."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

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
