"""The embedder recall uses, chosen from settings: a local model by the providers' factory,
or a remote OpenAI-compatible endpoint. Both expose ``embed`` (memories) and ``embed_query``."""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import Future
from typing import Protocol

import numpy as np
import numpy.typing as npt

from ..background import yield_to_foreground
from ..providers.embedding_client import EmbeddingClient, EmbeddingConfig
from ..providers.errors import EmbeddingDimensionError
from ..providers.http_policy import HttpPolicy
from ..settings import EmbeddingSettings
from ..work import KeyedWorker

Matrix = npt.NDArray[np.float32]
log = logging.getLogger(__name__)


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
            raise EmbeddingDimensionError(
                self.client.dim, int(vectors.shape[1]), model=self.client.config.model
            )
        return vectors


class QueryCache:
    """Remembers recent query embeddings. Consecutive turns share most of their query blend
    (this turn's previous input was the last turn's input; swipes repeat the same input), and
    ``prefetch`` embeds texts a recall is about to need (the reply just synced, the input
    being typed) in the background, so most query texts were embedded before they are asked
    for. A text being embedded is never embedded twice: a second asker waits for the first,
    and a prefetch not yet started is taken over by the recall that needs it."""

    def __init__(self, inner: RecallEmbedder, size: int = 512, document_size: int = 2048) -> None:
        self.inner = inner
        self.size = size
        self.document_size = document_size
        self._cache: OrderedDict[str, npt.NDArray[np.float32]] = OrderedDict()
        self._documents: OrderedDict[str, npt.NDArray[np.float32]] = OrderedDict()
        self._in_flight: dict[str, Future[npt.NDArray[np.float32]]] = {}
        self._lock = threading.Lock()
        # Prefetches in the order asked, on a low-priority keyed worker (its thread starts with the first)
        self._background: KeyedWorker[str, Future[npt.NDArray[np.float32]]] = KeyedWorker(
            "bme-query-prefetch", self._prefetch_one
        )
        self._closed = False

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dim(self) -> int | None:
        return self.inner.dim

    @property
    def duplicate_threshold(self) -> float | None:
        """The inner model's cosine for "the same memory" (None: the default)."""
        value = getattr(self.inner, "duplicate_threshold", None)
        return float(value) if value is not None else None

    @property
    def lexical_gate(self) -> float | None:
        """The inner model's word overlap below which texts never reach that cosine (None: no gate)."""
        value = getattr(self.inner, "lexical_gate", None)
        return float(value) if value is not None else None

    def embed(self, texts: Sequence[str]) -> Matrix:
        """Memory (passage) vectors. The last few thousand are kept too: extraction embeds a
        new memory to look for near-duplicates, and the vector index then needs the same text."""
        if not texts:
            return self.inner.embed(texts)
        with self._lock:
            found = {t: self._documents[t] for t in texts if t in self._documents}
        missing = list(dict.fromkeys(t for t in texts if t not in found))
        if missing:
            yield_to_foreground()  # a bulk embedding (extraction, the vector thread) lets a recall go first
            fresh = self.inner.embed(missing)
            if fresh.ndim != 2 or fresh.shape[0] != len(missing):
                raise ValueError(f"the embedder returned {tuple(fresh.shape)} for {len(missing)} texts")
            with self._lock:
                for text, row in zip(missing, fresh, strict=True):
                    found[text] = self._documents[text] = row
                    self._documents.move_to_end(text)
                while len(self._documents) > self.document_size:
                    self._documents.popitem(last=False)
        return np.stack([found[t] for t in texts]).astype(np.float32, copy=False)

    def cached(self, text: str) -> bool:
        with self._lock:
            return text in self._cache

    def embed_query(self, texts: Sequence[str]) -> Matrix:
        if not texts:
            return self.inner.embed_query(texts)
        found: dict[str, npt.NDArray[np.float32]] = {}
        waiting: dict[str, Future[npt.NDArray[np.float32]]] = {}
        mine: dict[str, Future[npt.NDArray[np.float32]]] = {}
        with self._lock:
            for text in dict.fromkeys(texts):
                if text in self._cache:
                    found[text] = self._cache[text]
                    self._cache.move_to_end(text)
                elif text in self._in_flight and not self._in_flight[text].cancel():
                    waiting[text] = self._in_flight[text]  # running: wait for it
                else:  # new, or a queued prefetch just cancelled: ours to embed
                    future: Future[npt.NDArray[np.float32]] = Future()
                    future.set_running_or_notify_cancel()  # running: another asker waits, never cancels it
                    mine[text] = self._in_flight[text] = future
        if mine:
            self._compute(mine)
            found.update({text: future.result() for text, future in mine.items()})
        for text, future in waiting.items():
            found[text] = future.result()
        return np.stack([found[t] for t in texts]).astype(np.float32, copy=False)

    def prefetch(self, texts: Sequence[str]) -> int:
        """Embed ``texts`` in the background unless cached or under way; returns how many
        were queued. Never blocks and never raises (a failure just leaves them uncached)."""
        with self._lock:
            if self._closed:
                return 0
            mine: dict[str, Future[npt.NDArray[np.float32]]] = {
                text: Future()
                for text in dict.fromkeys(texts)
                if text and text not in self._cache and text not in self._in_flight
            }
            if not mine:
                return 0
            self._in_flight.update(mine)
        for text, future in mine.items():
            self._background.submit(text, future)
        return len(mine)

    def close(self) -> None:
        with self._lock:
            self._closed = True
        self._background.close(0)

    def _prefetch_one(self, text: str, future: Future[npt.NDArray[np.float32]]) -> None:
        if not future.set_running_or_notify_cancel():
            return  # a recall took it over
        try:
            self._compute({text: future})
        except Exception:  # the recall that needs it will try again and report the error
            log.debug("query prefetch failed", exc_info=True)

    def _compute(self, mine: dict[str, Future[npt.NDArray[np.float32]]]) -> None:
        """Embed the texts of ``mine`` (running futures) and settle them (raising what the
        embedder raised, after passing it to any waiter)."""
        texts = list(mine)
        try:
            fresh = self.inner.embed_query(texts)
            if fresh.ndim != 2 or fresh.shape[0] != len(texts):
                raise ValueError(f"the embedder returned {tuple(fresh.shape)} for {len(texts)} texts")
        except BaseException as exc:
            with self._lock:
                for text in texts:
                    self._in_flight.pop(text, None)
            for future in mine.values():
                future.set_exception(exc)
            raise
        with self._lock:
            for text, row in zip(texts, fresh, strict=True):
                self._cache[text] = row
                self._cache.move_to_end(text)
                self._in_flight.pop(text, None)
            while len(self._cache) > self.size:
                self._cache.popitem(last=False)
        for text, row in zip(texts, fresh, strict=True):
            mine[text].set_result(row)


def embedder_engine(embedder: object) -> str | None:
    """How ``embedder`` runs (e.g. ``"onnxruntime"``) when it says so, looking inside the
    query cache; None for embedders with one way to run."""
    inner = embedder.inner if isinstance(embedder, QueryCache) else embedder
    engine = getattr(inner, "engine", None)
    return engine if isinstance(engine, str) else None


def make_embedder(
    settings: EmbeddingSettings, query_timeout_s: float = 3.0, api_key: str | None = None
) -> RecallEmbedder:
    """The configured embedder (queries cached). Raises ``ImportError``/``ValueError`` when it
    cannot be built."""
    return QueryCache(_make_uncached(settings, query_timeout_s, api_key))


def _make_uncached(
    settings: EmbeddingSettings, query_timeout_s: float, api_key: str | None
) -> RecallEmbedder:
    if settings.provider == "remote":

        def client(timeout: float, retries: int) -> EmbeddingClient:
            policy = HttpPolicy(connect_timeout=min(5.0, timeout), total_timeout=timeout, max_retries=retries)
            return EmbeddingClient(
                EmbeddingConfig(
                    base_url=settings.base_url,
                    model=settings.model,
                    api_key=api_key,
                    batch_size=settings.batch_size,
                    policy=policy,
                )
            )

        return RemoteEmbedder(client(settings.timeout_s, 1), client(query_timeout_s, 0))
    from ..providers.local_embedder import make_default_local_embedder, make_local_embedder

    name = settings.local_model.strip().lower()
    if name in ("", "default"):
        return make_default_local_embedder()
    return make_local_embedder(name)
