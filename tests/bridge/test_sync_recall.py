"""Sync and recall: the fields the protocol promises, and kept recalls."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from bme_desktop.core.service import MemoryService

from .helpers import messages

NODE_FIELDS = {
    "id",
    "type",
    "title",
    "text",
    "fields",
    "importance",
    "tier",
    "review_status",
    "pinned",
    "scope",
    "story_time",
    "retrievability",
    "recall_count",
    "last_recalled_at",
    "created_at",
    "updated_at",
    "source_indices",
    "manually_edited",
}


def sync(api: httpx.Client, body: dict[str, Any], chat: str = "c") -> dict[str, Any]:
    r = api.post(f"/v1/chats/{chat}/sync", json=body)
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_sync_answers_every_protocol_field(api: httpx.Client) -> None:
    out = sync(
        api,
        {"character": "Seraphina", "user": "Alex", "messages": messages(3), "complete": False, "wait": False},
    )
    assert out == {
        "chat_id": "c",
        "stored": 3,
        "changed_from": None,
        "rolled_back": {"batches": 0, "nodes": 0},
        "extraction": {"queued": 0, "done": 0},
        "revision": out["revision"],
    }
    assert isinstance(out["revision"], int) and out["revision"] >= 1


def test_sync_optional_message_fields_are_accepted(api: httpx.Client) -> None:
    body = {
        "messages": [
            {
                "index": 0,
                "role": "assistant",
                "name": "Seraphina",
                "text": "…",
                "swipe_id": 0,
                "time": "2023-05-08T13:56:00Z",
            },
            {"index": 1, "role": "user", "name": "Alex", "text": "…"},
            {"index": 2, "role": "system", "text": "", "name": None, "time": None},
        ]
    }
    assert sync(api, body)["stored"] == 3


def test_an_edited_message_is_reported_as_changed_from(api: httpx.Client) -> None:
    sync(api, {"messages": messages(6), "complete": True})
    edited = messages(6)
    edited[3]["text"] = "rewritten"
    out = sync(api, {"messages": edited, "complete": True})
    assert out["changed_from"] == 3
    assert out["stored"] == 1


def test_a_complete_sync_without_the_last_messages_deletes_them(api: httpx.Client) -> None:
    sync(api, {"messages": messages(6), "complete": True})
    out = sync(api, {"messages": messages(4), "complete": True})
    assert out["changed_from"] == 4
    assert api.get("/v1/chats/c").json()["message_count"] == 4


def test_a_partial_sync_editing_one_message_keeps_the_messages_after_it(api: httpx.Client) -> None:
    sync(api, {"messages": messages(4), "complete": True})
    out = sync(api, {"messages": [{"index": 1, "role": "user", "text": "b edited"}]})
    assert (out["changed_from"], out["stored"]) == (1, 1)
    assert api.get("/v1/chats/c").json()["message_count"] == 4
    sync(api, {"messages": messages(1, start=4)})  # the next one follows without a gap
    assert api.get("/v1/chats/c").json()["message_count"] == 5


def test_an_unchanged_resync_stores_nothing_and_keeps_the_revision(api: httpx.Client) -> None:
    first = sync(api, {"messages": messages(5), "complete": True})
    again = sync(api, {"messages": messages(5), "complete": True})
    assert again["stored"] == 0 and again["changed_from"] is None and again["revision"] == first["revision"]


def test_sync_with_wait_answers_after_extraction(api: httpx.Client) -> None:
    out = sync(api, {"messages": messages(2), "wait": True})
    assert out["extraction"]["done"] >= out["extraction"]["queued"] - out["extraction"]["done"] >= 0


@pytest.fixture
def memory(api: httpx.Client) -> dict[str, Any]:
    sync(api, {"messages": messages(4)})
    r = api.post(
        "/v1/chats/c/nodes",
        json={
            "type": "event",
            "fields": {"summary": "Alex found the silver key"},
            "source_indices": [1, 2],
            "importance": 7,
        },
    )
    assert r.status_code == 201
    return dict(r.json())


def test_recall_answers_injection_estimate_time_and_full_nodes(
    api: httpx.Client, memory: dict[str, Any]
) -> None:
    r = api.post("/v1/chats/c/recall", json={"user_input": "where is the silver key?"})
    assert r.status_code == 200
    out = r.json()
    assert {"injection", "token_estimate", "elapsed_ms", "nodes"} <= set(out)
    assert "silver key" in out["injection"]
    assert isinstance(out["token_estimate"], int) and out["token_estimate"] > 0
    node = out["nodes"][0]
    assert NODE_FIELDS | {"score", "bucket"} <= set(node)
    assert node["id"] == memory["id"] and node["source_indices"] == [1, 2]
    assert isinstance(node["score"], float) and isinstance(node["bucket"], str)
    assert "components" in node and "skipped_stages" in out


def test_recall_top_k_caps_the_nodes(api: httpx.Client, memory: dict[str, Any]) -> None:
    for i in range(5):
        api.post(
            "/v1/chats/c/nodes",
            json={"type": "fact", "fields": {"statement": f"the key number {i} is silver"}},
        )
    out = api.post("/v1/chats/c/recall", json={"user_input": "silver key", "top_k": 2}).json()
    assert len(out["nodes"]) == 2


def test_recall_with_index_is_kept_and_can_be_edited_and_deleted(
    api: httpx.Client, memory: dict[str, Any]
) -> None:
    fresh = api.post("/v1/chats/c/recall", json={"user_input": "the silver key", "index": 4}).json()
    kept = api.get("/v1/chats/c/recall/4")
    assert kept.status_code == 200
    body = kept.json()
    assert body["injection"] == fresh["injection"] and body["manually_edited"] is False
    assert body["nodes"][0]["id"] == memory["id"] and set(body["nodes"][0]) >= NODE_FIELDS
    assert {"token_estimate", "elapsed_ms"} <= set(body)
    edited = api.put("/v1/chats/c/recall/4", json={"injection": "[my own notes]"})
    assert edited.status_code == 200
    assert edited.json()["injection"] == "[my own notes]" and edited.json()["manually_edited"] is True
    assert api.get("/v1/chats/c/recall/4").json()["manually_edited"] is True
    assert api.delete("/v1/chats/c/recall/4").status_code == 200
    assert api.get("/v1/chats/c/recall/4").status_code == 404
    assert api.delete("/v1/chats/c/recall/4").status_code == 404


def test_recall_without_index_keeps_nothing(
    api: httpx.Client, memory: dict[str, Any], service: MemoryService
) -> None:
    api.post("/v1/chats/c/recall", json={"user_input": "the silver key"})
    assert service.recall_records("c") == []


def test_put_on_a_recall_that_was_never_kept_is_404(api: httpx.Client, memory: dict[str, Any]) -> None:
    r = api.put("/v1/chats/c/recall/9", json={"injection": "x"})
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def test_put_needs_an_injection_string(api: httpx.Client, memory: dict[str, Any]) -> None:
    api.post("/v1/chats/c/recall", json={"user_input": "key", "index": 4})
    r = api.put("/v1/chats/c/recall/4", json={"injection": 5})
    assert r.status_code == 400 and "injection" in r.json()["error"]["message"]


def test_prepare_accepts_the_input_being_typed(api: httpx.Client) -> None:
    sync(api, {"messages": messages(3)})
    r = api.post("/v1/chats/c/recall/prepare", json={"user_input": "Where is the key", "index": 3})
    assert r.status_code == 202, r.text
    assert r.json()["chat_id"] == "c" and isinstance(r.json()["queued"], int)


@pytest.mark.parametrize(
    "body, field",
    [
        ({}, "user_input"),
        ({"user_input": 5}, "user_input"),
        ({"user_input": "x", "index": -1}, "index"),
        ({"user_input": "x", "top_k": 3}, "top_k"),
    ],
)
def test_prepare_rejects_bad_bodies_naming_the_field(
    api: httpx.Client, body: dict[str, Any], field: str
) -> None:
    sync(api, {"messages": messages(2)})
    r = api.post("/v1/chats/c/recall/prepare", json=body)
    assert r.status_code == 400 and field in r.json()["error"]["message"]


def test_prepare_for_an_unknown_chat_is_not_found(api: httpx.Client) -> None:
    r = api.post("/v1/chats/nobody/recall/prepare", json={"user_input": "hello there"})
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def test_chat_stats_say_how_far_the_vector_index_is(tmp_path: Any) -> None:
    from bme_desktop.bridge.server import BridgeServer
    from bme_desktop.core.providers.local_embedder_hashed import HashedNgramEmbedder
    from bme_desktop.core.recall.embedding import QueryCache
    from bme_desktop.core.recall.pipeline import attach

    service = MemoryService.open(tmp_path / "data", attach=False)
    recaller = attach(service, lambda: QueryCache(HashedNgramEmbedder(dim=32)))
    server = BridgeServer(service, "t" * 40)
    server.start()
    try:
        with httpx.Client(base_url=server.url, headers={"Authorization": "Bearer " + "t" * 40}) as api:
            sync(api, {"messages": messages(2)})
            assert api.get("/v1/chats/c").json()["vectors"] == {
                "model": None,
                "embedded": None,
                "pending": False,
            }
            api.post("/v1/chats/c/nodes", json={"type": "event", "fields": {"summary": "Lena hides the key"}})
            api.post("/v1/chats/c/recall", json={"user_input": "where is the key"})
            assert recaller.vectors is not None and recaller.vectors.wait_idle(20)
            vectors = api.get("/v1/chats/c").json()["vectors"]
            assert vectors["embedded"] == 1 and vectors["pending"] is False and vectors["model"]
    finally:
        server.stop()
        service.close()


def test_a_sync_with_wait_answers_once_its_memories_are_embedded_too(tmp_path: Any) -> None:
    """``wait: true`` is for a client that asks right after: its memories must be findable by
    meaning then, not only by words (the maintainer embeds them in the background)."""
    import threading

    from bme_desktop.bridge.server import BridgeServer
    from bme_desktop.core.extract.scheduler import attach as attach_extraction
    from bme_desktop.core.providers.local_embedder_hashed import HashedNgramEmbedder
    from bme_desktop.core.recall.embedding import QueryCache
    from bme_desktop.core.recall.pipeline import attach

    entered, release = threading.Event(), threading.Event()

    class HeldEmbedder(HashedNgramEmbedder):
        """Holds the vector maintainer's embedding until released (extraction's passes)."""

        def embed(self, texts: Any) -> Any:
            if threading.current_thread().name == "bme-vectors":
                entered.set()
                release.wait(60)
            return super().embed(texts)

    service = MemoryService.open(tmp_path / "data", attach=False)
    attach(service, lambda: QueryCache(HeldEmbedder(dim=32)))
    attach_extraction(service)
    server = BridgeServer(service, "t" * 40)
    server.start()
    answered: list[dict[str, Any]] = []
    try:
        with httpx.Client(
            base_url=server.url, headers={"Authorization": "Bearer " + "t" * 40}, timeout=120
        ) as api:
            story = [
                {"index": 0, "role": "user", "text": "Where did Lena hide the key?"},
                {
                    "index": 1,
                    "role": "assistant",
                    "text": "Lena hid the silver key under the mill's third step.",
                },
            ]
            pusher = threading.Thread(
                target=lambda: answered.append(sync(api, {"messages": story, "wait": True}))
            )
            pusher.start()
            assert entered.wait(60), "the maintainer never embedded the new memories"
            pusher.join(2)
            assert pusher.is_alive() and not answered  # still waiting for the vectors
            release.set()
            pusher.join(60)
            vectors = api.get("/v1/chats/c").json()["vectors"]
            assert answered and vectors["pending"] is False and vectors["embedded"]
    finally:
        release.set()
        server.stop()
        service.close()
