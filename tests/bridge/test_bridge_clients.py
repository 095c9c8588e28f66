"""The bridge keeps track of its clients: who sent authenticated requests, how many, for what,
whether an events socket is open; refused attempts apart; idle clients forgotten."""

from __future__ import annotations

import asyncio
import time

import aiohttp
import httpx
import pytest

from bme_desktop.bridge.clients import SILLYTAVERN, ClientRegistry, first_product, identify, path_kind
from bme_desktop.bridge.server import BridgeServer

from .helpers import AUTH, TOKEN, messages

PAGE = "http://127.0.0.1:8000"


def wait_for(condition: object, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if callable(condition) and condition():
            return
        time.sleep(0.02)
    raise AssertionError("condition not met in time")


def test_authenticated_requests_register_a_client_with_its_origin_count_and_kind(
    bridge: BridgeServer,
) -> None:
    headers = {**AUTH, "Origin": PAGE, "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0"}
    with httpx.Client(base_url=bridge.url, headers=headers, timeout=30) as client:
        assert client.get("/v1/chats").status_code == 200
        assert client.post("/v1/chats/c/sync", json={"messages": messages(2)}).status_code == 200
    [info] = bridge.clients()
    assert info.identity.origin == PAGE and info.identity.address == "127.0.0.1"
    assert info.identity.agent == "Mozilla" and info.label == f"{PAGE} · Mozilla"
    assert info.requests == 2 and info.last_kind == "sync"
    assert not info.events_open
    assert info.first_seen <= info.last_seen


def test_a_sillytavern_user_agent_is_named_as_the_extension(bridge: BridgeServer) -> None:
    headers = {**AUTH, "User-Agent": "SillyTavern/1.12.4"}
    assert httpx.get(f"{bridge.url}/v1/chats", headers=headers).status_code == 200
    assert [c.label for c in bridge.clients()] == [SILLYTAVERN]


def test_a_browser_extension_names_itself_with_x_bme_client(bridge: BridgeServer) -> None:
    headers = {
        **AUTH,
        "User-Agent": "Mozilla/5.0 (X11) Chrome/126",
        "Origin": "http://127.0.0.1:8000",
        "X-BME-Client": "SillyTavern-extension/0.1.0",
    }
    assert httpx.get(f"{bridge.url}/v1/chats", headers=headers).status_code == 200
    assert [c.label for c in bridge.clients()] == [SILLYTAVERN]


def test_a_preflight_allows_the_x_bme_client_header(bridge: BridgeServer) -> None:
    r = httpx.options(
        f"{bridge.url}/v1/chats",
        headers={
            "Origin": "http://127.0.0.1:8000",
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "authorization, x-bme-client",
        },
    )
    assert "x-bme-client" in r.headers["Access-Control-Allow-Headers"].lower()


def test_different_origins_are_different_clients(api: httpx.Client, bridge: BridgeServer) -> None:
    api.get("/v1/chats", headers={"Origin": PAGE})
    api.get("/v1/chats", headers={"Origin": "http://localhost:5001"})
    assert sorted(c.identity.origin for c in bridge.clients()) == sorted([PAGE, "http://localhost:5001"])


def test_a_wrong_token_is_not_a_connected_client_but_is_counted_as_refused(bridge: BridgeServer) -> None:
    wrong = {"Authorization": "Bearer nope", "Origin": PAGE}
    for _ in range(2):
        assert httpx.get(f"{bridge.url}/v1/chats", headers=wrong).status_code == 401
    assert httpx.get(f"{bridge.url}/v1/health").status_code == 200  # public: nobody to count
    assert bridge.clients() == []
    [refused] = bridge.context.clients.refused_snapshot()
    assert refused.identity.origin == PAGE and refused.requests == 2


def test_a_refusal_is_dropped_once_that_client_gets_in(bridge: BridgeServer) -> None:
    httpx.get(f"{bridge.url}/v1/chats", headers={"Authorization": "Bearer nope"})
    httpx.get(f"{bridge.url}/v1/chats", headers=AUTH)
    assert bridge.context.clients.refused_snapshot() == []
    assert len(bridge.clients()) == 1


def test_an_open_events_socket_shows_and_closing_it_clears_the_flag(bridge: BridgeServer) -> None:
    url = bridge.url.replace("http", "ws", 1) + "/v1/events"

    async def run() -> None:
        async with (
            aiohttp.ClientSession() as session,
            session.ws_connect(url, headers={"Origin": PAGE}) as ws,
        ):
            await ws.send_json({"token": TOKEN})  # as a browser does
            assert (await ws.receive_json(timeout=10))["type"] == "hello"
            [info] = bridge.clients()
            assert info.events_open and info.last_kind == "events" and info.identity.origin == PAGE

    asyncio.run(run())
    wait_for(lambda: not bridge.clients()[0].events_open)
    assert bridge.clients()[0].requests == 1


def test_a_socket_with_a_wrong_first_message_token_is_refused_not_connected(bridge: BridgeServer) -> None:
    url = bridge.url.replace("http", "ws", 1) + "/v1/events"

    async def run() -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
            await ws.send_json({"token": "wrong"})
            await ws.receive(timeout=10)

    asyncio.run(run())
    assert bridge.clients() == []
    assert [r.last_kind for r in bridge.context.clients.refused_snapshot()] == ["events"]


def test_get_clients_lists_them_as_json(api: httpx.Client) -> None:
    api.get("/v1/chats", headers={"Origin": PAGE, "User-Agent": "curl/8.5"})
    body = api.get("/v1/clients", headers={"Origin": PAGE, "User-Agent": "curl/8.5"}).json()
    [client] = body["clients"]
    assert client["who"] == f"{PAGE} · curl" and client["origin"] == PAGE and client["agent"] == "curl"
    assert client["requests"] == 2 and client["last_kind"] == "clients" and client["events"] is False
    assert client["last_seen"].endswith("Z") and body["refused"] == []


def test_get_clients_needs_the_token(anon: httpx.Client) -> None:
    assert anon.get("/v1/clients").status_code == 401


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def test_idle_clients_are_forgotten_after_the_idle_time() -> None:
    clock = FakeClock()
    registry = ClientRegistry(clock=clock, forget_after_s=600)
    quiet, busy = identify("127.0.0.1", PAGE, None), identify("127.0.0.1", "", "python-httpx/0.27")
    registry.seen(quiet, "recall")
    clock.now += 300
    registry.seen(busy, "sync")
    clock.now += 301
    [info] = registry.snapshot()
    assert info.identity == busy and info.idle_s == pytest.approx(301)


def test_a_client_with_an_open_socket_is_kept_however_idle_and_forgotten_after_closing() -> None:
    clock = FakeClock()
    registry = ClientRegistry(clock=clock, forget_after_s=600)
    who = identify("127.0.0.1", PAGE, None)
    registry.socket_opened(who)
    clock.now += 3_600
    assert [i.events_open for i in registry.snapshot()] == [True]
    registry.socket_closed(who)
    clock.now += 599
    assert [i.events_open for i in registry.snapshot()] == [False]
    clock.now += 2
    assert registry.snapshot() == []


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("/v1/chats/c/sync", "sync"),
        ("/v1/chats/c/recall", "recall"),
        ("/v1/chats/c/recall/prepare", "prepare"),
        ("/v1/chats/c/recall/3", "kept recall"),
        ("/v1/chats/c/nodes/n1", "memories"),
        ("/v1/chats", "chats"),
        ("/v1/chats/c", "chats"),
        ("/v1/chat/completions", "proxy"),
        ("/v1/nowhere", "other"),
    ],
)
def test_a_requests_kind_comes_from_its_path(path: str, kind: str) -> None:
    assert path_kind(path) == kind


def test_the_agent_is_the_user_agents_first_product_name() -> None:
    assert first_product("Mozilla/5.0 (X11; Linux) Chrome/126") == "Mozilla"
    assert first_product("python-httpx/0.27.0") == "python-httpx"
    assert first_product(None) == "" and first_product("   ") == ""
