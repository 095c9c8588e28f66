"""Proxy mode for memory jobs: the proxy's upstream, with the proxy's key and the model the last
chat request named, extracts the chat when ``llm.use_proxy_upstream`` allows it (off by
default), and the batch says "proxy upstream (…)". Real bridge, fake OpenAI upstream."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace

import httpx
import pytest
from fakes.openai_server import FakeOpenAIServer, Reply

from bme_desktop.bridge.proxy.upstream import HOP
from bme_desktop.bridge.server import BridgeServer
from bme_desktop.core.extract.scheduler import attach
from bme_desktop.core.service import MemoryService
from bme_desktop.core.settings import ProxySettings

from .conftest import wait_for

CHAT = {"X-BME-Chat": "ferry"}
EXTRACTION = json.dumps(
    {
        "operations": [
            {
                "action": "create",
                "type": "location",
                "ref": "n1",
                "fields": {"name": "Old Mill"},
                "source": [0],
            }
        ]
    }
)


@pytest.fixture(autouse=True)
def _proxy_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BME_PROXY_UPSTREAM_KEY", "sk-proxy")


def _answers(request: dict[str, object]) -> Reply | str:
    """The upstream: memory jobs (their system prompt asks for JSON) get an extraction; chats a line."""
    system = str(request["messages"][0].get("content", ""))  # type: ignore[index]
    return Reply.text(EXTRACTION) if "JSON" in system else "I will look near the mill."


def _chat_once(proxy: httpx.Client, model: str) -> None:
    body = {
        "model": model,
        "messages": [{"role": "user", "content": "I lost my silver key near the Old Mill."}],
    }
    assert proxy.post("/chat/completions", json=body, headers=CHAT).status_code == 200


def _extract_batches(service: MemoryService) -> list[tuple[str, str]]:
    return [
        (b.actor, b.description or "") for b in service.read(lambda r: r.batches("ferry", kind="extract"))
    ]


def test_with_proxy_mode_allowed_the_upstream_extracts_and_the_batch_says_so(
    service: MemoryService,
    bridge: BridgeServer,
    proxy: httpx.Client,
    fake: FakeOpenAIServer,
    configure: Callable[..., ProxySettings],
) -> None:
    configure(model_map=["sera=upstream-large"])
    service.settings.llm = replace(service.settings.llm, use_proxy_upstream=True)
    fake.responder = _answers
    attach(service)
    _chat_once(proxy, "sera")
    batches = wait_for(lambda: _extract_batches(service))
    service.extraction.schedule("ferry").wait(30)
    batches = _extract_batches(service)
    assert batches[0][0] == "llm" and batches[0][1].endswith("by proxy upstream (upstream-large)")
    assert [n.fields.get("name") for n in service.all_nodes("ferry")] == ["Old Mill"]
    job = next(r for r in fake.requests_to("/chat/completions") if "JSON" in r.json["messages"][0]["content"])
    assert job.json["model"] == "upstream-large"  # the mapped model the chat used
    assert job.headers["authorization"] == "Bearer sk-proxy" and job.headers[HOP.lower()] == "1"
    assert job.json["max_tokens"] == service.settings.llm.lent_max_tokens


def test_proxy_mode_is_off_by_default(
    service: MemoryService, bridge: BridgeServer, proxy: httpx.Client, fake: FakeOpenAIServer
) -> None:
    fake.responder = _answers
    attach(service)
    _chat_once(proxy, "fake-chat")
    wait_for(lambda: _extract_batches(service))
    service.extraction.schedule("ferry").wait(30)
    assert {actor for actor, _ in _extract_batches(service)} == {"heuristic"}
    assert all("JSON" not in r.json["messages"][0]["content"] for r in fake.requests_to("/chat/completions"))


def test_before_any_chat_request_the_proxy_has_no_model_to_lend(
    service: MemoryService, bridge: BridgeServer, configure: Callable[..., ProxySettings]
) -> None:
    service.settings.llm = replace(service.settings.llm, use_proxy_upstream=True)
    assert service.lenders.borrow(service.settings.llm, "extract") is None


def test_an_upstream_that_breaks_mid_job_falls_back_to_the_rules(
    service: MemoryService, bridge: BridgeServer, proxy: httpx.Client, fake: FakeOpenAIServer
) -> None:
    service.settings.llm = replace(service.settings.llm, use_proxy_upstream=True, max_retries=0)
    fake.responder = lambda request: (
        Reply.drop()
        if "JSON" in str(request["messages"][0].get("content"))  # type: ignore[index]
        else Reply.text("I will look near the mill.")
    )
    attach(service)
    _chat_once(proxy, "fake-chat")
    wait_for(lambda: _extract_batches(service))
    service.extraction.schedule("ferry").wait(30)
    actor, description = _extract_batches(service)[0]
    assert actor == "heuristic" and "fallback: proxy upstream (fake-chat) failed" in description
