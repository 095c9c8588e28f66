"""The embedder recall uses, chosen from settings: a local model by the providers' factory,
or a remote OpenAI-compatible endpoint. Both expose ``embed`` (memories) and ``embed_query``."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from ..providers.embedding_client import EmbeddingClient, EmbeddingConfig
from ..providers.errors import EmbeddingDimensionError
from ..providers.http_policy import HttpPolicy
from ..settings import EmbeddingSettings

Matrix = npt.NDArray[np.float32]


class RecallEmbedder(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def dim(self) -> int | None: ...

    def embed(self, texts: Sequence[str]) -> Matrix: ...

    def embed_query(self, texts: Sequence[str]) -> Matrix: ...


class RemoteEmbedder:
    """An ``EmbeddingClient`` for memories and a second one, with the short recall timeout and
    no retries, for queries (endpoints have no query mode: the call is the same)."""

    def __init__(self, client: EmbeddingClient, query_client: EmbeddingClient | None = None) -> None:
        self.client = client
        self.query_client = query_client or client

    @property
    def name(self) -> str:
        return self.client.name

    @property
    def dim(self) -> int | None:
        return self.client.dim

    def embed(self, texts: Sequence[str]) -> Matrix:
        return self.client.embed(texts)

    def embed_query(self, texts: Sequence[str]) -> Matrix:
        vectors = self.query_client.embed(texts)
        if self.client.dim is not None and vectors.shape[1] != self.client.dim:
            raise EmbeddingDimensionError(self.client.dim, int(vectors.shape[1]), model=self.client.config.model)
        return vectors


class QueryCache:
    """Remembers recent query embeddings. Consecutive turns share most of their query blend
    (this turn's previous input was the last turn's input; swipes repeat the same input), so
    most query texts were embedded a moment ago."""

    def __init__(self, inner: RecallEmbedder, size: int = 512) -> None:
        self.inner = inner
        self.size = size
        self._cache: OrderedDict[str, npt.NDArray[np.float32]] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dim(self) -> int | None:
        return self.inner.dim

    def embed(self, texts: Sequence[str]) -> Matrix:
        return self.inner.embed(texts)

    def embed_query(self, texts: Sequence[str]) -> Matrix:
        with self._lock:
            found = {t: self._cache[t] for t in texts if t in self._cache}
            for text in found:
                self._cache.move_to_end(text)
        missing = list(dict.fromkeys(t for t in texts if t not in found))
        if missing:
            fresh = self.inner.embed_query(missing)
            with self._lock:
                for text, row in zip(missing, fresh, strict=True):
                    found[text] = row
                    self._cache[text] = row
                    self._cache.move_to_end(text)
                while len(self._cache) > self.size:
                    self._cache.popitem(last=False)
        if not texts:
            return self.inner.embed_query(texts)
        return np.stack([found[t] for t in texts]).astype(np.float32, copy=False)


def make_embedder(settings: EmbeddingSettings, query_timeout_s: float = 3.0,
                  api_key: str | None = None) -> RecallEmbedder:
    """The configured embedder (queries cached). Raises ``ImportError``/``ValueError`` when it
    cannot be built."""
    return QueryCache(_make_uncached(settings, query_timeout_s, api_key))


def _make_uncached(settings: EmbeddingSettings, query_timeout_s: float, api_key: str | None) -> RecallEmbedder:
    if settings.provider == "remote":
        def client(timeout: float, retries: int) -> EmbeddingClient:
            policy = HttpPolicy(connect_timeout=min(5.0, timeout), total_timeout=timeout, max_retries=retries)
            return EmbeddingClient(EmbeddingConfig(base_url=settings.base_url, model=settings.model,
                                                   api_key=api_key, batch_size=settings.batch_size,
                                                   policy=policy))
        return RemoteEmbedder(client(settings.timeout_s, 1), client(query_timeout_s, 0))
    from ..providers.local_embedder import make_default_local_embedder, make_local_embedder
    name = settings.local_model.strip().lower()
    if name in ("", "default"):
        return make_default_local_embedder()
    return make_local_embedder(name)
