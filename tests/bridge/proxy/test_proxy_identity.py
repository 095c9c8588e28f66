"""Which chat a request is: the X-BME-Chat header, else the ``user`` field, else a hash of the
conversation's start (with continuity for conversations the proxy answered before)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from fakes.openai_server import FakeOpenAIServer

from bme_desktop.bridge.proxy.chat_identity import Continuity, identify, start_hash
from bme_desktop.bridge.proxy.conversation import conversation
from bme_desktop.bridge.server import BridgeServer
from bme_desktop.core.service import MemoryService

from .conftest import state_of, stored, wait_for

SYSTEM = {"role": "system", "content": "You are Sera."}


def ask(
    proxy: httpx.Client, messages: list[dict[str, Any]], headers: dict[str, str] | None = None, **extra: Any
) -> httpx.Response:
    r = proxy.post(
        "/chat/completions", json={"model": "m", "messages": messages, **extra}, headers=headers or {}
    )
    assert r.status_code == 200, r.text
    return r


def chat_ids(service: MemoryService) -> list[str]:
    return sorted(s.chat_id for s in service.list_chats())


def test_the_header_names_the_chat(proxy: httpx.Client, service: MemoryService) -> None:
    r = ask(proxy, [{"role": "user", "content": "hi"}], {"X-BME-Chat": "my-story"}, user="someone")
    assert r.headers["x-bme-chat"] == "my-story"
    assert chat_ids(service) == ["my-story"]


def test_a_percent_encoded_header_is_decoded(proxy: httpx.Client, service: MemoryService) -> None:
    r = ask(proxy, [{"role": "user", "content": "你好"}], {"X-BME-Chat": "%E6%95%85%E4%BA%8B"})
    assert chat_ids(service) == ["故事"]
    assert r.headers["x-bme-chat"] == "%E6%95%85%E4%BA%8B"


@pytest.mark.parametrize("bad", ["x" * 300, "%FF%FE", "%00"])
def test_an_invalid_header_is_a_400(proxy: httpx.Client, fake: FakeOpenAIServer, bad: str) -> None:
    r = proxy.post(
        "/chat/completions",
        json={"model": "m", "messages": [{"role": "user", "content": "hi"}]},
        headers={"X-BME-Chat": bad},
    )
    assert r.status_code == 400 and "X-BME-Chat" in r.json()["error"]["message"]
    assert fake.requests_to("/chat/completions") == []


def test_the_user_field_names_the_chat_without_a_header(
    proxy: httpx.Client, service: MemoryService, fake: FakeOpenAIServer
) -> None:
    r = ask(proxy, [{"role": "user", "content": "hi"}], user="alice-story-1")
    assert r.headers["x-bme-chat"] == "alice-story-1"
    assert chat_ids(service) == ["alice-story-1"]
    assert fake.requests_to("/chat/completions")[0].json["user"] == "alice-story-1"  # still sent upstream


def test_without_either_the_chat_is_a_hash_of_its_start(
    proxy: httpx.Client, service: MemoryService, bridge: BridgeServer
) -> None:
    first = [SYSTEM, {"role": "user", "content": "Take me across the river."}]
    r = ask(proxy, first)
    chat = r.headers["x-bme-chat"]
    assert chat.startswith("proxy-") and len(chat) == len("proxy-") + 16
    assert chat == start_hash(first)
    wait_for(lambda: state_of(bridge).replies_synced == 1)
    later = [*first, {"role": "assistant", "content": "ok"}, {"role": "user", "content": "Faster, please."}]
    assert ask(proxy, later).headers["x-bme-chat"] == chat
    other = ask(proxy, [SYSTEM, {"role": "user", "content": "A different story."}]).headers["x-bme-chat"]
    assert other != chat
    other_prompt = ask(proxy, [{"role": "system", "content": "You are Mia."}, first[1]]).headers["x-bme-chat"]
    assert other_prompt not in (chat, other)
    assert len(chat_ids(service)) == 3
    assert len(stored(service, chat)) == 4


def test_the_hash_ignores_later_messages_and_content_shape() -> None:
    plain = [SYSTEM, {"role": "user", "content": "Hi"}]
    parts = [
        SYSTEM,
        {"role": "user", "content": [{"type": "text", "text": "Hi"}]},
        {"role": "assistant", "content": "Hello"},
        {"role": "user", "content": "More"},
    ]
    assert start_hash(plain) == start_hash(parts)
    assert start_hash([{"role": "user", "content": "Hi"}]) != start_hash(plain)


def test_continuity_keeps_a_conversation_whose_start_changed(
    proxy: httpx.Client, service: MemoryService, bridge: BridgeServer, fake: FakeOpenAIServer
) -> None:
    """An app that trims old messages (or rewrites its system prompt) changes the hash: the
    proxy still knows the conversation by the reply it delivered last."""
    history = [SYSTEM, {"role": "user", "content": "Take me across the river."}]
    fake.enqueue("Climb aboard.")
    chat = ask(proxy, history).headers["x-bme-chat"]
    wait_for(lambda: state_of(bridge).replies_synced == 1)
    trimmed = [
        {"role": "system", "content": "You are Sera. Today is Tuesday."},
        {"role": "user", "content": "Take me across the river."},
        {"role": "assistant", "content": "Climb aboard."},
        {"role": "user", "content": "Thank you."},
    ]
    r = ask(proxy, trimmed)
    assert r.headers["x-bme-chat"] == chat
    assert chat_ids(service) == [chat]


def test_identify_prefers_header_then_user_then_continuity_then_hash() -> None:
    turns_body = {
        "messages": [
            SYSTEM,
            {"role": "user", "content": "a"},
            {"role": "assistant", "content": "b"},
            {"role": "user", "content": "c"},
        ]
    }
    turns = conversation(turns_body["messages"])
    memory = Continuity()
    assert identify({}, turns_body, turns, memory).source == "hash"
    memory.remember("a", " b ", "known-chat")
    assert identify({}, turns_body, turns, memory).chat_id == "known-chat"
    assert identify({}, {**turns_body, "user": "u1"}, turns, memory).chat_id == "u1"
    assert identify({"X-BME-Chat": "h"}, {**turns_body, "user": "u1"}, turns, memory).chat_id == "h"
    assert identify({}, {**turns_body, "user": ""}, turns, None).source == "hash"
    assert identify({}, {**turns_body, "user": 42}, turns, None).source == "hash"


def test_continuity_is_bounded() -> None:
    memory = Continuity(size=3)
    for n in range(5):
        memory.remember(f"q{n}", f"a{n}", f"chat{n}")
    turns = conversation(
        [
            {"role": "user", "content": "q0"},
            {"role": "assistant", "content": "a0"},
            {"role": "user", "content": "next"},
        ]
    )
    assert memory.find(turns) is None
    turns = conversation(
        [
            {"role": "user", "content": "q4"},
            {"role": "assistant", "content": "a4"},
            {"role": "user", "content": "next"},
        ]
    )
    assert memory.find(turns) == "chat4"


def test_raw_utf8_in_the_header_names_the_same_chat_and_invalid_bytes_are_a_400(
    proxy: httpx.Client, service: MemoryService
) -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    r = proxy.post("/chat/completions", json=body, headers=[("X-BME-Chat", "故事".encode())])
    assert r.status_code == 200 and r.headers["x-bme-chat"] == "%E6%95%85%E4%BA%8B"
    assert chat_ids(service) == ["故事"]
    r = proxy.post("/chat/completions", json=body, headers=[("X-BME-Chat", b"\xff\xfestory")])
    assert r.status_code == 400 and "not valid UTF-8" in r.json()["error"]["message"]
