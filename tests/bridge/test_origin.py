"""Only loopback (or listed) origins are served; preflights answer allowed origins only."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest

from bme_desktop.bridge.origin import OriginPolicy
from bme_desktop.bridge.server import BridgeServer
from bme_desktop.core.service import MemoryService

from .helpers import AUTH


@pytest.fixture
def service(shared_bridge: tuple[MemoryService, BridgeServer]) -> MemoryService:
    return shared_bridge[0]


@pytest.fixture
def bridge(shared_bridge: tuple[MemoryService, BridgeServer]) -> BridgeServer:
    return shared_bridge[1]


@pytest.mark.parametrize(
    "origin",
    [
        "http://127.0.0.1:8000",
        "http://localhost:8000",
        "https://localhost",
        "http://[::1]:8000",
        "http://LOCALHOST:1",
    ],
)
def test_loopback_origins_are_served_with_cors_headers(api: httpx.Client, origin: str) -> None:
    r = api.get("/v1/chats", headers={"Origin": origin})
    assert r.status_code == 200
    assert r.headers["Access-Control-Allow-Origin"] == origin
    assert "Origin" in r.headers["Vary"]


@pytest.mark.parametrize(
    "origin",
    [
        "https://evil.example",
        "http://127.0.0.1.evil.example",
        "null",
        "file://",
        "http://localhost.evil.example:8000",
        "chrome-extension://abc",
    ],
)
def test_foreign_origins_are_refused_with_403(api: httpx.Client, origin: str) -> None:
    r = api.get("/v1/chats", headers={"Origin": origin})
    assert r.status_code == 403
    assert r.json()["error"]["code"] == "forbidden"
    assert "Origin" in r.json()["error"]["message"]


def test_a_foreign_origin_is_refused_even_on_health(anon: httpx.Client) -> None:
    assert anon.get("/v1/health", headers={"Origin": "https://evil.example"}).status_code == 403


def test_preflight_for_an_allowed_origin_grants_private_network(anon: httpx.Client) -> None:
    r = anon.options(
        "/v1/chats/c/sync",
        headers={
            "Origin": "http://localhost:8000",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type",
            "Access-Control-Request-Private-Network": "true",
        },
    )
    assert r.status_code == 204
    assert r.headers["Access-Control-Allow-Origin"] == "http://localhost:8000"
    assert r.headers["Access-Control-Allow-Private-Network"] == "true"
    assert "POST" in r.headers["Access-Control-Allow-Methods"]
    assert "authorization" in r.headers["Access-Control-Allow-Headers"].lower()


def test_preflight_allows_the_proxy_headers_of_openai_clients(anon: httpx.Client) -> None:
    r = anon.options(
        "/v1/chat/completions",
        headers={
            "Origin": "http://localhost:8000",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, x-bme-chat, x-stainless-os, x-evil",
        },
    )
    allowed = {h.strip() for h in r.headers["Access-Control-Allow-Headers"].lower().split(",")}
    assert allowed == {"authorization", "x-bme-chat", "x-stainless-os"}


def test_preflight_without_private_network_request_does_not_grant_it(anon: httpx.Client) -> None:
    r = anon.options(
        "/v1/chats", headers={"Origin": "http://localhost:8000", "Access-Control-Request-Method": "GET"}
    )
    assert r.status_code == 204
    assert "Access-Control-Allow-Private-Network" not in r.headers


def test_preflight_for_a_foreign_origin_is_refused(anon: httpx.Client) -> None:
    r = anon.options(
        "/v1/chats",
        headers={
            "Origin": "https://evil.example",
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Private-Network": "true",
        },
    )
    assert r.status_code == 403
    assert "Access-Control-Allow-Origin" not in r.headers
    assert "Access-Control-Allow-Private-Network" not in r.headers


def test_error_answers_carry_cors_headers_so_pages_can_read_them(anon: httpx.Client) -> None:
    r = anon.get("/v1/chats", headers={"Origin": "http://localhost:8000"})
    assert r.status_code == 401
    assert r.headers["Access-Control-Allow-Origin"] == "http://localhost:8000"


def test_allow_listed_origin_is_served(make_bridge: Callable[..., BridgeServer]) -> None:
    server = make_bridge(allowed_origins=("http://192.168.1.20:8000",))
    with httpx.Client(base_url=server.url, headers=AUTH) as client:
        assert client.get("/v1/chats", headers={"Origin": "http://192.168.1.20:8000"}).status_code == 200
        assert client.get("/v1/chats", headers={"Origin": "http://192.168.1.20:8001"}).status_code == 403


def test_a_rebound_host_name_is_refused(api: httpx.Client) -> None:
    """DNS rebinding: a page whose name now points at 127.0.0.1 sends its own Host."""
    r = api.get("/v1/health", headers={"Host": "attacker.example:7317"})
    assert r.status_code == 403
    assert "Host" in r.json()["error"]["message"]


@pytest.mark.parametrize(
    "host",
    [
        "evil.example@127.0.0.1",
        "evil.example@127.0.0.1:7317",
        "user:pw@localhost",
        "@127.0.0.1",
        "127.0.0.1/evil",
        "127.0.0.1?x",
        "127.0.0.1#x",
        "127.0.0.1:port",
    ],
)
def test_a_host_header_that_is_not_host_and_port_alone_is_refused(api: httpx.Client, host: str) -> None:
    r = api.get("/v1/chats", headers={"Host": host})
    assert r.status_code == 403, (host, r.text)
    assert "Host" in r.json()["error"]["message"]


def test_plain_loopback_host_headers_are_served(api: httpx.Client) -> None:
    for host in ("127.0.0.1", "127.0.0.1:7317", "localhost:1", "[::1]:7317", "LOCALHOST"):
        assert api.get("/v1/chats", headers={"Host": host}).status_code == 200, host
    assert not OriginPolicy().host_allowed("evil.example@127.0.0.1")


def test_origin_policy_normalizes_and_rejects_lookalikes() -> None:
    policy = OriginPolicy(["HTTP://Example.COM:8000/"])
    assert policy.origin_allowed("http://example.com:8000")
    assert not policy.origin_allowed("http://example.com:8000/path")
    assert not policy.origin_allowed("http://user@localhost:8000")
    assert not policy.origin_allowed("ws://localhost:8000")
