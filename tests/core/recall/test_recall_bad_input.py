"""Recall keeps answering on bad input and broken models, and says which stages it skipped."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fakes.openai_replies import Reply
from fakes.openai_server import FakeOpenAIServer

from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.model import MessageIn
from bme_desktop.core.recall.api import RecallRequest
from bme_desktop.core.recall.pipeline import HybridRecaller, attach
from bme_desktop.core.service import MemoryService
from bme_desktop.core.settings import EmbeddingSettings, LLMSettings, RecallSettings, Settings

CHAT = "chat-1"


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer(embedding_dim=32) as fake:
        yield fake


def open_service(
    tmp_path: Path, server: FakeOpenAIServer, **recall: object
) -> tuple[MemoryService, HybridRecaller]:
    settings = Settings(
        embedding=EmbeddingSettings(
            provider="remote", base_url=server.base_url, model="fake-embed", timeout_s=2.0
        ),
        recall=RecallSettings(**recall),  # type: ignore[arg-type]
        llm=LLMSettings(enabled=True, base_url=server.base_url, model="fake-chat"),
    )
    service = MemoryService.open(tmp_path, settings=settings, attach=False)
    recaller = attach(service)
    service.sync(
        CHAT,
        [
            MessageIn(0, "user", "The brass key opens the lighthouse."),
            MessageIn(1, "assistant", "Lena nods."),
        ],
    )
    service.create_node(
        CHAT, NodeDraft("fact", {"statement": "The brass key opens the lighthouse door."}, source_indices=[0])
    )
    service.create_node(
        CHAT, NodeDraft("fact", {"statement": "Bread was packed for the voyage."}, source_indices=[1])
    )
    return service, recaller


def vector_skips(skipped: list[str]) -> list[str]:
    return [s for s in skipped if s.startswith("vector")]


def test_embedding_endpoint_down_falls_back_to_lexical(tmp_path: Path, server: FakeOpenAIServer) -> None:
    server.stop()
    service, recaller = open_service(tmp_path, server)
    try:
        result = service.recall(RecallRequest(CHAT, "What does the brass key open?"))
        assert result.nodes[0].node.fields["statement"].startswith("The brass key")
        assert vector_skips(result.skipped_stages)
    finally:
        assert recaller.vectors is not None
        recaller.vectors.stop()
        service.close()


def test_slow_embedding_endpoint_is_not_waited_for(tmp_path: Path, server: FakeOpenAIServer) -> None:
    service, recaller = open_service(tmp_path, server, timeout_s=0.5)
    try:
        assert recaller.vectors is not None
        assert recaller.vectors.wait_idle(30) and recaller.vectors.index(CHAT) is not None
        server.enqueue_embeddings(Reply.text("", delay=30.0))
        result = service.recall(RecallRequest(CHAT, "What does the brass key open?"))
        assert "vector (embedding timed out)" in result.skipped_stages
        assert result.nodes[0].node.fields["statement"].startswith("The brass key")
    finally:
        assert recaller.vectors is not None
        recaller.vectors.stop()
        service.close()


def test_wrong_dimension_from_the_endpoint_skips_vectors(tmp_path: Path, server: FakeOpenAIServer) -> None:
    service, recaller = open_service(tmp_path, server)
    try:
        assert recaller.vectors is not None
        recaller.vectors.index(CHAT)
        assert recaller.vectors.wait_idle(30)
        assert service.recall(RecallRequest(CHAT, "brass key")).nodes[0].components["vector"] > 0
        server.embedding_dim = 16
        result = service.recall(RecallRequest(CHAT, "What does the brass key open?"))
        assert vector_skips(result.skipped_stages)
        assert result.nodes[0].node.fields["statement"].startswith("The brass key")
    finally:
        assert recaller.vectors is not None
        recaller.vectors.stop()
        service.close()


def test_garbage_from_the_rerank_model_keeps_score_order(tmp_path: Path, server: FakeOpenAIServer) -> None:
    server.responder = lambda request: Reply.garbage()
    service, recaller = open_service(tmp_path, server, rerank_with_llm=True)
    try:
        result = service.recall(RecallRequest(CHAT, "What does the brass key open?"))
        assert any(s.startswith("rerank (") and "score order kept" in s for s in result.skipped_stages)
        assert result.nodes[0].node.fields["statement"].startswith("The brass key")
        scores = [r.score for r in result.nodes]
        assert scores == sorted(scores, reverse=True)
    finally:
        assert recaller.vectors is not None
        recaller.vectors.stop()
        service.close()


def test_rerank_model_order_is_followed_when_it_answers(tmp_path: Path, server: FakeOpenAIServer) -> None:
    server.responder = lambda request: Reply.json({"selected": ["R2", "R1"]})
    service, recaller = open_service(tmp_path, server, rerank_with_llm=True)
    try:
        result = service.recall(RecallRequest(CHAT, "brass key voyage bread"))
        assert len(result.nodes) == 2
        assert [r.components.get("rerank_position") for r in result.nodes] == [1.0, 2.0]
    finally:
        assert recaller.vectors is not None
        recaller.vectors.stop()
        service.close()


def test_huge_and_binary_inputs_still_answer(tmp_path: Path, server: FakeOpenAIServer) -> None:
    server.stop()
    service, recaller = open_service(tmp_path, server)
    try:
        huge = "What does the brass key open? " + "filler words " * 80_000
        assert len(huge) > 1_000_000
        result = service.recall(RecallRequest(CHAT, huge))
        assert result.nodes and result.nodes[0].node.fields["statement"].startswith("The brass key")
        binary = service.recall(RecallRequest(CHAT, "".join(chr(i % 32) for i in range(5000))))
        assert binary.nodes == [] and "recall (binary input)" in binary.skipped_stages
        empty = service.recall(RecallRequest(CHAT, ""))
        assert empty.nodes == [] and empty.injection == ""
    finally:
        assert recaller.vectors is not None
        recaller.vectors.stop()
        service.close()
