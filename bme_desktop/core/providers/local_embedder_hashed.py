"""A dependency-free local embedder: signed feature hashing of words and character n-grams.

Each text becomes a bag of features — English words (stop words dropped, lightly stemmed),
character trigrams of those words, Chinese characters and character bigrams — weighted by
sublinear term frequency and folded into ``dim`` buckets with a stable hash and a random
sign (the "hashing trick", a sparse random projection). Rows are L2-normalised.

It needs no model and no download, is fully deterministic across processes and machines,
and is fast, but it only knows surface forms: it is a lexical fallback, not a semantic
model (see ``docs/embedders.md`` for how it compares).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from bme_desktop.core.recall.tokenize import TextTokenizer

_WORD_WEIGHT = 1.0
_CHAR_GRAM_WEIGHT = 0.35
_HAN_CHAR_WEIGHT = 0.5


class HashedNgramEmbedder:
    """Hashed word + character n-gram vectors; implements the ``Embedder`` protocol."""

    def __init__(self, dim: int = 512) -> None:
        if dim < 8:
            raise ValueError("dim must be at least 8")
        self.dim: int | None = dim
        self.name = f"hashed-ngram-{dim}"
        self._dim = dim
        self._tokenizer = TextTokenizer(chinese="bigram", stemmer="light")
        self._bucket_cache: dict[str, tuple[int, float]] = {}

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """One L2-normalised float32 row per text (all zeros for a text with no features)."""
        out = np.zeros((len(texts), self._dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for feature, weight in self._features(text).items():
                bucket, sign = self._bucket(feature)
                out[row, bucket] += sign * weight
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        np.divide(out, norms, out=out, where=norms > 0.0)
        return out

    def _features(self, text: str) -> dict[str, float]:
        counts: dict[str, float] = {}
        for token in self._tokenizer.iter_tokens(text):
            if _is_han(token[0]):
                counts["b:" + token] = counts.get("b:" + token, 0.0) + _WORD_WEIGHT
                for char in token:
                    counts["c:" + char] = counts.get("c:" + char, 0.0) + _HAN_CHAR_WEIGHT / len(token)
            else:
                counts["w:" + token] = counts.get("w:" + token, 0.0) + _WORD_WEIGHT
                padded = f"<{token}>"
                grams = [padded[i : i + 3] for i in range(len(padded) - 2)] if len(token) > 3 else []
                for gram in grams:
                    counts["g:" + gram] = counts.get("g:" + gram, 0.0) + _CHAR_GRAM_WEIGHT / len(grams)
        return {feature: 1.0 + math.log(count) if count > 1.0 else count for feature, count in counts.items()}

    def _bucket(self, feature: str) -> tuple[int, float]:
        cached = self._bucket_cache.get(feature)
        if cached is not None:
            return cached
        digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
        value = int.from_bytes(digest, "little")
        result = (value % self._dim, 1.0 if (value >> 63) & 1 else -1.0)
        if len(self._bucket_cache) < 500_000:
            self._bucket_cache[feature] = result
        return result


def _is_han(char: str) -> bool:
    code = ord(char)
    return 0x3400 <= code <= 0x4DBF or 0x4E00 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF
