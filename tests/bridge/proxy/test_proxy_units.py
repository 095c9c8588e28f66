"""The proxy's pure parts: the conversation inside a request, window alignment, injection
placement, reading replies out of relayed bytes, settings and the upstream key."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from keyring.backend import KeyringBackend
from keyring.backends.null import Keyring as NullKeyring

from bme_desktop.bridge.proxy.conversation import SyncPlan, align, content_text, conversation, plan_sync
from bme_desktop.bridge.proxy.injection import inject, injection_position
from bme_desktop.bridge.proxy.stream import ReplyReader
from bme_desktop.bridge.proxy.upstream import read_upstream_key, relayed_headers, request_headers
from bme_desktop.core.secrets import ApiKeyStore
from bme_desktop.core.settings import ProxySettings, Settings, SettingsError, settings_from_json

SYS = {"role": "system", "content": "prompt"}


def u(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


def a(text: str) -> dict[str, Any]:
    return {"role": "assistant", "content": text}


# conversation ------------------------------------------------------------------------------
def test_content_text_reads_strings_and_text_parts() -> None:
    assert content_text("hi") == "hi"
    assert (
        content_text([{"type": "text", "text": "a"}, {"type": "image_url", "image_url": {}}, "b"]) == "a\nb"
    )
    assert content_text(None) == "" and content_text(42) == ""


def test_conversation_keeps_user_and_assistant_messages_with_text() -> None:
    turns = conversation(
        [
            SYS,
            u(" hi "),
            {"role": "assistant", "content": None, "tool_calls": []},
            {"role": "developer", "content": "x"},
            {"role": "tool", "content": "t"},
            "junk",
            a("yo\x00!"),
            {"role": "user", "content": "x", "name": "N" * 300},
        ]
    )
    assert [(t.position, t.role, t.text, t.name) for t in turns] == [
        (1, "user", "hi", None),
        (6, "assistant", "yo!", None),
        (7, "user", "x", None),
    ]


# alignment ---------------------------------------------------------------------------------
def fps(*names: str) -> list[str]:
    return list(names)


def stored_of(*names: str) -> dict[int, str]:
    return dict(enumerate(names))


@pytest.mark.parametrize(
    ("stored", "window", "offset"),
    [
        ({}, fps("a", "b"), 0),  # nothing stored
        (stored_of("a", "b"), fps("a", "b", "c"), 0),  # same start
        (stored_of("a", "b", "c", "d"), fps("c", "d", "e"), 2),  # trimmed window
        (stored_of("a", "b", "c", "d"), fps("d", "e"), 3),  # starts with the last stored message
        (stored_of("a", "b", "c", "d"), fps("b", "x"), 0),  # one message matches by chance: not trusted
        (stored_of("a", "b", "c", "d"), fps("x", "y"), 0),  # a different conversation
        (stored_of("a", "b", "a", "b", "c"), fps("a", "b", "c", "z"), 2),  # the longest match wins
        (stored_of("a", "b", "c", "a", "b"), fps("a", "b", "x"), 0),  # a tie goes to the start
        (stored_of("a", "b", "c", "d"), fps("a", "x", "c"), 0),  # an edit near the start
        (stored_of(*"abcdefgh"), fps("f", "g", "h", "i"), 5),
    ],
)
def test_align(stored: dict[int, str], window: list[str], offset: int) -> None:
    assert align(stored, window) == offset


def test_plan_sync_chooses_complete_partial_or_prefixed() -> None:
    stored = stored_of("a", "b", "c", "d", "e")
    assert plan_sync(stored, fps("a", "b")) == SyncPlan(0, True, False)
    assert plan_sync(stored, fps("d", "e", "f")) == SyncPlan(3, False, False)  # extends the chat
    assert plan_sync(stored, fps("c", "d")) == SyncPlan(2, True, True)  # drops "e": needs a whole list


# injection ---------------------------------------------------------------------------------
def test_injection_position_and_modes() -> None:
    msgs = [SYS, SYS, u("1"), a("2"), u("3"), {"role": "system", "content": "post"}]
    assert injection_position(msgs, 0) == 4
    assert injection_position(msgs, 1) == 3
    assert injection_position(msgs, 9) == 2
    assert injection_position([SYS, a("x")], 0) is None
    out = inject(msgs, "MEM", depth=0)
    assert out[4] == {"role": "system", "content": "MEM"} and len(out) == len(msgs) + 1
    assert msgs[4] == u("3")  # the request's list is not changed
    out = inject(msgs, "MEM", mode="first_system")
    assert out[0]["content"] == "prompt\n\nMEM" and SYS["content"] == "prompt"
    assert inject([u("q")], "MEM", mode="first_system")[0] == {"role": "system", "content": "MEM"}
    out = inject(msgs, "MEM", mode="user")
    assert out[4]["content"] == "MEM\n\n3"
    parts = [u("x"), {"role": "user", "content": [{"type": "text", "text": "q"}]}]
    assert inject(parts, "MEM", mode="user")[1]["content"][0] == {"type": "text", "text": "MEM"}
    assert inject(msgs, "") == msgs


# reading replies ---------------------------------------------------------------------------
def sse(*events: Any) -> bytes:
    return b"".join(f"data: {e if isinstance(e, str) else json.dumps(e)}\n\n".encode() for e in events)


def delta(text: str | None, finish: str | None = None, index: int = 0) -> dict[str, Any]:
    d = {} if text is None else {"content": text}
    return {"choices": [{"index": index, "delta": d, "finish_reason": finish}]}


def test_reply_reader_joins_deltas_across_arbitrary_chunk_boundaries() -> None:
    body = sse(
        delta(""),
        delta("Hel"),
        delta("lo", index=1),
        delta("lo, "),
        delta("wörld"),
        delta(None, "stop"),
        "[DONE]",
    )
    reader = ReplyReader(sse=True)
    for i in range(0, len(body), 7):
        reader.feed(body[i : i + 7])
    reader.end()
    assert reader.text() == "Hello, wörld"


def test_reply_reader_needs_a_finished_stream() -> None:
    reader = ReplyReader(sse=True)
    reader.feed(sse(delta("partial")))
    reader.end()
    assert reader.text() is None
    errored = ReplyReader(sse=True)
    errored.feed(sse(delta("x"), {"error": {"message": "bad"}}, "[DONE]"))
    assert errored.text() is None
    crlf = ReplyReader(sse=True)
    crlf.feed(b'data: {"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}\r\n\r\n')
    crlf.end()
    assert crlf.text() == "ok"


def test_reply_reader_reads_a_plain_completion() -> None:
    reader = ReplyReader(sse=False)
    reader.feed(
        json.dumps({"choices": [{"index": 0, "message": {"role": "assistant", "content": " Hi "}}]}).encode()
    )
    assert reader.text() == "Hi"
    tool = ReplyReader(sse=False)
    tool.feed(
        json.dumps({"choices": [{"index": 0, "message": {"content": None, "tool_calls": []}}]}).encode()
    )
    assert tool.text() is None
    junk = ReplyReader(sse=False)
    junk.feed(b"<html>")
    assert junk.text() is None


# headers -----------------------------------------------------------------------------------
def test_headers_that_cross_and_those_that_do_not() -> None:
    out = request_headers(
        {
            "Authorization": "Bearer bridge",
            "Host": "127.0.0.1:7317",
            "X-BME-Chat": "c",
            "Cookie": "x",
            "OpenAI-Organization": "org",
            "User-Agent": "app/1",
            "Content-Length": "5",
            "Sec-Fetch-Mode": "cors",
            "X-Title": "t",
        },
        "sk-up",
        json_body=True,
    )
    assert dict(out) == {
        "OpenAI-Organization": "org",
        "User-Agent": "app/1",
        "X-Title": "t",
        "Content-Type": "application/json",
        "Accept-Encoding": "identity",
        "X-BME-Proxy-Hop": "1",
        "Authorization": "Bearer sk-up",
    }
    back = relayed_headers(
        {
            "Content-Type": "text/event-stream",
            "Content-Length": "9",
            "x-request-id": "r",
            "Set-Cookie": "s",
            "Transfer-Encoding": "chunked",
            "Retry-After": "3",
        }
    )
    assert dict(back) == {"Content-Type": "text/event-stream", "x-request-id": "r", "Retry-After": "3"}


# settings and key --------------------------------------------------------------------------
def test_proxy_settings_defaults_and_round_trip() -> None:
    settings = Settings()
    assert settings.proxy == ProxySettings()
    assert (
        settings.proxy.enabled
        and settings.proxy.upstream_base_url == ""
        and settings.proxy.injection_depth == 0
    )
    data = {
        "proxy": {
            "upstream_base_url": "http://127.0.0.1:11434/v1",
            "model_map": ["mem = qwen2.5:7b"],
            "injection_depth": 2,
            "injection_mode": "user",
            "timeout_s": 30,
        }
    }
    loaded = settings_from_json(data)
    assert loaded.proxy.models() == {"mem": "qwen2.5:7b"}
    assert settings_from_json(loaded.to_json()) == loaded


@pytest.mark.parametrize(
    ("proxy", "message"),
    [
        ({"model_map": ["nonsense"]}, "proxy.model_map[0] must read 'alias=upstream-model'"),
        ({"model_map": ["=x"]}, "proxy.model_map[0]"),
        ({"upstream_base_url": "api.openai.com"}, "proxy.upstream_base_url must start with http"),
        ({"injection_depth": -1}, "proxy.injection_depth must be at least 0"),
        ({"injection_mode": "assistant"}, "proxy.injection_mode must be one of"),
        ({"timeout_s": 0}, "proxy.timeout_s must be at least 1"),
        ({"api_key": "sk-x"}, "unknown setting proxy.api_key"),
    ],
)
def test_bad_proxy_settings_are_named(proxy: dict[str, Any], message: str) -> None:
    with pytest.raises(SettingsError) as err:
        settings_from_json({"proxy": proxy})
    assert message in str(err.value)


class MemoryKeyring(KeyringBackend):
    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.store: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.store.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.store[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.store.pop((service, username), None)


def test_the_upstream_key_comes_from_the_environment_then_the_keyring_then_the_file(tmp_path: Path) -> None:
    ring = MemoryKeyring()
    env = {"BME_PROXY_UPSTREAM_KEY": " sk-env "}
    assert read_upstream_key(tmp_path, {}, ring) is None
    ring.set_password("bme-desktop", "proxy-upstream-key", "sk-ring")
    assert read_upstream_key(tmp_path, {}, ring) == "sk-ring"
    assert read_upstream_key(tmp_path, env, ring) == "sk-env"  # the environment wins
    assert read_upstream_key(None, {}, ring) == "sk-ring"
    # No usable keyring: the key the Settings panel kept in a user-only file.
    ApiKeyStore(tmp_path, keyring_backend=NullKeyring()).store(
        "proxy-upstream-key", "sk-file", allow_file=True
    )
    assert read_upstream_key(tmp_path, {}, NullKeyring()) == "sk-file"
    assert read_upstream_key(tmp_path, {}, ring) == "sk-ring"  # a keyring entry comes first
    assert read_upstream_key(None, {}, NullKeyring()) is None
