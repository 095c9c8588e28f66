"""LLMClient.chat against the fake server: wire format, retries, timeouts, cancellation."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fakes.openai_server import FakeOpenAIServer, Reply

from bme_desktop.core.providers import (
    HttpPolicy,
    LLMBadResponse,
    LLMCancelled,
    LLMClient,
    LLMConfig,
    LLMConnectionError,
    LLMHTTPError,
    LLMTimeout,
)

FAST = HttpPolicy(
    connect_timeout=0.5,
    total_timeout=3.0,
    idle_timeout=0.5,
    max_retries=2,
    backoff_base=0.01,
    backoff_max=0.02,
)
USER = [{"role": "user", "content": "Hello there"}]


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as fake:
        yield fake


def client(server: FakeOpenAIServer, policy: HttpPolicy = FAST, **options: Any) -> LLMClient:
    return LLMClient(LLMConfig(base_url=server.base_url, model="test-model", policy=policy, **options))


def test_plain_reply_returns_text_usage_and_model(server: FakeOpenAIServer) -> None:
    server.enqueue(
        Reply.text(
            "Hi! How can I help?", usage={"prompt_tokens": 7, "completion_tokens": 5, "total_tokens": 12}
        )
    )
    with client(server) as llm:
        result = llm.chat(USER)
    assert result.text == "Hi! How can I help?"
    assert result.model == "test-model"
    assert result.usage is not None and result.usage.total_tokens == 12
    assert result.finish_reason == "stop"
    assert result.elapsed >= 0


def test_request_carries_model_messages_settings_and_headers(server: FakeOpenAIServer) -> None:
    with client(
        server, api_key="sk-test-123456789", temperature=0.7, max_tokens=50, extra_headers={"X-Title": "BME"}
    ) as llm:
        llm.chat(USER)
    (request,) = server.requests_to("/chat/completions")
    assert request.json["model"] == "test-model"
    assert request.json["messages"] == USER
    assert request.json["temperature"] == 0.7 and request.json["max_tokens"] == 50
    assert request.json["stream"] is False
    assert request.headers["authorization"] == "Bearer sk-test-123456789"
    assert request.headers["x-title"] == "BME"


def test_base_url_without_path_gets_v1(server: FakeOpenAIServer) -> None:
    root = server.base_url.removesuffix("/v1")
    with LLMClient(LLMConfig(base_url=root + "/", model="m", policy=FAST)) as llm:
        assert llm.chat(USER).text == "ok"


def test_retries_on_429_and_503_then_succeeds(server: FakeOpenAIServer) -> None:
    server.enqueue(Reply.error(429), Reply.error(503), Reply.text("finally"))
    with client(server) as llm:
        assert llm.chat(USER).text == "finally"
    assert len(server.requests_to("/chat/completions")) == 3


def test_gives_up_after_max_retries_with_the_last_status(server: FakeOpenAIServer) -> None:
    server.enqueue(*[Reply.error(503)] * 5)
    with client(server) as llm, pytest.raises(LLMHTTPError) as caught:
        llm.chat(USER)
    assert caught.value.status == 503
    assert len(server.requests_to("/chat/completions")) == 3  # 1 + max_retries


def test_no_retry_on_400(server: FakeOpenAIServer) -> None:
    server.enqueue(Reply.error(400, "bad request: messages missing"), Reply.text("never"))
    with client(server) as llm, pytest.raises(LLMHTTPError) as caught:
        llm.chat(USER)
    assert caught.value.status == 400
    assert "messages missing" in caught.value.body_excerpt
    assert len(server.requests_to("/chat/completions")) == 1


def test_retry_after_is_honoured(server: FakeOpenAIServer) -> None:
    server.enqueue(Reply.error(429, retry_after=0.3), Reply.text("ok"))
    with client(server) as llm:
        llm.chat(USER)
    first, second = server.requests_to("/chat/completions")
    assert second.received_at - first.received_at >= 0.3  # backoff alone would be ≤ 0.02 s


def test_retry_after_beyond_the_deadline_raises_at_once(server: FakeOpenAIServer) -> None:
    server.enqueue(Reply.error(429, retry_after=50), Reply.text("too late"))
    with client(server) as llm, pytest.raises(LLMHTTPError) as caught:
        llm.chat(USER)
    assert caught.value.retry_after == 50
    assert len(server.requests_to("/chat/completions")) == 1


def test_dropped_connection_is_retried(server: FakeOpenAIServer) -> None:
    server.enqueue(Reply.drop(), Reply.text("second try"))
    with client(server) as llm:
        assert llm.chat(USER).text == "second try"


def test_hard_timeout_raises_llm_timeout(server: FakeOpenAIServer) -> None:
    server.enqueue(Reply.text("slow", delay=30))
    policy = HttpPolicy(total_timeout=0.3, idle_timeout=10, max_retries=0)
    with client(server, policy) as llm, pytest.raises(LLMTimeout):
        llm.chat(USER)


def test_garbage_body_is_a_bad_response(server: FakeOpenAIServer) -> None:
    server.enqueue(Reply.garbage())
    with client(server) as llm, pytest.raises(LLMBadResponse):
        llm.chat(USER)


def test_body_without_choices_is_a_bad_response(server: FakeOpenAIServer) -> None:
    server.enqueue(Reply.raw('{"object": "chat.completion", "choices": []}'))
    with client(server) as llm, pytest.raises(LLMBadResponse):
        llm.chat(USER)


def test_closed_port_raises_connection_error() -> None:
    with FakeOpenAIServer() as fake:
        url = fake.base_url
    with LLMClient(LLMConfig(base_url=url, model="m", policy=FAST)) as llm, pytest.raises(LLMConnectionError):
        llm.chat(USER)


def test_cancel_set_before_the_call_sends_nothing(server: FakeOpenAIServer) -> None:
    cancel = threading.Event()
    cancel.set()
    with client(server) as llm, pytest.raises(LLMCancelled):
        llm.chat(USER, cancel=cancel)
    assert server.requests_to("/chat/completions") == []


def test_cancel_interrupts_the_wait_between_retries(server: FakeOpenAIServer) -> None:
    server.enqueue(Reply.error(429, retry_after=10.0), Reply.text("after the wait"))
    cancel = threading.Event()

    def cancel_once_answered() -> None:  # not on a timer: a loaded machine may not have sent it yet
        deadline = time.monotonic() + 20
        while not server.requests_to("/chat/completions") and time.monotonic() < deadline:
            time.sleep(0.005)
        cancel.set()

    canceller = threading.Thread(target=cancel_once_answered)
    canceller.start()
    try:
        with (
            client(server, HttpPolicy(total_timeout=30.0, backoff_base=0.01)) as llm,
            pytest.raises(LLMCancelled),
        ):
            llm.chat(USER, cancel=cancel)
    finally:
        canceller.join(30)
    assert len(server.requests_to("/chat/completions")) == 1
