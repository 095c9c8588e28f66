"""The official ``openai`` Python client pointed at the proxy, as a user's app would be:
base_url = the bridge's /v1, api_key = the bridge token. Needs the test extra ``openai``."""

from __future__ import annotations

import pytest
from fakes.openai_server import FakeOpenAIServer, Reply

from bme_desktop.bridge.server import BridgeServer
from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.service import MemoryService

from ..helpers import TOKEN
from .conftest import sent_messages, state_of, stored, wait_for

openai = pytest.importorskip(
    "openai",
    reason="the `openai` package is not installed: `.venv/bin/pip install openai` runs this test",
    exc_type=ImportError,
)


@pytest.fixture
def client(bridge: BridgeServer, proxy: object) -> openai.OpenAI:
    return openai.OpenAI(base_url=bridge.url + "/v1", api_key=TOKEN, max_retries=0, timeout=30)


def test_the_openai_client_chats_streams_and_lists_models_through_the_proxy(
    client: openai.OpenAI, fake: FakeOpenAIServer, service: MemoryService, bridge: BridgeServer
) -> None:
    chat = {"X-BME-Chat": "sdk"}
    history = [
        {"role": "system", "content": "You are Sera."},
        {"role": "user", "content": "I hid the silver key under the mill."},
    ]
    fake.enqueue("Noted.")
    done = client.chat.completions.create(model="fake-chat", messages=history, extra_headers=chat)
    assert done.choices[0].message.content == "Noted."
    wait_for(lambda: state_of(bridge).replies_synced == 1)
    service.create_node(
        "sdk", NodeDraft(type="event", fields={"summary": "Alex hid the silver key under the mill"})
    )

    history += [
        {"role": "assistant", "content": "Noted."},
        {"role": "user", "content": "Where is the silver key?"},
    ]
    fake.enqueue(Reply.text("Under the mill, where you hid it.", chunk_size=3))
    stream = client.chat.completions.create(
        model="fake-chat", messages=history, stream=True, extra_headers=chat
    )
    text = "".join(chunk.choices[0].delta.content or "" for chunk in stream if chunk.choices)
    assert text == "Under the mill, where you hid it."
    assert any(
        "hid the silver key" in str(m["content"]) and m["role"] == "system" for m in sent_messages(fake)
    )
    wait_for(lambda: state_of(bridge).replies_synced == 2)
    assert stored(service, "sdk")[-1] == (3, "assistant", "Under the mill, where you hid it.")

    assert [m.id for m in client.models.list()] == ["fake-chat", "fake-embed"]


def test_the_openai_client_sees_upstream_errors_as_its_own_exceptions(
    client: openai.OpenAI, fake: FakeOpenAIServer
) -> None:
    fake.enqueue(Reply.error(429, "slow down", retry_after=1))
    with pytest.raises(openai.RateLimitError, match="slow down"):
        client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}])
    fake.enqueue(Reply.text("cut", chunk_size=1, abort_after=1))
    with pytest.raises(openai.APIError, match="broke mid-answer"):
        for _ in client.chat.completions.create(
            model="m", messages=[{"role": "user", "content": "hi"}], stream=True
        ):
            pass


def test_the_openai_client_with_a_wrong_key_is_refused(bridge: BridgeServer, proxy: object) -> None:
    wrong = openai.OpenAI(base_url=bridge.url + "/v1", api_key="sk-not-the-token", max_retries=0)
    with pytest.raises(openai.AuthenticationError):
        wrong.models.list()
