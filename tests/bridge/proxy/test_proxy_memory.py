"""What the proxy does with memory: the request's conversation becomes the chat's messages,
the recalled memory is inserted where the settings say (and never stored), and a finished
reply is synced back as the next message."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from fakes.openai_server import FakeOpenAIServer, Reply

from bme_desktop.bridge.server import BridgeServer
from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.events import Event
from bme_desktop.core.recall.injection import HEADER as MEMORY_HEADER_LINE
from bme_desktop.core.service import MemoryService
from bme_desktop.core.settings import ProxySettings

from .conftest import sent_messages, state_of, stored, wait_for

SYSTEM = {"role": "system", "content": "You are Sera, a ferrywoman."}
CHAT = {"X-BME-Chat": "ferry"}


def turn(
    proxy: httpx.Client,
    messages: list[dict[str, Any]],
    *,
    stream: bool = False,
    headers: dict[str, str] | None = None,
) -> httpx.Response:
    body = {"model": "fake-chat", "messages": messages, "stream": stream}
    if not stream:
        return proxy.post("/chat/completions", json=body, headers=headers or CHAT)
    with proxy.stream("POST", "/chat/completions", json=body, headers=headers or CHAT) as r:
        r.read()
    return r


@pytest.fixture
def synced_events(service: MemoryService) -> Iterator[list[dict[str, Any]]]:
    seen: list[dict[str, Any]] = []

    def on(event: Event) -> None:
        if event.type == "chat.synced":
            seen.append({"chat_id": event.chat_id, **event.data})

    unsubscribe = service.events.subscribe(on)
    yield seen
    unsubscribe()


@pytest.fixture
def remembered(proxy: httpx.Client, fake: FakeOpenAIServer, service: MemoryService) -> list[dict[str, Any]]:
    """A chat 'ferry' with two turns and one memory about the silver key."""
    history = [SYSTEM, {"role": "user", "content": "I lost my silver key near the mill."}]
    fake.enqueue("I will help you look for it.")
    assert turn(proxy, history).status_code == 200
    history.append({"role": "assistant", "content": "I will help you look for it."})
    service.create_node(
        "ferry",
        NodeDraft(
            type="event", fields={"summary": "Alex lost the silver key near the mill"}, source_indices=[0]
        ),
    )
    return history


def memory_positions(messages: list[dict[str, Any]]) -> list[int]:
    return [i for i, m in enumerate(messages) if MEMORY_HEADER_LINE in str(m.get("content"))]


def test_the_conversation_is_synced_without_system_messages(
    proxy: httpx.Client, service: MemoryService, fake: FakeOpenAIServer
) -> None:
    fake.enqueue("Welcome aboard.")
    messages = [
        SYSTEM,
        {"role": "assistant", "content": "The ferry waits."},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Take me across."},
                {"type": "image_url", "image_url": {"url": "data:,"}},
            ],
        },
        {"role": "system", "content": "[Stay in character]"},
        {"role": "tool", "content": "tool output", "tool_call_id": "t1"},
        {"role": "user", "content": "  Please.  ", "name": "Alex"},
    ]
    r = turn(proxy, messages)
    assert r.status_code == 200 and r.headers["x-bme-chat"] == "ferry"
    wait_for(lambda: len(stored(service, "ferry")) == 4)
    assert stored(service, "ferry") == [
        (0, "assistant", "The ferry waits."),
        (1, "user", "Take me across."),
        (2, "user", "Please."),
        (3, "assistant", "Welcome aboard."),
    ]
    assert service.messages("ferry")[2].name == "Alex"


def test_the_memory_goes_just_before_the_last_user_message_by_default(
    proxy: httpx.Client, fake: FakeOpenAIServer, remembered: list[dict[str, Any]]
) -> None:
    messages = [*remembered, {"role": "user", "content": "Where did I lose my silver key?"}]
    r = turn(proxy, messages)
    assert r.headers["x-bme-memory"] == "injected"
    sent = sent_messages(fake)
    assert memory_positions(sent) == [3]
    assert sent[3]["role"] == "system" and "silver key near the mill" in sent[3]["content"]
    assert sent[4] == messages[-1]
    assert [m for i, m in enumerate(sent) if i != 3] == messages


@pytest.mark.parametrize(("depth", "where"), [(0, 3), (1, 2), (2, 1), (50, 1)])
def test_injection_depth_counts_back_from_the_last_user_message(
    proxy: httpx.Client,
    fake: FakeOpenAIServer,
    remembered: list[dict[str, Any]],
    configure: Callable[..., ProxySettings],
    depth: int,
    where: int,
) -> None:
    configure(upstream_base_url=fake.base_url, injection_depth=depth)
    messages = [*remembered, {"role": "user", "content": "Where did I lose my silver key?"}]
    turn(proxy, messages)
    assert memory_positions(sent_messages(fake)) == [where]  # never above the system prompt


def test_injection_depth_counts_from_the_last_user_message_even_with_a_trailing_system_note(
    proxy: httpx.Client, fake: FakeOpenAIServer, remembered: list[dict[str, Any]]
) -> None:
    messages = [
        *remembered,
        {"role": "user", "content": "Where is the silver key?"},
        {"role": "system", "content": "[Write one paragraph.]"},
    ]
    turn(proxy, messages)
    sent = sent_messages(fake)
    assert memory_positions(sent) == [3] and sent[-1] == messages[-1]


def test_mode_first_system_appends_to_the_system_prompt(
    proxy: httpx.Client,
    fake: FakeOpenAIServer,
    remembered: list[dict[str, Any]],
    configure: Callable[..., ProxySettings],
) -> None:
    configure(upstream_base_url=fake.base_url, injection_mode="first_system")
    messages = [*remembered, {"role": "user", "content": "Where did I lose my silver key?"}]
    turn(proxy, messages)
    sent = sent_messages(fake)
    assert len(sent) == len(messages) and memory_positions(sent) == [0]
    assert sent[0]["content"].startswith(SYSTEM["content"] + "\n\n")


def test_mode_user_puts_the_memory_in_front_of_the_last_user_message(
    proxy: httpx.Client,
    fake: FakeOpenAIServer,
    remembered: list[dict[str, Any]],
    configure: Callable[..., ProxySettings],
    service: MemoryService,
) -> None:
    configure(upstream_base_url=fake.base_url, injection_mode="user")
    messages = [*remembered, {"role": "user", "content": "Where did I lose my silver key?"}]
    turn(proxy, messages)
    sent = sent_messages(fake)
    assert len(sent) == len(messages) and memory_positions(sent) == [3]
    assert sent[3]["content"].endswith("\n\nWhere did I lose my silver key?")
    wait_for(lambda: len(stored(service, "ferry")) == 4)
    assert stored(service, "ferry")[2] == (2, "user", "Where did I lose my silver key?")


def test_the_injected_memory_is_never_stored(
    proxy: httpx.Client, fake: FakeOpenAIServer, service: MemoryService, remembered: list[dict[str, Any]]
) -> None:
    messages = [*remembered, {"role": "user", "content": "Where did I lose my silver key?"}]
    fake.enqueue("By the mill.")
    turn(proxy, messages)
    messages.append({"role": "assistant", "content": "By the mill."})
    turn(proxy, [*messages, {"role": "user", "content": "Thanks!"}])
    wait_for(lambda: len(stored(service, "ferry")) == 6)
    assert all(MEMORY_HEADER_LINE not in text for _, _, text in stored(service, "ferry"))


def test_the_recall_is_kept_for_the_last_user_message(
    proxy: httpx.Client, service: MemoryService, remembered: list[dict[str, Any]]
) -> None:
    turn(proxy, [*remembered, {"role": "user", "content": "Where did I lose my silver key?"}])
    record = service.recall_record("ferry", 2)
    assert record is not None and "silver key" in record.injection
    assert record.user_input == "Where did I lose my silver key?"


@pytest.mark.parametrize("stream", [False, True])
def test_a_finished_reply_is_synced_back_and_the_next_turn_rolls_nothing_back(
    proxy: httpx.Client,
    fake: FakeOpenAIServer,
    service: MemoryService,
    bridge: BridgeServer,
    synced_events: list[dict[str, Any]],
    stream: bool,
) -> None:
    history = [SYSTEM, {"role": "user", "content": "Hello."}]
    fake.enqueue(Reply.text("  Welcome to the ferry, traveller.\n"))
    r = turn(proxy, history, stream=stream)
    assert r.status_code == 200
    wait_for(lambda: state_of(bridge).replies_synced == 1)
    assert stored(service, "ferry") == [
        (0, "user", "Hello."),
        (1, "assistant", "Welcome to the ferry, traveller."),
    ]
    # The app sends the reply back with the next user message (trimmed, as apps show it).
    history += [
        {"role": "assistant", "content": "Welcome to the ferry, traveller."},
        {"role": "user", "content": "How much is the fare?"},
    ]
    fake.enqueue("One true secret.")
    turn(proxy, history, stream=stream)
    wait_for(lambda: state_of(bridge).replies_synced == 2)
    assert [e["changed_from"] for e in synced_events] == [None, None, None, None]
    assert [m[2] for m in stored(service, "ferry")] == [
        "Hello.",
        "Welcome to the ferry, traveller.",
        "How much is the fare?",
        "One true secret.",
    ]


def test_a_stream_that_never_finished_is_not_synced_back(
    proxy: httpx.Client, fake: FakeOpenAIServer, service: MemoryService, bridge: BridgeServer
) -> None:
    fake.enqueue(Reply.text("an answer cut short by the server", chunk_size=4, truncate_after=2))
    turn(proxy, [SYSTEM, {"role": "user", "content": "Hello."}], stream=True)
    fake.enqueue(Reply.error(500, "no"))
    turn(proxy, [SYSTEM, {"role": "user", "content": "Hello."}], stream=True)
    assert stored(service, "ferry") == [(0, "user", "Hello.")]
    assert state_of(bridge).replies_synced == 0


def test_a_continue_request_is_not_synced_back_as_a_new_message(
    proxy: httpx.Client, fake: FakeOpenAIServer, service: MemoryService
) -> None:
    fake.enqueue(" and then the river.")
    turn(
        proxy,
        [
            SYSTEM,
            {"role": "user", "content": "Tell me a story."},
            {"role": "assistant", "content": "Once there was a ferry"},
        ],
    )
    assert stored(service, "ferry") == [
        (0, "user", "Tell me a story."),
        (1, "assistant", "Once there was a ferry"),
    ]


def test_a_regenerated_reply_replaces_the_old_one(
    proxy: httpx.Client, fake: FakeOpenAIServer, service: MemoryService, bridge: BridgeServer
) -> None:
    history = [SYSTEM, {"role": "user", "content": "Hello."}]
    fake.enqueue("First try.")
    turn(proxy, history)
    wait_for(lambda: state_of(bridge).replies_synced == 1)
    fake.enqueue("Second try.")
    turn(proxy, history)  # the app dropped "First try." and asked again
    wait_for(lambda: state_of(bridge).replies_synced == 2)
    assert stored(service, "ferry") == [(0, "user", "Hello."), (1, "assistant", "Second try.")]


def test_a_window_trimmed_by_the_app_extends_the_chat_instead_of_replacing_it(
    proxy: httpx.Client,
    fake: FakeOpenAIServer,
    service: MemoryService,
    bridge: BridgeServer,
    synced_events: list[dict[str, Any]],
) -> None:
    history: list[dict[str, Any]] = [SYSTEM]
    for n in range(4):
        history.append({"role": "user", "content": f"Question {n}?"})
        fake.enqueue(f"Answer {n}.")
        turn(proxy, history)
        wait_for(lambda n=n: state_of(bridge).replies_synced == n + 1)
        history.append({"role": "assistant", "content": f"Answer {n}."})
    assert len(stored(service, "ferry")) == 8
    # The app keeps only its system prompt and the last three messages.
    window = [SYSTEM, *history[-3:], {"role": "user", "content": "Question 4?"}]
    fake.enqueue("Answer 4.")
    turn(proxy, window)
    wait_for(lambda: state_of(bridge).replies_synced == 5)
    assert [t for _, _, t in stored(service, "ferry")] == [
        "Question 0?",
        "Answer 0.",
        "Question 1?",
        "Answer 1.",
        "Question 2?",
        "Answer 2.",
        "Question 3?",
        "Answer 3.",
        "Question 4?",
        "Answer 4.",
    ]
    assert all(e["changed_from"] is None for e in synced_events)
    assert service.recall_record("ferry", 8) is not None
    # A regenerate in the trimmed window removes the stale reply at the end, nothing before it.
    fake.enqueue("Answer 4, again.")
    turn(proxy, window)
    wait_for(lambda: state_of(bridge).replies_synced == 6)
    assert [t for _, _, t in stored(service, "ferry")][-3:] == [
        "Answer 3.",
        "Question 4?",
        "Answer 4, again.",
    ]
    assert len(stored(service, "ferry")) == 10


def test_an_edited_first_message_replaces_the_history_from_there(
    proxy: httpx.Client, fake: FakeOpenAIServer, service: MemoryService, bridge: BridgeServer
) -> None:
    turn(
        proxy,
        [
            SYSTEM,
            {"role": "user", "content": "Hello."},
            {"role": "assistant", "content": "Hi."},
            {"role": "user", "content": "Bye."},
        ],
    )
    wait_for(lambda: state_of(bridge).replies_synced == 1)
    turn(proxy, [SYSTEM, {"role": "user", "content": "Good evening."}])
    wait_for(lambda: state_of(bridge).replies_synced == 2)
    assert stored(service, "ferry") == [(0, "user", "Good evening."), (1, "assistant", "ok")]


def test_only_system_messages_store_nothing(proxy: httpx.Client, service: MemoryService) -> None:
    r = turn(proxy, [SYSTEM])
    assert r.status_code == 200 and not service.has_chat("ferry")


def test_a_failing_memory_never_blocks_the_chat(
    proxy: httpx.Client,
    fake: FakeOpenAIServer,
    service: MemoryService,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("database on fire")

    monkeypatch.setattr(service, "sync", broken)
    messages = [SYSTEM, {"role": "user", "content": "Hello."}]
    r = turn(proxy, messages)
    assert r.status_code == 200 and r.headers["x-bme-memory"] == "error"
    assert sent_messages(fake) == messages
    assert "answering without memory" in caplog.text


def test_a_lone_surrogate_is_forwarded_and_stored_as_the_replacement_character(
    proxy: httpx.Client, fake: FakeOpenAIServer, service: MemoryService
) -> None:
    fake.enqueue("Welcome aboard.")
    body = (
        '{"model": "fake-chat", "messages": [{"role": "user", "content": "Take me across \\ud83d '
        'and \\ud83d\\ude00"}]}'
    )
    r = proxy.post(
        "/chat/completions",
        content=body.encode("ascii"),
        headers={**CHAT, "Content-Type": "application/json"},
    )
    assert r.status_code == 200, r.text
    assert sent_messages(fake)[-1]["content"] == "Take me across \ufffd and \U0001f600"
    wait_for(lambda: len(stored(service, "ferry")) == 2)
    assert stored(service, "ferry")[0] == (0, "user", "Take me across \ufffd and \U0001f600")
