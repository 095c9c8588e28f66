"""LLMClient.test_connection: a report, never an exception."""

from __future__ import annotations

from fakes.openai_server import FakeOpenAIServer, Reply

from bme_desktop.core.providers import HttpPolicy, LLMClient, LLMConfig

FAST = HttpPolicy(connect_timeout=0.5, total_timeout=2.0, max_retries=3, backoff_base=0.01)


def test_reports_ok_with_the_model_list() -> None:
    with (
        FakeOpenAIServer(models=["qwen2.5:7b", "nomic-embed-text"]) as server,
        LLMClient(LLMConfig(base_url=server.base_url, model="qwen2.5:7b", policy=FAST)) as llm,
    ):
        report = llm.test_connection()
    assert report.ok and report.error is None
    assert report.models == ("qwen2.5:7b", "nomic-embed-text")
    assert report.model_listed is True
    assert report.latency >= 0


def test_flags_a_model_the_server_does_not_list() -> None:
    with (
        FakeOpenAIServer(models=["other"]) as server,
        LLMClient(LLMConfig(base_url=server.base_url, model="missing", policy=FAST)) as llm,
    ):
        report = llm.test_connection()
    assert report.ok and report.model_listed is False


def test_closed_port_reports_failure_with_a_message() -> None:
    with FakeOpenAIServer() as server:
        url = server.base_url
    with LLMClient(LLMConfig(base_url=url, model="m", policy=FAST)) as llm:
        report = llm.test_connection()
    assert not report.ok
    assert report.error and "127.0.0.1" in report.error
    assert report.models == ()


def test_wrong_key_reports_http_401_without_retrying() -> None:
    with FakeOpenAIServer(api_key="sk-right-key-000") as server:
        with LLMClient(
            LLMConfig(base_url=server.base_url, model="m", api_key="sk-wrong-key-111", policy=FAST)
        ) as llm:
            report = llm.test_connection()
        assert len(server.requests) == 1
    assert not report.ok and report.error is not None and "401" in report.error
    assert "sk-wrong-key-111" not in report.error


def test_falls_back_to_a_one_token_chat_when_models_route_is_missing() -> None:
    with FakeOpenAIServer(models=None) as server:
        with LLMClient(LLMConfig(base_url=server.base_url, model="m", policy=FAST)) as llm:
            report = llm.test_connection()
        (chat,) = server.requests_to("/chat/completions")
    assert report.ok and report.models == () and report.model_listed is None
    assert chat.json["max_tokens"] == 1


def test_server_errors_are_not_retried_by_the_connection_test() -> None:
    with FakeOpenAIServer(models=None) as server:
        server.enqueue(Reply.error(503), Reply.text("would succeed on retry"))
        with LLMClient(LLMConfig(base_url=server.base_url, model="m", policy=FAST)) as llm:
            report = llm.test_connection()
        assert len(server.requests_to("/chat/completions")) == 1
    assert not report.ok and report.error is not None and "503" in report.error
