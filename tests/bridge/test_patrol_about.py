"""GET /v1/chats/{chat_id}/patrol and /about: the life cycle's read-only views over HTTP."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from bme_desktop.core.service import MemoryService

from .helpers import messages, snapshot

PATROL_KEYS = {"chat_id", "at", "long_unused", "duplicates", "contradictions", "fading", "unclassified",
               "stale_todos", "omitted"}


@pytest.fixture
def chat(api: httpx.Client) -> httpx.Client:
    assert api.post("/v1/chats/c%2Fd/sync", json={"messages": messages(4)}).status_code == 200
    return api


def create(api: httpx.Client, **body: Any) -> dict[str, Any]:
    r = api.post("/v1/chats/c%2Fd/nodes", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def test_patrol_lists_contradicting_and_unclassified_facts(chat: httpx.Client) -> None:
    a = create(chat, type="fact", fields={"subject": "Sera", "category": "age", "statement": "Sera is 20"})
    b = create(chat, type="fact", fields={"subject": "Sera", "category": "age", "statement": "Sera is 31"})
    loose = create(chat, type="fact", fields={"subject": "tea", "statement": "tea is hot"})
    r = chat.get("/v1/chats/c%2Fd/patrol")
    assert r.status_code == 200
    report = r.json()
    assert set(report) == PATROL_KEYS and report["chat_id"] == "c/d"
    assert {"ids", "titles", "note"} == set(report["contradictions"][0])
    assert any(set(item["ids"]) == {a["id"], b["id"]} for item in report["contradictions"])
    assert [item["ids"] for item in report["unclassified"]] == [[loose["id"]]]


def test_a_patrol_request_changes_nothing_in_the_database(chat: httpx.Client, service: MemoryService) -> None:
    create(chat, type="fact", fields={"subject": "Sera", "category": "age", "statement": "Sera is 20"})
    before = snapshot(service)
    assert chat.get("/v1/chats/c%2Fd/patrol").status_code == 200
    assert snapshot(service) == before


def test_about_reports_matching_memories_and_how_sure(chat: httpx.Client) -> None:
    node = create(chat, type="fact", fields={"subject": "Sera", "category": "drink", "statement": "Sera loves tea"})
    create(chat, type="fact", fields={"subject": "Alex", "category": "drink", "statement": "Alex drinks coffee"})
    r = chat.get("/v1/chats/c%2Fd/about", params={"q": "TEA"})
    assert r.status_code == 200
    body = r.json()
    assert body["about"] == "TEA" and [h["id"] for h in body["hits"]] == [node["id"]]
    assert {"confirmations", "strength"} <= set(body) and 0 <= body["strength"] <= 1
    assert {"id", "type", "title", "text", "confirmations", "strength", "tier", "review_status", "age_days",
            "neighbours"} == set(body["hits"][0])


@pytest.mark.parametrize("query", ["", "?q=", "?q=%20%20", "?q=" + "x" * 201])
def test_about_without_a_proper_q_is_400(chat: httpx.Client, query: str) -> None:
    r = chat.get("/v1/chats/c%2Fd/about" + query)
    assert r.status_code == 400 and "q" in r.json()["error"]["message"]


@pytest.mark.parametrize("path", ["/v1/chats/nope/patrol", "/v1/chats/nope/about?q=tea"])
def test_an_unknown_chat_is_404(api: httpx.Client, path: str) -> None:
    r = api.get(path)
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


@pytest.mark.parametrize("path", ["/v1/chats/c/patrol", "/v1/chats/c/about?q=tea"])
def test_both_views_need_the_token(anon: httpx.Client, path: str) -> None:
    r = anon.get(path)
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
