"""JSON renderings of the core's records, exactly as the protocol's "What a memory looks like"."""

from __future__ import annotations

from typing import Any

from ..core.clock import iso
from ..core.events import ChangeRecord
from ..core.lorebook import is_read_only, lore_of
from ..core.model import ChatStats, Edge, Node, RecalledNode, RecallRecord, RecallResult
from ..core.schema import NODE_TYPES, node_text

# What a memory's flags may tell a client: which memory replaced it (or which it replaced) and
# when it held, in story time (message indices) and record time (UNIX seconds).
PUBLIC_FLAGS = ("superseded_by", "supersedes", "validity")


def one_line(node: Node) -> str:
    """A readable one-line rendering; tolerant of types this version does not know."""
    if node.type in NODE_TYPES:
        return node_text(node.type, node.fields)
    return " ".join(str(v) for v in node.fields.values()).replace("\n", " ")


def node_json(node: Node) -> dict[str, Any]:
    return {
        "id": node.id,
        "chat_id": node.chat_id,
        "type": node.type,
        "title": node.title,
        "text": one_line(node),
        "fields": dict(node.fields),
        "importance": node.importance,
        "tier": node.tier,
        "review_status": node.review_status,
        "pinned": node.pinned,
        "scope": node.scope.to_json(),
        "story_time": node.story_time,
        "retrievability": node.retrievability,
        "recall_count": node.recall_count,
        "last_recalled_at": iso(node.last_recalled_at),
        "created_at": iso(node.created_at),
        "updated_at": iso(node.updated_at),
        "source_indices": list(node.source_indices),
        "manually_edited": node.manually_edited,
        "deleted_at": iso(node.deleted_at),
        "flags": {k: node.flags[k] for k in PUBLIC_FLAGS if k in node.flags},
        "lorebook": lore_json(node),
    }


def lore_json(node: Node) -> dict[str, Any] | None:
    """Where a memory from a lorebook came from (core/lorebook.py): the book, the entry's uid,
    ``sillytavern`` (read-only: kept in step with SillyTavern) or ``file`` (imported, editable)."""
    lore = lore_of(node)
    if lore is None:
        return None
    return {
        "book": lore.get("book"),
        "uid": lore.get("uid"),
        "source": lore.get("source"),
        "read_only": is_read_only(node),
    }


def edge_json(edge: Edge) -> dict[str, Any]:
    return {
        "id": edge.id,
        "from": edge.from_id,
        "to": edge.to_id,
        "relation": edge.relation,
        "strength": edge.strength,
        "valid_from": iso(edge.valid_from),
        "valid_until": iso(edge.valid_until),
        "source_indices": list(edge.source_indices),
        "manually_edited": edge.manually_edited,
        "created_at": iso(edge.created_at),
        "updated_at": iso(edge.updated_at),
    }


def stats_json(stats: ChatStats) -> dict[str, Any]:
    return {
        "chat_id": stats.chat_id,
        "character": stats.character,
        "user": stats.user,
        "message_count": stats.message_count,
        "node_count": stats.node_count,
        "edge_count": stats.edge_count,
        "nodes_by_type": dict(stats.nodes_by_type),
        "nodes_by_tier": dict(stats.nodes_by_tier),
        "pending_reviews": stats.pending_reviews,
        "deleted_nodes": stats.deleted_nodes,
        "last_activity": iso(stats.last_activity),
        "revision": stats.revision,
        "character_id": stats.character_id,
        "persona_id": stats.persona_id,
        "world": stats.world,
        "isolated": stats.isolated,
        "shared": dict(stats.shared_by_kind),
    }


def recalled_node_json(item: RecalledNode) -> dict[str, Any]:
    return {
        **node_json(item.node),
        "score": round(item.score, 6),
        "bucket": item.bucket,
        "components": {k: round(v, 6) for k, v in item.components.items()},
    }


def recall_json(result: RecallResult, *, index: int | None) -> dict[str, Any]:
    return {
        "injection": result.injection,
        "token_estimate": result.token_estimate,
        "elapsed_ms": round(result.elapsed_ms, 3),
        "nodes": [recalled_node_json(item) for item in result.nodes],
        "index": index,
        "skipped_stages": list(result.skipped_stages),
        "more_not_shown": result.more_not_shown,
        "held_for_review": result.held_for_review,
    }


def kept_node_json(saved: dict[str, Any], current: Node | None) -> dict[str, Any]:
    """A node of a kept recall: the memory as it is now (when it still exists), with the
    score and bucket it had when recalled."""
    base = (
        node_json(current)
        if current is not None
        else {
            "id": saved.get("id"),
            "type": saved.get("type"),
            "title": saved.get("title"),
            "text": saved.get("text", saved.get("title", "")),
            "source_indices": saved.get("source_indices", []),
            "deleted_at": None,
        }
    )
    return {
        **base,
        "score": saved.get("score"),
        "bucket": saved.get("bucket"),
        "components": saved.get("components", {}),
    }


def record_json(record: RecallRecord, current: dict[str, Node]) -> dict[str, Any]:
    return {
        "chat_id": record.chat_id,
        "index": record.index,
        "user_input": record.user_input,
        "injection": record.injection,
        "token_estimate": record.token_estimate,
        "elapsed_ms": round(record.elapsed_ms, 3),
        "nodes": [kept_node_json(saved, current.get(str(saved.get("id")))) for saved in record.nodes],
        "manually_edited": record.manually_edited,
        "created_at": iso(record.created_at),
        "updated_at": iso(record.updated_at),
    }


def changes_json(change: ChangeRecord) -> dict[str, int]:
    counts = change.counts()
    return {
        "nodes_changed": counts["nodes_changed"],
        "nodes_added": counts["nodes_added"],
        "nodes_removed": counts["nodes_removed"],
        "edges_added": counts["edges_added"],
        "edges_changed": counts["edges_changed"],
        "edges_removed": counts["edges_removed"],
    }
