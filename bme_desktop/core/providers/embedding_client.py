"""Embeddings from any OpenAI-compatible ``/v1/embeddings`` endpoint (OpenAI, Ollama,
LM Studio, vLLM, SiliconFlow ...). Implements :class:`~.embedder.Embedder`.

Texts are sent in batches of ``batch_size``; the result keeps input order (by each item's
``index``), is ``float32`` and L2-normalised. Every vector must have the same dimension as the
configured ``dim`` or, when none is configured, as the first vectors this client received;
otherwise :class:`EmbeddingDimensionError`. Timeouts, retries and cancellation are the shared
:mod:`.http_policy`.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

import numpy as np

from .embedder import EmbeddingMatrix
from .errors import EmbeddingDimensionError, LLMBadResponse, LLMError
from .http_policy import HttpPolicy
from .http_session import HttpSession
from .records import ConnectionReport


@dataclass(frozen=True)
class EmbeddingConfig:
    """Where and how to call an embedding model. ``api_key`` is never shown by ``repr``."""

    base_url: str
    model: str
    api_key: str | None = field(default=None, repr=False)
    batch_size: int = 32
    dim: int | None = None  # expected dimension; None = learn it from the first answer
    extra_headers: Mapping[str, str] = field(default_factory=dict)
    policy: HttpPolicy = field(default_factory=HttpPolicy)


class EmbeddingClient:
    """Remote embedder. ``name`` is ``"openai-compatible:<model>"``."""

    def __init__(
        self,
        config: EmbeddingConfig,
        *,
        logger: logging.Logger | None = None,
        rng: random.Random | None = None,
    ) -> None:
        if config.batch_size < 1:
            raise ValueError("batch_size must be at least 1")
        self.config = config
        self._log = logger or logging.getLogger("bme_desktop.core.providers.embeddings")
        self._session = HttpSession(
            config.base_url,
            api_key=config.api_key,
            extra_headers=config.extra_headers,
            policy=config.policy,
            logger=self._log,
            rng=rng,
        )
        self._dim = config.dim

    @property
    def name(self) -> str:
        return f"openai-compatible:{self.config.model}"

    @property
    def dim(self) -> int | None:
        return self._dim

    def close(self) -> None:
        self._session.close()

    def __enter__(self) -> EmbeddingClient:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def embed(self, texts: Sequence[str], *, cancel: threading.Event | None = None) -> EmbeddingMatrix:
        """Vectors for ``texts``, shape ``(len(texts), dim)``, rows L2-normalised.

        Empty strings are sent as a single space (several servers reject empty input).
        """
        if not texts:
            return np.zeros((0, self._dim or 0), dtype=np.float32)
        rows: list[EmbeddingMatrix] = []
        size = self.config.batch_size
        for offset in range(0, len(texts), size):
            batch = [text if text.strip() else " " for text in texts[offset : offset + size]]
            rows.append(self._embed_batch(batch, cancel))
        return np.concatenate(rows, axis=0)

    def test_connection(self) -> ConnectionReport:
        """Embed one short text; report the dimension. Never raises."""
        start = time.monotonic()
        try:
            vectors = self._embed_batch(["connection test"], None, retries=False)
        except LLMError as exc:
            return ConnectionReport(ok=False, latency=time.monotonic() - start, error=str(exc))
        return ConnectionReport(ok=True, latency=time.monotonic() - start, dim=int(vectors.shape[1]))

    def _embed_batch(
        self, batch: list[str], cancel: threading.Event | None, *, retries: bool = True
    ) -> EmbeddingMatrix:
        body = self._session.request_json(
            "POST",
            "embeddings",
            {"model": self.config.model, "input": batch},
            cancel=cancel,
            retries=retries,
            summary=f"{len(batch)} texts, {sum(len(t) for t in batch)} chars",
        )
        matrix = self._vectors_in_order(body, len(batch))
        if self._dim is None:
            self._dim = int(matrix.shape[1])
        elif matrix.shape[1] != self._dim:
            raise EmbeddingDimensionError(self._dim, int(matrix.shape[1]), model=self.config.model)
        return _l2_normalise(matrix)

    def _vectors_in_order(self, body: Any, expected: int) -> EmbeddingMatrix:
        items = body.get("data") if isinstance(body, Mapping) else None
        if not isinstance(items, list) or len(items) != expected:
            got = len(items) if isinstance(items, list) else "no"
            raise LLMBadResponse(f"embeddings: asked for {expected} vectors, got {got}")
        ordered: list[Any] = [None] * expected
        for position, item in enumerate(items):
            if not isinstance(item, Mapping) or not isinstance(item.get("embedding"), list):
                raise LLMBadResponse("embeddings: item without an 'embedding' list")
            index = item.get("index", position)
            if not isinstance(index, int) or not 0 <= index < expected or ordered[index] is not None:
                raise LLMBadResponse(f"embeddings: bad or repeated index {index!r}")
            ordered[index] = item["embedding"]
        dims = {len(vector) for vector in ordered}
        if len(dims) != 1:
            first = len(ordered[0])
            other = next(d for d in (len(v) for v in ordered) if d != first)
            raise EmbeddingDimensionError(self._dim or first, other, model=self.config.model)
        try:
            matrix = np.asarray(ordered, dtype=np.float32)
        except (TypeError, ValueError) as exc:
            raise LLMBadResponse("embeddings: vectors are not lists of numbers") from exc
        if matrix.shape[1] == 0 or not np.all(np.isfinite(matrix)):
            raise LLMBadResponse("embeddings: empty or non-finite vectors")
        return matrix


def _l2_normalise(matrix: EmbeddingMatrix) -> EmbeddingMatrix:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0.0] = 1.0  # an all-zero vector stays zero rather than NaN
    normalised: EmbeddingMatrix = (matrix / norms).astype(np.float32, copy=False)
    return normalised
