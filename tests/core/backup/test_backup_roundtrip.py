"""Export then import gives back the same memory: nodes, edges, messages, provenance."""

from __future__ import annotations

import json
from typing import Any

from backup_sample import CHAT

from bme_desktop.core.backup.export import dumps, export_document
from bme_desktop.core.backup.importer import import_chats, remap_json
from bme_desktop.core.backup.validate import load_document
from bme_desktop.core.service import MemoryService


def export(service: MemoryService, chat_id: str) -> dict[str, Any]:
    doc = service.read(lambda r: export_document(r, [chat_id], now=0.0))
    chat: dict[str, Any] = doc["chats"][0]
    return chat


def canonical(chat: dict[str, Any]) -> dict[str, Any]:
    """The chat with its ids replaced by stable names (node type:title, batch position)."""
    names = {n["id"]: f"{n['type']}:{n['title']}" for n in chat["nodes"]}
    names.update({e["id"]: f"{names[e['from']]}-{e['relation']}-{names[e['to']]}" for e in chat["edges"]})
    names.update({s["id"]: f"summary:{s['text']}" for s in chat["summaries"]})
    batches = {b["id"]: pos for pos, b in enumerate(chat["batches"])}
    out = remap_json({k: v for k, v in chat.items() if k != "chat_id"}, names)
    for item in out["nodes"] + out["edges"] + out["summaries"]:
        item["batch_id"] = None if item["batch_id"] is None else batches[item["batch_id"]]
    for b in out["batches"]:
        b["id"] = batches[b["id"]]
        b["status"] = "discarded" if b["kind"] == "manual" else b["status"]
    for key in ("nodes", "edges", "summaries"):
        out[key].sort(key=lambda item: json.dumps(item, sort_keys=True))
    return out


def test_import_as_new_chat_equals_the_original_with_ids_remapped(filled: MemoryService) -> None:
    text = dumps(filled.read(lambda r: export_document(r, now=0.0)))
    result = import_chats(filled, load_document(text.encode()), as_chat="copy")
    assert result.imported == ["copy"] and result.remapped == ["copy"]
    original, copy = export(filled, CHAT), export(filled, "copy")
    assert {n["id"] for n in original["nodes"]}.isdisjoint(n["id"] for n in copy["nodes"])
    assert canonical(copy) == canonical(original)


def test_round_trip_keeps_provenance_and_deleted_flags(filled: MemoryService) -> None:
    doc = filled.read(lambda r: export_document(r, now=0.0))
    import_chats(filled, load_document(dumps(doc).encode()), as_chat="copy")
    copy = export(filled, "copy")
    by_title = {n["title"]: n for n in copy["nodes"]}
    assert by_title["Ann"]["source_indices"] == [0, 2] and by_title["Ann"]["batch_id"] is not None
    assert by_title["Ann fears bats"]["deleted"] is True
    assert by_title["North castle"]["review_status"] == "pending"
    assert copy["messages"][0]["text"] == "我们去北方的城堡。"
    # ids inside chat state and recall records follow the remapped nodes
    castle = by_title["North castle"]["id"]
    assert copy["state"]["knowledge"]["Ann"]["known"] == [castle]
    assert copy["recall_records"][0]["nodes"][0]["id"] == castle


def test_export_is_deterministic(filled: MemoryService) -> None:
    first = dumps(filled.read(lambda r: export_document(r, now=5.0)))
    assert dumps(filled.read(lambda r: export_document(r, now=5.0))) == first


def test_replace_into_a_fresh_store_keeps_ids(filled: MemoryService, tmp_path: Any) -> None:
    doc = filled.read(lambda r: export_document(r, now=0.0))
    fresh = MemoryService.open(tmp_path / "fresh", attach=False)
    try:
        result = import_chats(fresh, load_document(dumps(doc).encode()), mode="replace")
        assert result.remapped == []
        assert export(fresh, CHAT)["nodes"] == export(filled, CHAT)["nodes"]
    finally:
        fresh.close()


def test_imported_extraction_batch_still_rolls_back_when_its_message_changes(filled: MemoryService) -> None:
    from bme_desktop.core.model import MessageIn

    doc = filled.read(lambda r: export_document(r, now=0.0))
    import_chats(filled, load_document(dumps(doc).encode()), as_chat="copy")
    messages = [MessageIn(m.index, m.role, m.text, m.name, m.swipe_id) for m in filled.messages("copy")]
    messages[0] = MessageIn(0, "user", "We stay home.", name="Ann")
    filled.sync("copy", messages, complete=True)
    titles = {n.title for n in filled.all_nodes("copy")}
    assert "Ann" not in titles and "No magic" in titles


def test_round_trip_keeps_scopes_and_who_is_who(filled: MemoryService) -> None:
    from bme_desktop.core.scopes import ChatIdentity

    filled.sync(
        CHAT,
        [],
        identity=ChatIdentity(
            character="Ann", user="Bo", character_id="ann.png", persona_id="bo", world="Northlands"
        ),
    )
    ann = next(n for n in filled.all_nodes(CHAT) if n.title == "Ann")
    filled.move_scope(CHAT, ann.id, "world")
    import_chats(
        filled,
        load_document(dumps(filled.read(lambda r: export_document(r, now=0.0))).encode()),
        as_chat="copy",
    )
    copy = export(filled, "copy")
    assert (copy["character_id"], copy["persona_id"], copy["world"], copy["isolated"]) == (
        "ann.png",
        "bo",
        "Northlands",
        False,
    )
    assert {n["title"]: n["scope"]["kind"] for n in copy["nodes"]}["Ann"] == "world"
    assert filled.read(lambda r: r.chat_scope("copy")).character_key == "id:ann.png"
