"""Fixtures for the OpenAI-compatible proxy: a fake upstream, a bridge pointed at it, and an
HTTP client on the bridge's ``/v1`` with the bridge token as the API key."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import httpx
import pytest
from fakes.openai_server import FakeOpenAIServer

from bme_desktop.bridge.proxy import PROXY, ProxyState
from bme_desktop.bridge.server import BridgeServer
from bme_desktop.core.service import MemoryService
from bme_desktop.core.settings import ProxySettings

from ..helpers import AUTH


@pytest.fixture(autouse=True)
def _no_upstream_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BME_PROXY_UPSTREAM_KEY", raising=False)


@pytest.fixture
def fake() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as server:
        yield server


@pytest.fixture
def configure(service: MemoryService, fake: FakeOpenAIServer) -> Callable[..., ProxySettings]:
    """Change the proxy settings of the running service (read on every request)."""

    def apply(**changes: Any) -> ProxySettings:
        service.settings.proxy = replace(ProxySettings(upstream_base_url=fake.base_url), **changes)
        return service.settings.proxy

    apply()
    return apply


@pytest.fixture
def proxy(bridge: BridgeServer, configure: Callable[..., ProxySettings]) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=bridge.url + "/v1", headers=AUTH, timeout=30) as client:
        yield client


def state_of(bridge: BridgeServer) -> ProxyState:
    """The proxy's state inside the running bridge app."""
    runner = bridge._runner
    assert runner is not None
    return runner.app[PROXY]


def wait_for(condition: Callable[[], Any], timeout: float = 10.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(0.02)


def stored(service: MemoryService, chat_id: str) -> list[tuple[int, str, str]]:
    if not service.has_chat(chat_id):
        return []
    return [(m.index, m.role, m.text) for m in service.messages(chat_id)]


def sent_messages(server: FakeOpenAIServer, n: int = -1) -> list[dict[str, Any]]:
    """The messages the upstream received in its n-th chat request."""
    return list(server.requests_to("/chat/completions")[n].json["messages"])
