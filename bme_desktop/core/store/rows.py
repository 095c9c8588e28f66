"""Mapping between table rows and the core's records."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..model import Edge, Message, Node, RecallRecord, Scope, Summary
from ..schema import node_text

RowLike = Mapping[Any, Any]


def search_text(node: Node) -> str:
    return (node.title + " " + " ".join(node.fields.values())).lower()


def node_to_row(node: Node, chat_pk: int) -> dict[str, Any]:
    return {
        "id": node.id,
        "chat_pk": chat_pk,
        "type": node.type,
        "title": node.title[:256],
        "fields": dict(node.fields),
        "importance": float(node.importance),
        "tier": node.tier,
        "review_status": node.review_status,
        "pinned": bool(node.pinned),
        "scope_layer": node.scope.layer,
        "scope_owner": node.scope.owner,
        "region": node.scope.region,
        "scope_kind": node.scope.kind,
        "story_time": node.story_time,
        "level": node.level,
        "parent_id": node.parent_id,
        "srs": node.srs,
        "retrievability": float(node.retrievability),
        "recall_count": node.recall_count,
        "last_recalled_at": node.last_recalled_at,
        "created_at": node.created_at,
        "updated_at": node.updated_at,
        "source_indices": sorted(set(node.source_indices)),
        "src_min": min(node.source_indices) if node.source_indices else None,
        "batch_id": node.batch_id,
        "manually_edited": bool(node.manually_edited),
        "deleted_at": node.deleted_at,
        "flags": dict(node.flags),
        "search_text": search_text(node),
    }


def row_to_node(row: RowLike, chat_id: str) -> Node:
    return Node(
        id=row["id"],
        chat_id=chat_id,
        type=row["type"],
        title=row["title"],
        fields=dict(row["fields"]),
        importance=row["importance"],
        tier=row["tier"],
        review_status=row["review_status"],
        pinned=bool(row["pinned"]),
        scope=Scope(
            layer=row["scope_layer"], owner=row["scope_owner"], region=row["region"], kind=row["scope_kind"]
        ),
        story_time=row["story_time"],
        level=row["level"],
        parent_id=row["parent_id"],
        srs=row["srs"],
        retrievability=row["retrievability"],
        recall_count=row["recall_count"],
        last_recalled_at=row["last_recalled_at"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        source_indices=list(row["source_indices"]),
        batch_id=row["batch_id"],
        manually_edited=bool(row["manually_edited"]),
        deleted_at=row["deleted_at"],
        flags=dict(row["flags"]),
    )


def edge_to_row(edge: Edge, chat_pk: int) -> dict[str, Any]:
    return {
        "id": edge.id,
        "chat_pk": chat_pk,
        "from_id": edge.from_id,
        "to_id": edge.to_id,
        "relation": edge.relation,
        "strength": float(edge.strength),
        "valid_from": edge.valid_from,
        "valid_until": edge.valid_until,
        "source_indices": sorted(set(edge.source_indices)),
        "batch_id": edge.batch_id,
        "manually_edited": bool(edge.manually_edited),
        "created_at": edge.created_at,
        "updated_at": edge.updated_at,
        "deleted_at": edge.deleted_at,
    }


def row_to_edge(row: RowLike, chat_id: str) -> Edge:
    return Edge(
        id=row["id"],
        chat_id=chat_id,
        from_id=row["from_id"],
        to_id=row["to_id"],
        relation=row["relation"],
        strength=row["strength"],
        valid_from=row["valid_from"],
        valid_until=row["valid_until"],
        source_indices=list(row["source_indices"]),
        batch_id=row["batch_id"],
        manually_edited=bool(row["manually_edited"]),
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        deleted_at=row["deleted_at"],
    )


def row_to_message(row: RowLike, chat_id: str) -> Message:
    return Message(
        chat_id=chat_id,
        index=row["idx"],
        role=row["role"],
        name=row["name"],
        text=row["text"],
        swipe_id=row["swipe_id"],
        time=row["time"],
        fingerprint=row["fingerprint"],
    )


def row_to_recall(row: RowLike, chat_id: str) -> RecallRecord:
    return RecallRecord(
        chat_id=chat_id,
        index=row["idx"],
        user_input=row["user_input"],
        injection=row["injection"],
        token_estimate=row["token_estimate"],
        elapsed_ms=row["elapsed_ms"],
        nodes=list(row["nodes"]),
        manually_edited=bool(row["manually_edited"]),
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


def summary_to_row(summary: Summary, chat_pk: int) -> dict[str, Any]:
    return {
        "id": summary.id,
        "chat_pk": chat_pk,
        "level": summary.level,
        "kind": summary.kind,
        "status": summary.status,
        "text": summary.text,
        "start_index": summary.start_index,
        "end_index": summary.end_index,
        "source_ids": list(summary.source_ids),
        "batch_id": summary.batch_id,
        "created_at": summary.created_at,
    }


def row_to_summary(row: RowLike, chat_id: str) -> Summary:
    return Summary(
        id=row["id"],
        chat_id=chat_id,
        level=row["level"],
        kind=row["kind"],
        status=row["status"],
        text=row["text"],
        start_index=row["start_index"],
        end_index=row["end_index"],
        source_ids=list(row["source_ids"]),
        batch_id=row["batch_id"],
        created_at=row["created_at"],
    )


def node_one_line(node: Node) -> str:
    return node_text(node.type, node.fields)
