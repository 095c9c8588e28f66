"""A lone UTF-16 surrogate (valid JSON: ``"\\ud800"``, what JSON.stringify writes for half an
emoji) is replaced with U+FFFD as the body is read: every endpoint stores the rest of the text,
none answers 500, and the chat stays usable."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from bme_desktop.core.ingest.text import loads_json
from bme_desktop.core.service import MemoryService

from .helpers import snapshot

LONE = "\\ud800"  # as it is spelt inside a JSON string
JSON = {"Content-Type": "application/json"}


def send(api: httpx.Client, method: str, path: str, body: str) -> httpx.Response:
    return api.request(method, path, content=body.encode("ascii"), headers=JSON)


def ok(r: httpx.Response, status: int = 200) -> dict[str, Any]:
    assert r.status_code == status, r.text
    return dict(r.json())


def test_a_sync_with_a_lone_surrogate_stores_the_replacement_and_later_syncs_work(
    api: httpx.Client, service: MemoryService
) -> None:
    body = (
        '{"character": "Sera' + LONE + '", "messages": [{"index": 0, "role": "user", "name": "Al\\udfffex", '
        '"text": "broken ' + LONE + ' emoji, whole \\ud83d\\ude00"}], "complete": true}'
    )
    assert ok(send(api, "POST", "/v1/chats/c/sync", body))["stored"] == 1
    [message] = service.messages("c")
    assert (message.text, message.name) == ("broken \ufffd emoji, whole \U0001f600", "Al\ufffdex")
    assert service.chat_stats("c").character == "Sera\ufffd"
    again = (
        '{"messages": [{"index": 0, "role": "user", "text": "fixed"}, '
        '{"index": 1, "role": "assistant", "text": "' + LONE + LONE + '"}], "complete": true}'
    )
    assert ok(send(api, "POST", "/v1/chats/c/sync", again))["changed_from"] == 0
    assert [m.text for m in service.messages("c")] == ["fixed", "\ufffd\ufffd"]


def test_a_memory_created_with_a_lone_surrogate_is_stored(api: httpx.Client) -> None:
    ok(api.post("/v1/chats/c/sync", json={"messages": [{"index": 0, "role": "user", "text": "hi"}]}))
    body = '{"type": "fact", "fields": {"statement": "the key' + LONE + ' is silver"}}'
    node = ok(send(api, "POST", "/v1/chats/c/nodes", body), 201)
    assert node["fields"]["statement"] == "the key\ufffd is silver"
    assert ok(api.get(f"/v1/chats/c/nodes/{node['id']}"))["fields"]["statement"] == "the key\ufffd is silver"


def test_a_recall_with_a_lone_surrogate_keeps_its_record_and_the_record_can_be_edited(
    api: httpx.Client,
) -> None:
    ok(
        api.post(
            "/v1/chats/c/sync", json={"messages": [{"index": 0, "role": "user", "text": "the silver key"}]}
        )
    )
    ok(
        api.post("/v1/chats/c/nodes", json={"type": "fact", "fields": {"statement": "the key is silver"}}),
        201,
    )
    ok(send(api, "POST", "/v1/chats/c/recall", '{"user_input": "silver key' + LONE + '", "index": 1}'))
    kept = ok(api.get("/v1/chats/c/recall/1"))
    assert kept["user_input"] == "silver key\ufffd"
    edited = ok(send(api, "PUT", "/v1/chats/c/recall/1", '{"injection": "my notes ' + LONE + '"}'))
    assert edited["injection"] == "my notes \ufffd"
    assert ok(api.get("/v1/chats/c/recall/1"))["injection"] == "my notes \ufffd"


def test_keys_that_become_the_same_are_refused_and_store_nothing(
    api: httpx.Client, service: MemoryService
) -> None:
    ok(api.post("/v1/chats/c/sync", json={"messages": [{"index": 0, "role": "user", "text": "hi"}]}))
    before = snapshot(service)
    body = '{"type": "fact", "fields": {"\\ud800": "a", "\\udbff": "b"}}'
    r = send(api, "POST", "/v1/chats/c/nodes", body)
    assert r.status_code == 400 and "appears twice" in r.json()["error"]["message"], r.text
    assert snapshot(service) == before


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ('"a\\ud800b"', "a\ufffdb"),
        ('"\\udc00\\ud800"', "\ufffd\ufffd"),
        ('"\\ud83d\\ude00"', "\U0001f600"),
        ('"\\uD83D"', "\ufffd"),
        ('"\\\\ud800"', "\\ud800"),
        ('"plain ü"', "plain ü"),
    ],
)
def test_loads_json_replaces_only_unpaired_surrogates(text: str, want: str) -> None:
    assert loads_json(text) == want
    assert loads_json(f'{{"k{text[1:-1]}": [{text}]}}') == {f"k{want}": [want]}
