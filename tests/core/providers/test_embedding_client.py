"""EmbeddingClient against the fake /v1/embeddings: batching, order, normalisation, dims."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from fakes.openai_server import FakeOpenAIServer, Reply, fake_embedding

from bme_desktop.core.providers import (
    Embedder,
    EmbeddingClient,
    EmbeddingConfig,
    EmbeddingDimensionError,
    HttpPolicy,
    LLMCancelled,
    LLMHTTPError,
)

FAST = HttpPolicy(total_timeout=3.0, max_retries=2, backoff_base=0.01, backoff_max=0.02)
TEXTS = ["Alice", "Bob likes tea", "", "爱丽丝在图书馆", "the old lighthouse", "Alice!", "z"]


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer(embedding_dim=32) as fake:
        yield fake


def embedder(server: FakeOpenAIServer, **options: Any) -> EmbeddingClient:
    config = EmbeddingConfig(base_url=server.base_url, model="fake-embed", policy=FAST, batch_size=3)
    return EmbeddingClient(replace(config, **options))


def expected_rows(texts: list[str], dim: int) -> np.ndarray:
    rows = np.array([fake_embedding(t if t else " ", dim) for t in texts], dtype=np.float64)
    normalised: np.ndarray = rows / np.linalg.norm(rows, axis=1, keepdims=True)
    return normalised


def test_batches_requests_by_batch_size(server: FakeOpenAIServer) -> None:
    with embedder(server) as client:
        client.embed(TEXTS)
    sizes = [len(r.json["input"]) for r in server.requests_to("/embeddings")]
    assert sizes == [3, 3, 1]
    assert all(r.json["model"] == "fake-embed" for r in server.requests_to("/embeddings"))


def test_rows_follow_input_order_even_when_the_server_reorders(server: FakeOpenAIServer) -> None:
    server.embedding_reverse = True
    with embedder(server) as client:
        vectors = client.embed(TEXTS)
    np.testing.assert_allclose(vectors, expected_rows(TEXTS, 32), atol=1e-6)


def test_vectors_are_float32_and_unit_length(server: FakeOpenAIServer) -> None:
    with embedder(server) as client:
        vectors = client.embed(TEXTS)
    assert vectors.dtype == np.float32 and vectors.shape == (len(TEXTS), 32)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-6)
    assert client.dim == 32


def test_empty_input_returns_an_empty_matrix_without_a_request(server: FakeOpenAIServer) -> None:
    with embedder(server, dim=32) as client:
        assert client.embed([]).shape == (0, 32)
    assert server.requests == []


def test_configured_dim_mismatch_raises(server: FakeOpenAIServer) -> None:
    with embedder(server, dim=768) as client, pytest.raises(EmbeddingDimensionError) as caught:
        client.embed(["Alice"])
    assert (caught.value.expected, caught.value.got) == (768, 32)
    assert "768" in str(caught.value) and "fake-embed" in str(caught.value)


def test_dim_change_between_calls_raises(server: FakeOpenAIServer) -> None:
    with embedder(server) as client:
        client.embed(["Alice"])
        server.embedding_dim = 16
        with pytest.raises(EmbeddingDimensionError):
            client.embed(["Bob"])


def test_ragged_batch_raises(server: FakeOpenAIServer) -> None:
    server.embedding_ragged = True
    with embedder(server) as client, pytest.raises(EmbeddingDimensionError):
        client.embed(["a", "b"])


def test_server_errors_are_retried_with_the_shared_policy(server: FakeOpenAIServer) -> None:
    server.enqueue_embeddings(Reply.error(503), Reply.error(429, retry_after=0.01))
    with embedder(server) as client:
        assert client.embed(["Alice"]).shape == (1, 32)
    assert len(server.requests_to("/embeddings")) == 3


def test_client_errors_are_not_retried(server: FakeOpenAIServer) -> None:
    server.enqueue_embeddings(Reply.error(400, "model not found"))
    with embedder(server) as client, pytest.raises(LLMHTTPError):
        client.embed(["Alice"])
    assert len(server.requests_to("/embeddings")) == 1


def test_meets_the_embedder_protocol_and_names_its_model(server: FakeOpenAIServer) -> None:
    with embedder(server) as client:
        assert isinstance(client, Embedder)
        assert client.name == "openai-compatible:fake-embed"


def test_connection_test_reports_the_dimension(server: FakeOpenAIServer) -> None:
    with embedder(server) as client:
        report = client.test_connection()
    assert report.ok and report.dim == 32


def test_cancel_flag_stops_before_the_next_request(server: FakeOpenAIServer) -> None:
    cancel = threading.Event()
    cancel.set()
    with embedder(server) as client, pytest.raises(LLMCancelled):
        client.embed(TEXTS, cancel=cancel)
    assert server.requests_to("/embeddings") == []
