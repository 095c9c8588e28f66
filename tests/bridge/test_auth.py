"""Health needs no token; everything else needs the right one, compared in constant time."""

from __future__ import annotations

import hmac

import httpx
import pytest

from bme_desktop import __version__
from bme_desktop.bridge import auth
from bme_desktop.bridge.server import BridgeServer
from bme_desktop.core.service import MemoryService

from .helpers import TOKEN


@pytest.fixture
def service(shared_bridge: tuple[MemoryService, BridgeServer]) -> MemoryService:
    return shared_bridge[0]


@pytest.fixture
def bridge(shared_bridge: tuple[MemoryService, BridgeServer]) -> BridgeServer:
    return shared_bridge[1]


def test_health_answers_without_a_token(anon: httpx.Client) -> None:
    r = anon.get("/v1/health")
    assert r.status_code == 200
    assert r.json() == {"status": "ok", "protocol": 1, "version": __version__}


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/v1/chats"),
        ("GET", "/v1/chats/c"),
        ("POST", "/v1/chats/c/sync"),
        ("POST", "/v1/chats/c/recall"),
        ("GET", "/v1/chats/c/nodes"),
        ("GET", "/v1/chats/c/edges"),
        ("DELETE", "/v1/chats/c"),
        ("GET", "/v1/chats/c/recall/1"),
        ("POST", "/v1/chats/c/maintenance"),
        ("GET", "/v1/nowhere"),
    ],
)
def test_missing_token_is_401_with_the_error_shape(anon: httpx.Client, method: str, path: str) -> None:
    r = anon.request(method, path, json={})
    assert r.status_code == 401
    assert r.json()["error"]["code"] == "unauthorized"
    assert "Authorization" in r.json()["error"]["message"]
    assert r.headers["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.parametrize(
    "header",
    [f"Bearer {TOKEN}x", f"Bearer {TOKEN[:-1]}", "Bearer", f"Basic {TOKEN}", TOKEN, "Bearer \u00e9\u00e9"],
)
def test_wrong_token_is_401(anon: httpx.Client, header: str) -> None:
    r = anon.get("/v1/chats", headers=[(b"Authorization", header.encode("utf-8"))])
    assert r.status_code == 401
    assert r.json()["error"]["code"] == "unauthorized"


def test_right_token_is_accepted(anon: httpx.Client) -> None:
    assert anon.get("/v1/chats", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200


def test_tokens_compare_with_hmac_compare_digest(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(hmac, "compare_digest", spy)
    assert auth.token_matches("abc", "abc")
    assert not auth.token_matches("abd", "abc")
    assert len(calls) == 2


def test_a_rotated_token_replaces_the_old_one_at_once(bridge: BridgeServer, anon: httpx.Client) -> None:
    bridge.tokens.set("a-new-token-" + "z" * 40)
    try:
        assert anon.get("/v1/chats", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 401
        assert (
            anon.get("/v1/chats", headers={"Authorization": "Bearer a-new-token-" + "z" * 40}).status_code
            == 200
        )
    finally:
        bridge.tokens.set(TOKEN)
