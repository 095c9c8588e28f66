"""Keys and chat text never reach the logs; the redaction helpers mask what they should."""

from __future__ import annotations

import logging

import pytest
from fakes.openai_server import FakeOpenAIServer, Reply

from bme_desktop.core.providers import HttpPolicy, LLMBadResponse, LLMClient, LLMConfig, LLMHTTPError
from bme_desktop.core.providers.redaction import describe_messages, redact_headers, redact_secrets

KEY = "sk-proj-SECRETKEY0123456789abcdef"
SECRET_TEXT = "Mira hid the silver key under the third floorboard"
SECRET_REPLY = "the lighthouse keeper never sleeps"
FAST = HttpPolicy(total_timeout=3.0, idle_timeout=0.5, max_retries=1, backoff_base=0.01, backoff_max=0.02)


def test_logs_hold_neither_key_nor_message_nor_reply_text(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)  # every logger, httpx and httpcore included
    messages = [
        {"role": "system", "content": "You are a narrator."},
        {"role": "user", "content": SECRET_TEXT},
    ]
    with FakeOpenAIServer() as server:
        server.enqueue(Reply.error(503), Reply.text(SECRET_REPLY), Reply.text(SECRET_REPLY, chunk_size=5))
        server.enqueue(Reply.text(SECRET_REPLY), Reply.text(SECRET_REPLY))  # chat_json: bad, then bad repair
        server.enqueue(Reply.error(400, f"context too long, key {KEY}"))
        with LLMClient(LLMConfig(base_url=server.base_url, model="m", api_key=KEY, policy=FAST)) as llm:
            llm.chat(messages)
            "".join(llm.stream_chat(messages))
            with pytest.raises(LLMBadResponse):
                llm.chat_json(messages)
            with pytest.raises(LLMHTTPError) as caught:
                llm.chat(messages)
            logging.getLogger("test").error("caller logs the error: %s", caught.value)
        assert server.requests[0].headers["authorization"] == f"Bearer {KEY}"  # the key was really sent
    assert caplog.records, "the clients should log something"
    assert KEY not in caplog.text
    assert "SECRETKEY" not in caplog.text
    assert "silver key" not in caplog.text
    assert "lighthouse" not in caplog.text


def test_config_repr_hides_the_key() -> None:
    assert KEY not in repr(LLMConfig(base_url="http://x/v1", model="m", api_key=KEY))


def test_redact_headers_masks_credentials_and_keeps_the_rest() -> None:
    clean = redact_headers({"Authorization": f"Bearer {KEY}", "X-Api-Key": "abc123456", "X-Title": "BME"})
    assert clean == {"Authorization": "Bearer ***", "X-Api-Key": "***", "X-Title": "BME"}


def test_redact_secrets_masks_sk_keys_and_bearer_tokens() -> None:
    text = f"key={KEY} header=Bearer abcdef123456 fine=sk-no"
    clean = redact_secrets(text)
    assert KEY not in clean and "abcdef123456" not in clean
    assert "fine=sk-no" in clean


def test_describe_messages_shows_roles_and_sizes_only() -> None:
    summary = describe_messages([{"role": "user", "content": SECRET_TEXT}])
    assert summary == f"[user:{len(SECRET_TEXT)}]"
    preview = describe_messages([{"role": "user", "content": SECRET_TEXT}], preview_chars=4)
    assert "Mira" in preview and "silver" not in preview
