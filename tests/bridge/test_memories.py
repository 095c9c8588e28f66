"""Chats, memories and edges over HTTP: list, stats, search, create, read, edit, delete, restore."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import httpx
import pytest

from .helpers import messages
from .test_sync_recall import NODE_FIELDS


@pytest.fixture
def chat(api: httpx.Client) -> httpx.Client:
    assert (
        api.post(
            "/v1/chats/c/sync", json={"messages": messages(4), "character": "Sera", "user": "Alex"}
        ).status_code
        == 200
    )
    return api


def create(api: httpx.Client, **body: Any) -> dict[str, Any]:
    r = api.post("/v1/chats/c/nodes", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def test_a_created_node_carries_every_protocol_field(chat: httpx.Client) -> None:
    node = create(
        chat,
        type="character",
        fields={"name": "Sera", "traits": "calm"},
        importance=8,
        pinned=True,
        scope={"layer": "pov", "owner": "Alex", "region": "forest"},
        source_indices=[2, 1],
        story_time={"label": "day 3"},
    )
    assert set(node) >= NODE_FIELDS
    assert node["title"] == "Sera" and "calm" in node["text"]
    assert node["scope"] == {"layer": "pov", "owner": "Alex", "region": "forest", "kind": "chat"}
    assert node["source_indices"] == [1, 2] and node["manually_edited"] is True
    assert node["tier"] in ("short_term", "long_term", "dormant", "archived")
    assert node["review_status"] in ("pending", "approved", "rejected")
    assert 0 <= node["retrievability"] <= 1 and node["recall_count"] == 0 and node["last_recalled_at"] is None
    for key in ("created_at", "updated_at"):
        assert node[key].endswith("Z") and datetime.fromisoformat(node[key].replace("Z", "+00:00"))
    assert chat.get(f"/v1/chats/c/nodes/{node['id']}").json() == node


def test_patch_changes_only_what_it_names(chat: httpx.Client) -> None:
    node = create(chat, type="event", fields={"summary": "the bridge fell", "status": "done"})
    r = chat.patch(
        f"/v1/chats/c/nodes/{node['id']}",
        json={"fields": {"summary": "the bridge was rebuilt", "status": None}, "tier": "dormant"},
    )
    assert r.status_code == 200
    patched = r.json()
    assert patched["fields"] == {"summary": "the bridge was rebuilt"} and patched["tier"] == "dormant"
    assert patched["importance"] == node["importance"]


@pytest.mark.parametrize(
    ("patch", "field"),
    [
        ({"title": "x"}, "title"),
        ({}, "body"),
        ({"importance": -1}, "importance"),
        ({"tier": None}, "tier"),
        ({"fields": {"summary": 3}}, "fields.summary"),
        ({"pinned": 1}, "pinned"),
        ({"source_indices": ["1"]}, "source_indices[0]"),
    ],
)
def test_bad_patches_are_400_and_change_nothing(
    chat: httpx.Client, patch: dict[str, Any], field: str
) -> None:
    node = create(chat, type="event", fields={"summary": "s"})
    r = chat.patch(f"/v1/chats/c/nodes/{node['id']}", json=patch)
    assert r.status_code == 400 and field in r.json()["error"]["message"]
    assert chat.get(f"/v1/chats/c/nodes/{node['id']}").json() == node


def test_delete_goes_to_the_recycle_bin_and_restore_brings_it_back(chat: httpx.Client) -> None:
    node = create(chat, type="fact", fields={"statement": "tea is hot"})
    r = chat.delete(f"/v1/chats/c/nodes/{node['id']}")
    assert r.status_code == 200 and r.json()["deleted"] is True
    assert chat.get(f"/v1/chats/c/nodes/{node['id']}").status_code == 404
    binned = chat.get("/v1/chats/c/nodes?deleted=only").json()
    assert [n["id"] for n in binned["items"]] == [node["id"]]
    assert chat.post(f"/v1/chats/c/nodes/{node['id']}/restore").status_code == 200
    assert chat.get(f"/v1/chats/c/nodes/{node['id']}").status_code == 200


def test_unknown_node_is_404(chat: httpx.Client) -> None:
    for method in ("GET", "PATCH", "DELETE"):
        r = chat.request(
            method, "/v1/chats/c/nodes/nope", json={"pinned": True} if method == "PATCH" else None
        )
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def test_search_filters_and_pages_with_a_total(chat: httpx.Client) -> None:
    for i in range(7):
        create(
            chat,
            type="fact",
            fields={"statement": f"apple number {i}"},
            tier="short_term" if i < 3 else "long_term",
        )
    create(chat, type="event", fields={"summary": "a storm"}, review_status="pending")
    page = chat.get("/v1/chats/c/nodes?type=fact&q=apple&limit=5&offset=0").json()
    assert page["total"] == 7 and len(page["items"]) == 5
    assert len(chat.get("/v1/chats/c/nodes?type=fact&limit=5&offset=5").json()["items"]) == 2
    assert chat.get("/v1/chats/c/nodes?tier=short_term").json()["total"] == 3
    assert chat.get("/v1/chats/c/nodes?review_status=pending").json()["total"] == 1
    assert chat.get("/v1/chats/c/nodes?q=storm").json()["items"][0]["type"] == "event"


def test_edges_are_created_listed_and_deleted(chat: httpx.Client) -> None:
    a = create(chat, type="character", fields={"name": "Sera"})
    b = create(chat, type="location", fields={"name": "the mill"})
    r = chat.post(
        "/v1/chats/c/edges", json={"from": a["id"], "to": b["id"], "relation": "occurred_at", "strength": 0.6}
    )
    assert r.status_code == 201
    edge = r.json()
    assert {"id", "from", "to", "relation", "strength", "valid_from", "valid_until"} <= set(edge)
    assert edge["from"] == a["id"] and edge["to"] == b["id"] and edge["strength"] == 0.6
    assert edge["valid_from"].endswith("Z") and edge["valid_until"] is None
    listed = chat.get(f"/v1/chats/c/edges?node={a['id']}").json()
    assert listed["total"] == 1 and listed["items"][0] == edge
    assert chat.delete(f"/v1/chats/c/edges/{edge['id']}").status_code == 200
    assert chat.get("/v1/chats/c/edges").json()["total"] == 0
    assert chat.delete(f"/v1/chats/c/edges/{edge['id']}").status_code == 404


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"to": "x", "relation": "related"}, "from"),
        ({"from": "x", "to": "y", "relation": "loves"}, "relation"),
        ({"from": "x", "to": "y", "relation": "related", "strength": 2}, "strength"),
    ],
)
def test_bad_edges_are_400(chat: httpx.Client, body: dict[str, Any], field: str) -> None:
    r = chat.post("/v1/chats/c/edges", json=body)
    assert r.status_code == 400 and field in r.json()["error"]["message"]


def test_an_edge_to_an_unknown_node_is_404(chat: httpx.Client) -> None:
    a = create(chat, type="character", fields={"name": "Sera"})
    r = chat.post("/v1/chats/c/edges", json={"from": a["id"], "to": "ghost", "relation": "related"})
    assert r.status_code == 404


def test_chat_list_and_stats_carry_the_protocol_fields(chat: httpx.Client) -> None:
    create(chat, type="event", fields={"summary": "s"}, review_status="pending")
    stats = chat.get("/v1/chats/c").json()
    for key in (
        "chat_id",
        "message_count",
        "node_count",
        "edge_count",
        "nodes_by_type",
        "nodes_by_tier",
        "pending_reviews",
        "last_activity",
    ):
        assert key in stats
    assert stats["message_count"] == 4 and stats["node_count"] == 1 and stats["pending_reviews"] == 1
    assert stats["nodes_by_type"] == {"event": 1} and stats["last_activity"].endswith("Z")
    listed = chat.get("/v1/chats").json()["chats"]
    assert [c["chat_id"] for c in listed] == ["c"] and listed[0]["message_count"] == 4


def test_deleting_a_chat_removes_it_and_its_memories(chat: httpx.Client) -> None:
    create(chat, type="event", fields={"summary": "s"})
    assert chat.delete("/v1/chats/c").json() == {"deleted": True, "chat_id": "c"}
    assert chat.get("/v1/chats/c").status_code == 404
    assert chat.get("/v1/chats").json() == {"chats": []}


def test_maintenance_the_version_cannot_do_is_409(chat: httpx.Client) -> None:
    r = chat.post("/v1/chats/c/maintenance", json={"task": "reflect"})
    assert (
        r.status_code == 409
        and r.json()["error"]["code"] == "conflict"
        and "reflect" in r.json()["error"]["message"]
    )


def test_maintenance_runs_a_registered_task(chat: httpx.Client, service: Any) -> None:
    from bme_desktop.core.events import ChangeRecord

    service.maintenance_tasks["upkeep"] = lambda chat_id: ChangeRecord(chat_id, nodes_changed={"a", "b"})
    out = chat.post("/v1/chats/c/maintenance", json={"task": "upkeep", "wait": True}).json()
    assert out["task"] == "upkeep" and out["changes"]["nodes_changed"] == 2
    assert out["changes"]["nodes_added"] == 0 and out["changes"]["nodes_removed"] == 0
    assert isinstance(out["elapsed_ms"], float)
    queued = chat.post("/v1/chats/c/maintenance", json={"task": "upkeep", "wait": False})
    assert queued.status_code == 202 and queued.json()["accepted"] is True


def test_an_unknown_maintenance_task_is_400(chat: httpx.Client) -> None:
    r = chat.post("/v1/chats/c/maintenance", json={"task": "explode"})
    assert r.status_code == 400 and "task" in r.json()["error"]["message"]


def test_a_database_that_is_busy_is_503_not_500(
    chat: httpx.Client, service: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sqlalchemy.exc import OperationalError

    def busy(*_: Any, **__: Any) -> None:
        raise OperationalError("SELECT", {}, Exception("database is locked"))

    monkeypatch.setattr(service, "list_chats", busy)
    r = chat.get("/v1/chats")
    assert r.status_code == 503 and r.json()["error"]["code"] == "unavailable"
    assert "locked" not in r.json()["error"]["message"]


def test_an_unexpected_failure_is_500_internal_and_the_server_carries_on(
    chat: httpx.Client, service: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: Any, **__: Any) -> None:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(service, "chat_stats", broken)
    r = chat.get("/v1/chats/c")
    assert r.status_code == 500 and r.json()["error"]["code"] == "internal"
    assert "secret" not in r.json()["error"]["message"]
    assert chat.get("/v1/chats").status_code == 200


def test_approving_through_the_bridge_is_a_review_not_an_edit(tmp_path: Any) -> None:
    """An approved memory stays derived from its message: editing that message later still
    rolls it back (as the GUI's approve does), so the approval must not flag a manual edit."""
    from bme_desktop.bridge.server import BridgeServer
    from bme_desktop.core.extract.scheduler import attach as attach_extraction
    from bme_desktop.core.service import MemoryService

    service = MemoryService.open(tmp_path / "data", attach=False)
    attach_extraction(service)
    server = BridgeServer(service, "t" * 40)
    server.start()
    try:
        with httpx.Client(
            base_url=server.url, headers={"Authorization": "Bearer " + "t" * 40}, timeout=30
        ) as api:
            first = [
                {"index": 0, "role": "user", "name": "Alex", "text": "My sister Lena lives in Lisbon."},
                {"index": 1, "role": "assistant", "name": "Sera", "text": "Lisbon! I will remember that."},
            ]
            assert (
                api.post(
                    "/v1/chats/c/sync", json={"messages": first, "complete": True, "wait": True}
                ).status_code
                == 200
            )
            derived = [
                n for n in api.get("/v1/chats/c/nodes?limit=500").json()["items"] if 0 in n["source_indices"]
            ]
            assert derived
            target = derived[0]
            r = api.patch(f"/v1/chats/c/nodes/{target['id']}", json={"review_status": "approved"})
            assert r.status_code == 200 and r.json()["review_status"] == "approved"
            assert r.json()["manually_edited"] is False
            edited = [{**first[0], "text": "My brother Tomas works in Porto."}, first[1]]
            assert (
                api.post(
                    "/v1/chats/c/sync", json={"messages": edited, "complete": True, "wait": True}
                ).status_code
                == 200
            )
            assert (
                api.get(f"/v1/chats/c/nodes/{target['id']}").status_code == 404
            )  # rolled back with its source
            log = service.read(lambda r: r.audit("c"))
            assert any(e["action"] == "review.approve" and e["target"] == target["id"] for e in log)
    finally:
        server.stop()
        service.close()
