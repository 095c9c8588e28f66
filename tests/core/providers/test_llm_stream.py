"""LLMClient.stream_chat over real SSE: deltas, idle and hard timeouts, truncation, cancel."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from fakes.openai_server import FakeOpenAIServer, Reply

from bme_desktop.core.providers import (
    HttpPolicy,
    LLMBadResponse,
    LLMCancelled,
    LLMClient,
    LLMConfig,
    LLMTimeout,
)

FAST = HttpPolicy(total_timeout=5.0, idle_timeout=0.5, max_retries=2, backoff_base=0.01, backoff_max=0.02)
USER = [{"role": "user", "content": "Tell me a story"}]
STORY = "Once upon a time, 在很久很久以前, there was a memory graph."


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as fake:
        yield fake


@pytest.fixture
def llm(server: FakeOpenAIServer) -> Iterator[LLMClient]:
    with LLMClient(LLMConfig(base_url=server.base_url, model="m", policy=FAST)) as client:
        yield client


def test_deltas_arrive_in_order_and_join_to_the_reply(server: FakeOpenAIServer, llm: LLMClient) -> None:
    server.enqueue(Reply.text(STORY, chunk_size=3))
    deltas = list(llm.stream_chat(USER))
    assert len(deltas) > 5
    assert "".join(deltas) == STORY
    assert server.requests[0].json["stream"] is True


def test_retries_before_the_stream_starts(server: FakeOpenAIServer, llm: LLMClient) -> None:
    server.enqueue(Reply.error(503), Reply.text(STORY))
    assert "".join(llm.stream_chat(USER)) == STORY
    assert len(server.requests_to("/chat/completions")) == 2


def test_stalled_stream_hits_the_idle_timeout(server: FakeOpenAIServer, llm: LLMClient) -> None:
    server.enqueue(Reply.text(STORY, stall_after=2))
    received: list[str] = []
    with pytest.raises(LLMTimeout, match="idle"):
        for delta in llm.stream_chat(USER):
            received.append(delta)
    assert "".join(received) == STORY[:8]  # two 4-character chunks before the stall


def test_trickling_stream_hits_the_hard_timeout(server: FakeOpenAIServer) -> None:
    server.enqueue(Reply.text("x" * 400, chunk_size=1, chunk_delay=0.02))
    policy = HttpPolicy(total_timeout=0.4, idle_timeout=5.0, max_retries=0)
    with (
        LLMClient(LLMConfig(base_url=server.base_url, model="m", policy=policy)) as llm,
        pytest.raises(LLMTimeout),
    ):
        for _ in llm.stream_chat(USER):
            pass


def test_stream_ending_without_finish_raises(server: FakeOpenAIServer, llm: LLMClient) -> None:
    server.enqueue(Reply.text(STORY, truncate_after=3))
    with pytest.raises(LLMBadResponse):
        list(llm.stream_chat(USER))


def test_connection_cut_mid_stream_raises(server: FakeOpenAIServer, llm: LLMClient) -> None:
    server.enqueue(Reply.text(STORY, abort_after=3))
    with pytest.raises(LLMBadResponse):
        list(llm.stream_chat(USER))


def test_cancel_stops_the_stream_between_chunks(server: FakeOpenAIServer, llm: LLMClient) -> None:
    server.enqueue(Reply.text(STORY, chunk_size=2, chunk_delay=0.01))
    cancel = threading.Event()
    received: list[str] = []
    with pytest.raises(LLMCancelled):
        for delta in llm.stream_chat(USER, cancel=cancel):
            received.append(delta)
            cancel.set()
    assert received == [STORY[:2]]


def test_closing_the_stream_early_leaves_the_client_usable(server: FakeOpenAIServer, llm: LLMClient) -> None:
    server.enqueue(Reply.text(STORY, chunk_delay=0.01), Reply.text("next"))
    stream = llm.stream_chat(USER)
    assert next(stream)
    stream.close()
    assert llm.chat(USER).text == "next"
