"""Bad input gets a 4xx naming the problem, and nothing is stored."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from bme_desktop.bridge.server import BridgeServer
from bme_desktop.core.service import MemoryService

from .helpers import AUTH, messages, raw_request, snapshot


@pytest.fixture
def service(shared_bridge: tuple[MemoryService, BridgeServer]) -> MemoryService:
    return shared_bridge[0]


@pytest.fixture
def bridge(shared_bridge: tuple[MemoryService, BridgeServer]) -> BridgeServer:
    return shared_bridge[1]


@pytest.fixture
def seeded(api: httpx.Client) -> httpx.Client:
    assert api.post("/v1/chats/c/sync", json={"messages": messages(4)}).status_code == 200
    return api


def post_raw(api: httpx.Client, path: str, content: bytes, ctype: str = "application/json") -> httpx.Response:
    return api.post(path, content=content, headers={"Content-Type": ctype})


def expect_400(r: httpx.Response, *words: str) -> None:
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert error["code"] == "bad_request"
    for word in words:
        assert word in error["message"], error["message"]


@pytest.mark.parametrize("content", [b"{", b"{'a': 1}", b"[1,", b"nul", b'{"messages": [}', b'{"a":1}x'])
def test_malformed_json_is_400_naming_the_body(
    seeded: httpx.Client, service: MemoryService, content: bytes
) -> None:
    before = snapshot(service)
    expect_400(post_raw(seeded, "/v1/chats/c/sync", content), "body", "JSON")
    assert snapshot(service) == before


def test_non_utf8_body_is_400(seeded: httpx.Client, service: MemoryService) -> None:
    before = snapshot(service)
    body = b'{"messages": [{"index": 0, "role": "user", "text": "\xff\xfe"}]}'
    expect_400(post_raw(seeded, "/v1/chats/c/sync", body), "UTF-8")
    assert snapshot(service) == before


@pytest.mark.parametrize("content", [b"[]", b"42", b'"text"', b"null", b""])
def test_body_must_be_an_object(seeded: httpx.Client, content: bytes) -> None:
    expect_400(post_raw(seeded, "/v1/chats/c/recall", content), "body")


def test_nan_and_duplicate_keys_are_refused(seeded: httpx.Client) -> None:
    expect_400(post_raw(seeded, "/v1/chats/c/recall", b'{"user_input": "x", "top_k": NaN}'), "NaN")
    expect_400(post_raw(seeded, "/v1/chats/c/recall", b'{"user_input": "x", "user_input": "y"}'), "twice")


def test_deep_nesting_is_refused_without_a_crash(seeded: httpx.Client) -> None:
    expect_400(post_raw(seeded, "/v1/chats/c/recall", b"[" * 100_000 + b"]" * 100_000), "body")
    expect_400(
        post_raw(
            seeded,
            "/v1/chats/c/nodes",
            b'{"type": "event", "fields": {}, "story_time": ' + b'{"a":' * 100 + b"1" + b"}" * 101,
        ),
        "nested",
    )


def test_a_form_body_is_refused(seeded: httpx.Client) -> None:
    r = post_raw(seeded, "/v1/chats/c/recall", b"user_input=x", "application/x-www-form-urlencoded")
    assert r.status_code == 415
    assert r.json()["error"]["code"] == "bad_request"
    assert "Content-Type" in r.json()["error"]["message"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "messages"),
        ({"messages": "all"}, "messages"),
        ({"messages": [1]}, "messages[0]"),
        ({"messages": [{"role": "user", "text": "x"}]}, "messages[0].index"),
        ({"messages": [{"index": "0", "role": "user", "text": "x"}]}, "messages[0].index"),
        ({"messages": [{"index": 0.5, "role": "user", "text": "x"}]}, "messages[0].index"),
        ({"messages": [{"index": True, "role": "user", "text": "x"}]}, "messages[0].index"),
        ({"messages": [{"index": -1, "role": "user", "text": "x"}]}, "messages[0].index"),
        ({"messages": [{"index": 0, "role": "narrator", "text": "x"}]}, "messages[0].role"),
        ({"messages": [{"index": 0, "role": "user"}]}, "messages[0].text"),
        ({"messages": [{"index": 0, "role": "user", "text": 5}]}, "messages[0].text"),
        ({"messages": [{"index": 0, "role": "user", "text": "x", "swipe_id": "1"}]}, "messages[0].swipe_id"),
        ({"messages": [{"index": 0, "role": "user", "text": "x", "time": "yesterday"}]}, "messages[0].time"),
        ({"messages": [{"index": 0, "role": "user", "text": "x", "mood": "odd"}]}, "messages[0].mood"),
        ({"messages": [], "complete": "yes"}, "complete"),
        ({"messages": [], "wait": 1}, "wait"),
        ({"messages": [], "character": ["S"]}, "character"),
        ({"messages": [], "extra": 1}, "extra"),
        (
            {
                "messages": [
                    {"index": 0, "role": "user", "text": "a"},
                    {"index": 0, "role": "user", "text": "b"},
                ]
            },
            "messages[1].index",
        ),
        (
            {
                "messages": [
                    {"index": 0, "role": "user", "text": "a"},
                    {"index": 2, "role": "user", "text": "b"},
                ],
                "complete": True,
            },
            "messages",
        ),
    ],
)
def test_bad_sync_bodies_name_the_field_and_store_nothing(
    seeded: httpx.Client, service: MemoryService, body: dict[str, Any], field: str
) -> None:
    before = snapshot(service)
    expect_400(seeded.post("/v1/chats/c/sync", json=body), field)
    assert snapshot(service) == before


def test_a_later_bad_message_keeps_earlier_good_ones_out(
    seeded: httpx.Client, service: MemoryService
) -> None:
    before = snapshot(service)
    body = {"messages": [*messages(3, start=4), {"index": 9, "role": "user", "text": "x\x00y"}]}
    expect_400(seeded.post("/v1/chats/c/sync", json=body), "messages[3].text")
    assert snapshot(service) == before


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "user_input"),
        ({"user_input": 3}, "user_input"),
        ({"user_input": "x", "index": -2}, "index"),
        ({"user_input": "x", "top_k": 0}, "top_k"),
        ({"user_input": "x", "top_k": "8"}, "top_k"),
        ({"user_input": "x", "budget_tokens": 10**9}, "budget_tokens"),
        ({"user_input": "x", "k": 1}, "k"),
    ],
)
def test_bad_recall_bodies_name_the_field(
    seeded: httpx.Client, service: MemoryService, body: dict[str, Any], field: str
) -> None:
    before = snapshot(service)
    expect_400(seeded.post("/v1/chats/c/recall", json=body), field)
    assert snapshot(service) == before


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"fields": {"summary": "x"}}, "type"),
        ({"type": "spaceship", "fields": {}}, "type"),
        ({"type": "event"}, "fields"),
        ({"type": "event", "fields": {"summary": 1}}, "fields.summary"),
        ({"type": "event", "fields": {}}, "fields.summary"),
        ({"type": "event", "fields": {"summary": "x", "colour": "red"}}, "fields.colour"),
        ({"type": "event", "fields": {"summary": "x"}, "importance": 11}, "importance"),
        ({"type": "event", "fields": {"summary": "x"}, "tier": "forever"}, "tier"),
        ({"type": "event", "fields": {"summary": "x"}, "pinned": "yes"}, "pinned"),
        ({"type": "event", "fields": {"summary": "x"}, "scope": {"layer": "pov"}}, "scope.owner"),
        ({"type": "event", "fields": {"summary": "x"}, "scope": "pov"}, "scope"),
        ({"type": "event", "fields": {"summary": "x"}, "source_indices": [1, -1]}, "source_indices[1]"),
        ({"type": "event", "fields": {"summary": "x"}, "id": "mine"}, "id"),
    ],
)
def test_bad_node_bodies_name_the_field_and_store_nothing(
    seeded: httpx.Client, service: MemoryService, body: dict[str, Any], field: str
) -> None:
    before = snapshot(service)
    expect_400(seeded.post("/v1/chats/c/nodes", json=body), field)
    assert snapshot(service) == before


def test_unknown_routes_are_404_and_wrong_methods_405_in_the_error_shape(api: httpx.Client) -> None:
    r = api.get("/v1/nothing/here")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    r = api.put("/v1/chats/c/sync", json={})
    assert r.status_code == 405
    assert r.json()["error"]["code"] == "bad_request"
    assert "POST" in r.json()["error"]["message"] and r.headers["Allow"] == "POST"
    assert api.get("/").status_code == 404


def test_a_10000_character_chat_id_is_400(bridge: BridgeServer, api: httpx.Client) -> None:
    from urllib.parse import quote

    for chat_id in ("a" * 10_000, "\u4f60" * 10_000):
        answer = raw_request(
            bridge.port,
            (
                f"POST /v1/chats/{quote(chat_id, safe='')}/sync HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Authorization: {AUTH['Authorization']}\r\nContent-Type: application/json\r\n"
                'Content-Length: 16\r\nConnection: close\r\n\r\n{"messages": []}'
            ).encode(),
        )
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 400"), head
        assert b'"bad_request"' in body and b"chat_id" in body
    assert all(len(c["chat_id"]) <= 256 for c in api.get("/v1/chats").json()["chats"])


def test_chat_ids_with_slashes_and_unicode_round_trip(api: httpx.Client) -> None:
    from bme_desktop.bridge.client import chat_path

    chat_id = "group/茶会 %41 ?#&"
    assert api.post(chat_path(chat_id, "sync"), json={"messages": messages(1)}).status_code == 200
    assert api.get(chat_path(chat_id)).json()["chat_id"] == chat_id


def test_chat_id_bytes_that_are_not_utf8_are_400(api: httpx.Client, service: MemoryService) -> None:
    before = snapshot(service)
    expect_400(api.post("/v1/chats/%FF%FE/sync", json={"messages": []}), "chat_id")
    assert snapshot(service) == before


@pytest.mark.parametrize("raw_chat_id", ["%", "%zz", "a%", "a%2", "%%41", "ok%2Fthen%g0"])
def test_a_percent_that_starts_no_escape_is_400_and_creates_no_chat(
    bridge: BridgeServer, service: MemoryService, raw_chat_id: str
) -> None:
    before = snapshot(service)
    answer = raw_request(
        bridge.port,
        (
            f"POST /v1/chats/{raw_chat_id}/sync HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Authorization: {AUTH['Authorization']}\r\nContent-Type: application/json\r\n"
            'Content-Length: 16\r\nConnection: close\r\n\r\n{"messages": []}'
        ).encode(),
    )
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400"), head
    assert b'"bad_request"' in body and b"chat_id" in body and b"%25" in body
    assert snapshot(service) == before


def test_raw_non_utf8_request_line_does_not_crash_the_server(bridge: BridgeServer, api: httpx.Client) -> None:
    answer = raw_request(
        bridge.port,
        b"GET /v1/chats/\xff\xfe HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Authorization: " + AUTH["Authorization"].encode() + b"\r\n"
        b"Connection: close\r\n\r\n",
    )
    # The HTTP parser itself refuses it (a plain 400: the request never reaches a route).
    assert answer.split(b"\r\n", 1)[0].endswith(b" 400 Bad Request")
    assert api.get("/v1/health").status_code == 200


@pytest.mark.parametrize(
    "path",
    [
        "/v1/chats/c/recall/-1",
        "/v1/chats/c/recall/abc",
        "/v1/chats/c/recall/1e3",
        "/v1/chats/c/recall/99999999999",
    ],
)
def test_bad_recall_index_in_path_is_400(seeded: httpx.Client, path: str) -> None:
    expect_400(seeded.get(path), "index")


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("limit=0", "limit"),
        ("limit=x", "limit"),
        ("offset=-1", "offset"),
        ("type=spaceship", "type"),
        ("tier=x", "tier"),
        ("pinned=maybe", "pinned"),
        ("order=sideways", "order"),
    ],
)
def test_bad_search_parameters_are_400(seeded: httpx.Client, query: str, field: str) -> None:
    expect_400(seeded.get(f"/v1/chats/c/nodes?{query}"), field)


def test_unknown_chat_is_404_everywhere(api: httpx.Client) -> None:
    for method, path, body in [
        ("GET", "/v1/chats/none", None),
        ("DELETE", "/v1/chats/none", None),
        ("POST", "/v1/chats/none/recall", {"user_input": "x"}),
        ("GET", "/v1/chats/none/nodes", None),
        ("GET", "/v1/chats/none/edges", None),
        ("GET", "/v1/chats/none/recall/0", None),
        ("POST", "/v1/chats/none/maintenance", {"task": "upkeep"}),
    ]:
        r = api.request(method, path, json=body)
        assert r.status_code == 404, (method, path, r.text)
        assert r.json()["error"]["code"] == "not_found"
