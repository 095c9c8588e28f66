"""ST-BME's operations through the real bridge on loopback (issue 17): extraction pending and
rerun, rebuilding the summaries and a range's vectors, force evolve — each one undo step, with
clear errors that change nothing for bad input."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from fakes.openai_server import FakeOpenAIServer, Reply

from bme_desktop.bridge.config import BridgeConfig
from bme_desktop.bridge.server import BridgeServer
from bme_desktop.core.service import MemoryService
from bme_desktop.core.settings import Settings

from .helpers import AUTH, TOKEN, snapshot

TURNS = [
    ("user", "Tomas", "Sera, where are we headed?"),
    ("assistant", "Sera", "To Thornwick. We must find the silver key before the winter fair."),
    ("user", "Tomas", "Who is Kestrel?"),
    ("assistant", "Sera", "Kestrel is a thief from Saltmere. She is clever and quick with a blade."),
    ("user", "Tomas", "I promise I will teach you the sling."),
    ("assistant", "Sera", "In Thornwick no one may carry a sword after dark. The watch is strict."),
    ("user", "Tomas", "Kestrel thinks the key is in the old mill."),
    ("assistant", "Sera", "Kestrel sneaks into the old mill at night and searches the cellar."),
    ("user", "Tomas", "Did she find anything?"),
    ("assistant", "Sera", "Kestrel finally found the silver key under a loose stone. Kestrel is proud."),
    ("user", "Tomas", "What now?"),
    ("assistant", "Sera", "Kestrel smiles. She loves honey cakes and wants to open a bakery in Thornwick."),
]


def _messages() -> list[dict[str, Any]]:
    return [
        {"index": i, "role": role, "name": name, "text": text} for i, (role, name, text) in enumerate(TURNS)
    ]


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[MemoryService, httpx.Client]]:
    settings = Settings()
    settings.embedding.local_model = "hashed-ngram"  # a real index without loading a model: quick
    service = MemoryService.open(
        tmp_path / "data", settings=settings
    )  # extraction, recall, life cycle attached
    server = BridgeServer(service, TOKEN, BridgeConfig(port=0))
    server.start()
    try:
        with httpx.Client(base_url=server.url, headers=AUTH, timeout=120) as api:
            yield service, api
    finally:
        server.stop()
        service.close()


def _extracted(api: httpx.Client) -> None:
    r = api.post("/v1/chats/c/sync", json={"messages": _messages(), "complete": True, "wait": True})
    assert r.status_code == 200, r.text


def _op(api: httpx.Client, task: str, **extra: Any) -> httpx.Response:
    return api.post("/v1/chats/c/maintenance", json={"task": task, "wait": True, **extra})


def _memories(service: MemoryService) -> dict[str, tuple[str, dict[str, str]]]:
    return {n.id: (n.type, dict(n.fields)) for n in service.all_nodes("c")}


def test_extract_pending_reads_only_the_messages_not_read_yet_and_undoes_as_one_step(
    live: tuple[MemoryService, httpx.Client],
) -> None:
    service, api = live
    with service.extraction.pause():  # type: ignore[attr-defined]  # automatic extraction held back
        r = api.post("/v1/chats/c/sync", json={"messages": _messages(), "complete": True})
        assert r.status_code == 200
        assert service.all_nodes("c") == []
        out = _op(api, "extract_pending").json()
    assert out["result"]["batches"] == 6 and out["changes"]["nodes_added"] > 0
    assert service.read(lambda r: r.chat_row("c")["state"]["extracted_to"]) == 11
    again = _op(api, "extract_pending")
    assert again.status_code == 409 and "every message is extracted" in again.json()["error"]["message"]
    assert service.undo("c").value  # one Ctrl+Z: nothing extracted, the messages pending again
    assert service.all_nodes("c") == []
    assert service.read(lambda r: r.chat_row("c")["state"].get("extracted_to", -1)) == -1


def test_reextract_rolls_the_range_back_and_extracts_it_again(
    live: tuple[MemoryService, httpx.Client],
) -> None:
    service, api = live
    _extracted(api)
    before = _memories(service)
    early = {k: v for k, v in before.items() if min(service.get_node("c", k).source_indices or [0]) < 5}
    out = _op(api, "reextract", **{"from": 6}).json()
    result = out["result"]
    assert result["range"]["from"] <= 6 and result["range"]["to"] == 11 and result["batches"] >= 3
    after = _memories(service)
    assert early.items() <= after.items()  # memories from before the range are untouched
    assert sorted(v[0] for v in after.values()) == sorted(v[0] for v in before.values())  # same kinds again
    assert service.undo("c").value
    assert _memories(service) == before


def test_rebuild_summaries_writes_the_summary_state_again_from_the_batches(
    live: tuple[MemoryService, httpx.Client],
) -> None:
    service, api = live
    _extracted(api)
    old = {s.id: (s.start_index, s.end_index) for s in service.read(lambda r: r.summaries("c"))}
    assert old
    out = _op(api, "rebuild_summaries").json()
    new = {s.id: (s.start_index, s.end_index) for s in service.read(lambda r: r.summaries("c"))}
    assert out["result"]["removed"] == len(old) and out["result"]["summaries"] == len(new)
    assert not old.keys() & new.keys() and sorted(old.values()) == sorted(new.values())
    assert service.undo("c").value
    assert {s.id for s in service.read(lambda r: r.summaries("c"))} == old.keys()


def test_rebuild_vectors_for_a_range_embeds_only_its_memories(
    live: tuple[MemoryService, httpx.Client],
) -> None:
    service, api = live
    _extracted(api)
    in_range = [n for n in service.all_nodes("c") if any(2 <= i <= 5 for i in n.source_indices)]
    out = _op(api, "rebuild_vectors", **{"from": 2, "to": 5}).json()
    assert out["result"] == {"done": len(in_range), "memories": len(in_range), "range": {"from": 2, "to": 5}}
    stats = api.get("/v1/chats/c").json()["vectors"]
    assert stats["embedded"] == len(service.all_nodes("c")) and not stats["pending"]


def test_evolve_offline_revises_the_older_memories_linked_to_new_ones(
    live: tuple[MemoryService, httpx.Client],
) -> None:
    service, api = live
    _extracted(api)
    before = _memories(service)
    out = _op(api, "evolve").json()["result"]
    assert out["path"] == "rules" and out["revised"] > 0
    revised = [n for n in service.all_nodes("c") if n.flags.get("evolved_by")]
    assert len(revised) == out["revised"]
    for node in revised:
        assert before[node.id][1] != node.fields  # each one's text changed, by a newer linked memory
        newer = {e.from_id for e in service.edges("c", node_id=node.id) if e.relation == "evolves"}
        assert newer == set(node.flags["evolved_by"])
    again = _op(api, "evolve")  # nothing new since
    assert again.status_code == 409 and "no new memory" in again.json()["error"]["message"]
    assert (
        _op(api, "evolve", **{"from": 0, "to": 11}).json()["result"]["revised"] == 0
    )  # the rules are idempotent
    assert service.undo("c").value
    assert _memories(service) == before


def test_evolve_with_a_model_takes_its_revisions(live: tuple[MemoryService, httpx.Client]) -> None:
    service, api = live
    _extracted(api)

    def answer(request: dict[str, Any]) -> Reply:  # revise the first editable field of pair 1
        user = request["messages"][1]["content"]
        data = json.loads(user[user.index("{") :])
        field = data["pairs"][0]["old"]["editable"][0]
        return Reply.json(
            {"updates": [{"pair": 1, "fields": {field: "revised by the model"}, "tags": ["evolved"]}]}
        )

    with FakeOpenAIServer(responder=answer) as server:
        service.settings.llm = replace(
            service.settings.llm, enabled=True, base_url=server.base_url, model="fake-chat", max_retries=0
        )
        out = _op(api, "evolve").json()["result"]
        asked = server.requests_to("/chat/completions")
    assert len(asked) == 1 and "evolution" in asked[0].json["messages"][0]["content"]
    assert out["path"] == "llm: fake-chat" and out["revised"] == 1
    (node,) = [n for n in service.all_nodes("c") if n.flags.get("evolved_by")]
    assert node.flags["tags"] == ["evolved"] and node.flags["evolved_path"] == "llm: fake-chat"
    assert "revised by the model" in node.fields.values()


def _quiet(service: MemoryService) -> None:
    """Background bookkeeping done: the vectors of new memories, writes queued for later."""
    service.recaller.vectors.wait_idle()  # type: ignore[union-attr]
    service.flush_later_writes()


BAD = [
    ({"task": "reextract", "from": 9, "to": 3}, 400, "must not be after"),
    ({"task": "reextract", "from": 40}, 400, "last message is 11"),
    ({"task": "reextract", "from": -1}, 400, "from"),
    ({"task": "reextract"}, 400, "needs the first message"),
    ({"task": "extract_pending", "from": 2}, 400, "takes no message range"),
    ({"task": "rebuild_summaries", "to": 2}, 400, "takes no message range"),
    ({"task": "extract_pending"}, 409, "every message is extracted"),
    ({"task": "evolve", "from": 0, "to": 0}, 409, "no new memory"),
]


def test_bad_input_is_a_clear_error_and_changes_nothing(live: tuple[MemoryService, httpx.Client]) -> None:
    service, api = live
    _extracted(api)  # one extracted chat for every case (extracting is the slow part)
    _quiet(service)
    digest = snapshot(service)
    for body, status, words in BAD:
        r = api.post("/v1/chats/c/maintenance", json=body)
        assert r.status_code == status and words in r.json()["error"]["message"], (body, r.text)
        _quiet(service)
        assert snapshot(service) == digest, body
    r = api.post("/v1/chats/c/maintenance", json={"task": "reextract", "from": 40, "wait": False})
    assert r.status_code == 400 and snapshot(service) == digest  # wait=false checks before it answers


def test_an_unknown_chat_is_404(live: tuple[MemoryService, httpx.Client]) -> None:
    _service, api = live
    r = api.post("/v1/chats/nope/maintenance", json={"task": "reextract", "from": 0})
    assert r.status_code == 404 and "nope" in r.json()["error"]["message"]
