"""Export chats to the open ``bme-desktop-export`` JSON document.

Everything a chat's memory consists of travels: chat metadata and per-chat state,
messages, extraction batches (without their journals), nodes with all fields, provenance,
life-cycle and review state (deleted ones flagged), edges (deleted ones flagged),
summaries and recall records. Vectors do not: they are derived and rebuilt. Order is
deterministic, so the same memory exports to the same bytes (given the same ``now``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from ... import __version__
from ..model import Edge, Node, RecallRecord, Summary
from ..store import chat_rows
from ..store.reader import ChatNotFound, Reader
from .format import FORMAT_NAME, FORMAT_VERSION


def node_to_json(node: Node) -> dict[str, Any]:
    return {
        "id": node.id,
        "type": node.type,
        "title": node.title,
        "fields": dict(sorted(node.fields.items())),
        "importance": node.importance,
        "tier": node.tier,
        "review_status": node.review_status,
        "pinned": node.pinned,
        "scope": node.scope.to_json(),
        "story_time": node.story_time,
        "level": node.level,
        "parent_id": node.parent_id,
        "srs": node.srs,
        "retrievability": node.retrievability,
        "recall_count": node.recall_count,
        "last_recalled_at": node.last_recalled_at,
        "created_at": node.created_at,
        "updated_at": node.updated_at,
        "source_indices": sorted(set(node.source_indices)),
        "batch_id": node.batch_id,
        "manually_edited": node.manually_edited,
        "deleted": node.deleted_at is not None,
        "deleted_at": node.deleted_at,
        "flags": node.flags,
    }


def edge_to_json(edge: Edge) -> dict[str, Any]:
    return {
        "id": edge.id,
        "from": edge.from_id,
        "to": edge.to_id,
        "relation": edge.relation,
        "strength": edge.strength,
        "valid_from": edge.valid_from,
        "valid_until": edge.valid_until,
        "source_indices": sorted(set(edge.source_indices)),
        "batch_id": edge.batch_id,
        "manually_edited": edge.manually_edited,
        "created_at": edge.created_at,
        "updated_at": edge.updated_at,
        "deleted": edge.deleted_at is not None,
        "deleted_at": edge.deleted_at,
    }


def summary_to_json(s: Summary) -> dict[str, Any]:
    return {
        "id": s.id,
        "level": s.level,
        "kind": s.kind,
        "status": s.status,
        "text": s.text,
        "start_index": s.start_index,
        "end_index": s.end_index,
        "source_ids": list(s.source_ids),
        "batch_id": s.batch_id,
        "created_at": s.created_at,
    }


def recall_to_json(r: RecallRecord) -> dict[str, Any]:
    return {
        "index": r.index,
        "user_input": r.user_input,
        "injection": r.injection,
        "token_estimate": r.token_estimate,
        "elapsed_ms": r.elapsed_ms,
        "nodes": r.nodes,
        "manually_edited": r.manually_edited,
        "created_at": r.created_at,
        "updated_at": r.updated_at,
    }


def export_chat(reader: Reader, chat_id: str) -> dict[str, Any]:
    row = reader.chat_row(chat_id)
    if row is None:
        raise ChatNotFound(chat_id)
    nodes = sorted(reader.all_nodes(chat_id, include_deleted=True), key=lambda n: (n.created_at, n.id))
    summaries = sorted(reader.summaries(chat_id), key=lambda s: (s.level, s.created_at, s.id))
    return {
        "chat_id": chat_id,
        "character": row["character"],
        "user": row["user_name"],
        "character_id": row["character_id"],
        "persona_id": row["persona_id"],
        "world": row["world"],
        "isolated": bool(row["isolated"]),
        "created_at": row["created_at"],
        "last_activity": row["last_activity"],
        "revision": row["revision"],
        "state": row["state"],
        "messages": [
            {
                "index": m.index,
                "role": m.role,
                "name": m.name,
                "text": m.text,
                "swipe_id": m.swipe_id,
                "time": m.time,
            }
            for m in reader.messages(chat_id)
        ],
        "batches": chat_rows.batch_headers(reader, row["pk"]),
        "nodes": [node_to_json(n) for n in nodes],
        "edges": [edge_to_json(e) for e in chat_rows.all_edges(reader, chat_id)],
        "summaries": [summary_to_json(s) for s in summaries],
        "recall_records": [recall_to_json(r) for r in reader.recall_records(chat_id)],
    }


def export_document(reader: Reader, chat_ids: Sequence[str] | None = None, *, now: float) -> dict[str, Any]:
    """The export document of the given chats (all chats when ``None``), sorted by chat id."""
    ids = sorted(reader.chat_ids() if chat_ids is None else chat_ids)
    return {
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "app_version": __version__,
        "exported_at": now,
        "chats": [export_chat(reader, c) for c in ids],
    }


def dumps(document: dict[str, Any]) -> str:
    """Stable text: sorted keys, UTF-8 kept readable (Chinese stays Chinese)."""
    return json.dumps(document, ensure_ascii=False, sort_keys=True, indent=1) + "\n"


def write_document(
    reader: Reader,
    write: Callable[[bytes], object],
    chat_ids: Sequence[str] | None = None,
    *,
    now: float,
    each: Callable[[dict[str, Any]], None] | None = None,
) -> None:
    """``dumps(export_document(...))``, byte for byte, written chat by chat: only one chat is
    in memory at a time. ``each`` sees every chat's document before it is dropped."""
    ids = sorted(reader.chat_ids() if chat_ids is None else chat_ids)
    head, tail = dumps(
        {
            "format": FORMAT_NAME,
            "format_version": FORMAT_VERSION,
            "app_version": __version__,
            "exported_at": now,
            "chats": [],
        }
    ).split('"chats": []')
    write(f'{head}"chats": ['.encode())
    for pos, chat_id in enumerate(ids):
        chat = export_chat(reader, chat_id)
        if each is not None:
            each(chat)
        text = json.dumps(chat, ensure_ascii=False, sort_keys=True, indent=1).replace("\n", "\n  ")
        write(f"{',' if pos else ''}\n  {text}".encode())
    write(f"{chr(10) + ' ' if ids else ''}]{tail}".encode())
