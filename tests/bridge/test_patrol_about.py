"""GET /v1/chats/{chat_id}/patrol and /about: the life cycle's read-only views over HTTP."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from bme_desktop.core import editing
from bme_desktop.core.lifecycle.tasks import register_tasks
from bme_desktop.core.model import Node
from bme_desktop.core.service import MemoryService

from .helpers import messages, snapshot

PATROL_KEYS = {
    "chat_id",
    "at",
    "long_unused",
    "duplicates",
    "contradictions",
    "fading",
    "unclassified",
    "stale_todos",
    "retiring",
    "retention",
    "omitted",
}


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
    node = create(
        chat, type="fact", fields={"subject": "Sera", "category": "drink", "statement": "Sera loves tea"}
    )
    create(
        chat, type="fact", fields={"subject": "Alex", "category": "drink", "statement": "Alex drinks coffee"}
    )
    r = chat.get("/v1/chats/c%2Fd/about", params={"q": "TEA"})
    assert r.status_code == 200
    body = r.json()
    assert body["about"] == "TEA" and [h["id"] for h in body["hits"]] == [node["id"]]
    assert {"confirmations", "strength"} <= set(body) and 0 <= body["strength"] <= 1
    assert {
        "id",
        "type",
        "title",
        "text",
        "confirmations",
        "strength",
        "tier",
        "review_status",
        "age_days",
        "neighbours",
    } == set(body["hits"][0])


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


def _auto_events(service: MemoryService, n: int) -> list[Node]:
    """Events as extraction writes them (retention never retires what was written by hand)."""
    return [
        service.write(
            lambda uow, i=i: editing.create_node(
                uow,
                "c/d",
                editing.NodeDraft(type="event", fields={"summary": f"The tide rose {i} times"}),
                manual=False,
            )
        )
        for i in range(n)
    ]


def test_the_patrol_previews_retention_and_upkeep_retires_exactly_that(
    chat: httpx.Client, service: MemoryService
) -> None:
    register_tasks(service)
    events = _auto_events(service, 4)
    service.settings.lifecycle.retention_max_count = {"event": 1}
    report = chat.get("/v1/chats/c%2Fd/patrol").json()
    assert report["retention"] == {
        "total": 3,
        "by_rule": {"max_count": 3},
        "refused": None,
        "bin_expiring": 0,
    }
    previewed = {item["ids"][0] for item in report["retiring"]}
    out = chat.post("/v1/chats/c%2Fd/maintenance", json={"task": "upkeep", "wait": True}).json()
    assert out["retention"]["total"] == 3 and out["changes"]["nodes_removed"] == 3
    binned = {
        e.id for e in events if service.get_node("c/d", e.id, include_deleted=True).deleted_at is not None
    }
    assert binned == previewed and len(binned) == 3
    back = chat.post(f"/v1/chats/c%2Fd/nodes/{sorted(binned)[0]}/restore")
    assert back.status_code == 200 and back.json()["deleted_at"] is None


def test_a_refused_rule_is_named_in_the_patrol_and_upkeep_changes_nothing(
    chat: httpx.Client, service: MemoryService
) -> None:
    register_tasks(service)
    _auto_events(service, 2)
    service.settings.lifecycle.retention_max_count = {}
    service.settings.lifecycle.retention_max_age_days = {"event": 1.0}
    service.clock = _later(service, days=2)
    refused = chat.get("/v1/chats/c%2Fd/patrol").json()["retention"]["refused"]
    assert refused == {"rule": "max_age", "type": "event", "count": 2, "limit": 1.0}
    out = chat.post("/v1/chats/c%2Fd/maintenance", json={"task": "upkeep", "wait": True}).json()
    assert "would retire all 2 event memories" in out["retention"]["refused_text"]
    assert out["changes"]["nodes_removed"] == 0
    assert len(service.all_nodes("c/d")) == 2


def _later(service: MemoryService, *, days: float) -> Any:
    """A manual clock ``days`` after the service's (the injected clock; nothing sleeps)."""
    from bme_desktop.core.clock import ManualClock

    return ManualClock(service.now() + days * 86400.0)
