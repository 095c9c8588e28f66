"""An embedder for tests: the dependency-free hashed n-gram one, recording what it embeds."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from bme_desktop.core.providers.local_embedder_hashed import HashedNgramEmbedder


class CountingEmbedder:
    """The hashed n-gram embedder, recording every memory text it embeds (not the queries)."""

    def __init__(self, dim: int = 256) -> None:
        self._inner = HashedNgramEmbedder(dim=dim)
        self.name = self._inner.name
        self.dim: int | None = dim
        self.embedded: list[str] = []

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        self.embedded.extend(texts)
        return self._inner.embed(texts)

    def embed_query(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return self._inner.embed(texts)


class Gated:
    """Every text points the same way (cosine 1 with everything), with a lexical gate of 0.3;
    remembers what it embedded."""

    name = "gated"
    dim: int | None = 2
    duplicate_threshold = 0.9
    lexical_gate = 0.3

    def __init__(self) -> None:
        self.embedded: list[str] = []

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        self.embedded += texts
        return np.tile(np.array([1.0, 0.0], np.float32), (len(texts), 1))

    def embed_query(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return self.embed(texts)
