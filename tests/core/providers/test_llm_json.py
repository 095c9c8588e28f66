"""LLMClient.chat_json: JSON mode, tolerant parsing, and the single repair attempt."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fakes.openai_server import FakeOpenAIServer, Reply

from bme_desktop.core.providers import HttpPolicy, LLMBadResponse, LLMClient, LLMConfig

FAST = HttpPolicy(total_timeout=3.0, idle_timeout=0.5, max_retries=1, backoff_base=0.01, backoff_max=0.02)
ASK = [{"role": "system", "content": "Extract memories."}, {"role": "user", "content": "Alice met Bob."}]


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as fake:
        yield fake


@pytest.fixture
def llm(server: FakeOpenAIServer) -> Iterator[LLMClient]:
    with LLMClient(LLMConfig(base_url=server.base_url, model="m", policy=FAST)) as client:
        yield client


def test_fenced_json_with_prose_is_parsed(server: FakeOpenAIServer, llm: LLMClient) -> None:
    server.enqueue(
        Reply.text(
            'Sure! Here it is:\n```json\n{"operations": [{"type": "character", "name": "Alice"},'
            "]}\n```\nDone."
        )
    )
    assert llm.chat_json(ASK) == {"operations": [{"type": "character", "name": "Alice"}]}
    assert len(server.requests_to("/chat/completions")) == 1


def test_asks_for_json_object_and_instructs_with_schema_hint(
    server: FakeOpenAIServer, llm: LLMClient
) -> None:
    server.enqueue(Reply.json({"operations": []}))
    llm.chat_json(ASK, schema_hint='{"operations": [...]}')
    (request,) = server.requests_to("/chat/completions")
    assert request.json["response_format"] == {"type": "json_object"}
    system = request.json["messages"][0]
    assert system["role"] == "system" and system["content"].startswith("Extract memories.")
    assert "JSON" in system["content"] and '{"operations": [...]}' in system["content"]
    assert request.json["messages"][1] == ASK[1]


def test_falls_back_without_response_format_when_rejected_and_remembers() -> None:
    with FakeOpenAIServer(reject_response_format=True) as server:
        server.enqueue(Reply.json({"a": 1}), Reply.json({"b": 2}))
        with LLMClient(LLMConfig(base_url=server.base_url, model="m", policy=FAST)) as llm:
            assert llm.chat_json(ASK) == {"a": 1}
            assert llm.chat_json(ASK) == {"b": 2}
        sent = [("response_format" in r.json) for r in server.requests_to("/chat/completions")]
    assert sent == [True, False, False]


def test_json_mode_can_be_switched_off(server: FakeOpenAIServer) -> None:
    server.enqueue(Reply.json({}))
    with LLMClient(LLMConfig(base_url=server.base_url, model="m", policy=FAST, json_mode=False)) as llm:
        llm.chat_json(ASK)
    assert "response_format" not in server.requests[0].json


def test_one_repair_attempt_fixes_a_bad_reply(server: FakeOpenAIServer, llm: LLMClient) -> None:
    server.enqueue(Reply.text("I think Alice is a character named Alice."), Reply.json({"fixed": True}))
    assert llm.chat_json(ASK) == {"fixed": True}
    _first, repair = server.requests_to("/chat/completions")
    repair_prompt = " ".join(m["content"] for m in repair.json["messages"])
    assert "I think Alice is a character named Alice." in repair_prompt
    assert "repair" in repair_prompt.lower()


def test_repair_is_tried_once_then_fails_cleanly(server: FakeOpenAIServer, llm: LLMClient) -> None:
    server.enqueue(Reply.text("not json"), Reply.text("still not json"), Reply.json({"never": "asked"}))
    with pytest.raises(LLMBadResponse) as caught:
        llm.chat_json(ASK)
    assert len(server.requests_to("/chat/completions")) == 2
    assert caught.value.raw_excerpt == "still not json"
    assert "still not json" not in str(caught.value)


def test_empty_reply_re_asks_the_original_request(server: FakeOpenAIServer, llm: LLMClient) -> None:
    server.enqueue(Reply.empty(), Reply.json([1, 2]))
    assert llm.chat_json(ASK) == [1, 2]
    first, second = server.requests_to("/chat/completions")
    assert second.json["messages"] == first.json["messages"]


def test_truncated_json_is_recovered_without_a_repair_call(server: FakeOpenAIServer, llm: LLMClient) -> None:
    server.enqueue(Reply.text('{"operations": [{"name": "Alice"}, {"name": "Bo', finish_reason="length"))
    assert llm.chat_json(ASK) == {"operations": [{"name": "Alice"}, {"name": "Bo"}]}
    assert len(server.requests_to("/chat/completions")) == 1
