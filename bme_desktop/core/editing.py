"""Memory edits as operations on a unit of work: create, patch, delete and restore nodes;
link and unlink. The service wraps each in a journaled batch so it can be undone."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field, replace
from typing import Any

from .errors import NotFound, ValidationError
from .model import Edge, Node, Scope
from .schema import (
    RELATIONS,
    REVIEW_STATUSES,
    SCOPE_LAYERS,
    TIERS,
    node_title,
    validate_node_fields,
)
from .scopes import check_kind
from .store.unit_of_work import UnitOfWork

PATCHABLE = (
    "fields",
    "importance",
    "tier",
    "review_status",
    "pinned",
    "scope",
    "story_time",
    "source_indices",
)


def new_id() -> str:
    return uuid.uuid4().hex


@dataclass
class NodeDraft:
    type: str
    fields: dict[str, str]
    importance: float = 5.0
    tier: str = "long_term"
    review_status: str = "approved"
    pinned: bool = False
    scope: Scope = field(default_factory=Scope)
    story_time: dict[str, Any] | None = None
    source_indices: list[int] = field(default_factory=list)


def check_scope(scope: Scope, where: str = "scope") -> None:
    if scope.layer not in SCOPE_LAYERS:
        raise ValidationError(f"{where}.layer", f"must be one of {', '.join(SCOPE_LAYERS)}")
    if scope.layer == "pov" and not scope.owner:
        raise ValidationError(f"{where}.owner", "a point-of-view memory needs an owner")
    check_kind(scope.kind, f"{where}.kind")
    for name, value in (("owner", scope.owner), ("region", scope.region)):
        if value is not None and (not isinstance(value, str) or len(value) > 256):
            raise ValidationError(f"{where}.{name}", "must be text of at most 256 characters")


def check_move(uow: UnitOfWork, chat_id: str, kind: str) -> None:
    """A memory can be shared only along what the chat names: its character, its persona, its
    world; an isolated chat shares nothing."""
    chat = uow.read.chat_scope(chat_id)
    if kind == "chat":
        return
    if chat.isolated:
        raise ValidationError(
            "scope.kind", "the chat is isolated: it shares nothing (mark it not isolated first)"
        )
    if chat.key_of(kind) is None:
        what = {"character": "no character", "persona": "no user persona", "world": "no world"}[kind]
        raise ValidationError(
            "scope.kind", f"the chat names {what}, so there is nothing to share the memory with"
        )


def move_scope(uow: UnitOfWork, chat_id: str, node_id: str, kind: str) -> Node:
    """Move a memory to another scope (shared with the chat's character, persona or world, or
    back to the chat alone). Not a content edit: the memory stays derived from its messages, so
    a rollback of those messages still takes it back, whatever its scope."""
    check_kind(kind, "kind")
    node = require_node(uow, chat_id, node_id)
    if node.scope.kind == kind:
        return node
    check_move(uow, chat_id, kind)
    moved = replace(node, scope=replace(node.scope, kind=kind), updated_at=uow.now)
    uow.put_node(moved)
    return moved


def check_node_values(
    *,
    type_id: str,
    fields: dict[str, Any],
    importance: float,
    tier: str,
    review_status: str,
    source_indices: list[int],
) -> None:
    validation = validate_node_fields(type_id, fields)
    if not validation.ok:
        issue = validation.issues[0]
        raise ValidationError(issue.field, issue.message)
    if isinstance(importance, bool) or not isinstance(importance, int | float) or not 0 <= importance <= 10:
        raise ValidationError("importance", "must be a number from 0 to 10")
    if tier not in TIERS:
        raise ValidationError("tier", f"must be one of {', '.join(TIERS)}")
    if review_status not in REVIEW_STATUSES:
        raise ValidationError("review_status", f"must be one of {', '.join(REVIEW_STATUSES)}")
    if not isinstance(source_indices, list) or not all(
        isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in source_indices
    ):
        raise ValidationError("source_indices", "must be a list of message indices (whole numbers ≥ 0)")


def create_node(uow: UnitOfWork, chat_id: str, draft: NodeDraft, *, manual: bool = True) -> Node:
    check_node_values(
        type_id=draft.type,
        fields=draft.fields,
        importance=draft.importance,
        tier=draft.tier,
        review_status=draft.review_status,
        source_indices=draft.source_indices,
    )
    check_scope(draft.scope)
    node = Node(
        id=new_id(),
        chat_id=chat_id,
        type=draft.type,
        title=node_title(draft.type, draft.fields),
        fields={k: v.strip() for k, v in draft.fields.items()},
        importance=float(draft.importance),
        tier=draft.tier,
        review_status=draft.review_status,
        pinned=draft.pinned,
        scope=draft.scope,
        story_time=draft.story_time,
        created_at=uow.now,
        updated_at=uow.now,
        source_indices=sorted(set(draft.source_indices)),
        manually_edited=manual,
    )
    uow.put_node(node, new=True)
    return node


def require_node(uow: UnitOfWork, chat_id: str, node_id: str, *, include_deleted: bool = False) -> Node:
    node = uow.read.node(chat_id, node_id, include_deleted=include_deleted)
    if node is None:
        raise NotFound(f"no memory {node_id!r} in chat {chat_id!r}")
    return node


def patch_node(
    uow: UnitOfWork, chat_id: str, node_id: str, patch: dict[str, Any], *, manual: bool = True
) -> Node:
    unknown = set(patch) - set(PATCHABLE)
    if unknown:
        raise ValidationError(sorted(unknown)[0], f"cannot be changed; changeable: {', '.join(PATCHABLE)}")
    node = require_node(uow, chat_id, node_id)
    fields = dict(node.fields)
    if "fields" in patch:
        if not isinstance(patch["fields"], dict):
            raise ValidationError("fields", "must be an object of text values")
        for key, value in patch["fields"].items():
            if value is None or value == "":
                fields.pop(key, None)
            else:
                fields[key] = value.strip() if isinstance(value, str) else value
    scope = node.scope
    if "scope" in patch:
        raw = patch["scope"]
        if isinstance(raw, Scope):
            scope = raw
        elif isinstance(raw, dict) and set(raw) <= {"layer", "owner", "region", "kind"}:
            scope = Scope(
                layer=raw.get("layer", scope.layer),
                owner=raw.get("owner", scope.owner),
                region=raw.get("region", scope.region),
                kind=raw.get("kind", scope.kind),
            )
        else:
            raise ValidationError("scope", "must be an object with layer, owner, region and kind")
        check_scope(scope)
        if scope.kind != node.scope.kind:
            check_move(uow, chat_id, scope.kind)
    updated = replace(
        node,
        fields=fields,
        scope=scope,
        importance=patch.get("importance", node.importance),
        tier=patch.get("tier", node.tier),
        review_status=patch.get("review_status", node.review_status),
        pinned=patch.get("pinned", node.pinned),
        story_time=patch.get("story_time", node.story_time),
        source_indices=patch.get("source_indices", node.source_indices),
        updated_at=uow.now,
        manually_edited=node.manually_edited or manual,
    )
    check_node_values(
        type_id=updated.type,
        fields=updated.fields,
        importance=updated.importance,
        tier=updated.tier,
        review_status=updated.review_status,
        source_indices=updated.source_indices,
    )
    if not isinstance(updated.pinned, bool):
        raise ValidationError("pinned", "must be true or false")
    if updated.story_time is not None and not isinstance(updated.story_time, dict):
        raise ValidationError("story_time", "must be an object or null")
    updated.importance = float(updated.importance)
    updated.title = node_title(updated.type, updated.fields)
    uow.put_node(updated)
    return updated


def delete_node(uow: UnitOfWork, chat_id: str, node_id: str) -> Node:
    """Move a node and its edges to the recycle bin."""
    node = require_node(uow, chat_id, node_id)
    for edge in uow.read.edges(chat_id, node_id=node_id):
        uow.put_edge(replace(edge, deleted_at=uow.now, updated_at=uow.now))
    deleted = replace(node, deleted_at=uow.now, updated_at=uow.now)
    uow.put_node(deleted)
    return deleted


def restore_node(uow: UnitOfWork, chat_id: str, node_id: str) -> Node:
    node = require_node(uow, chat_id, node_id, include_deleted=True)
    if node.deleted_at is None:
        return node
    for edge in uow.read.edges_deleted_at(chat_id, node_id, node.deleted_at):
        uow.put_edge(replace(edge, deleted_at=None, updated_at=uow.now))
    restored = replace(node, deleted_at=None, updated_at=uow.now)
    uow.put_node(restored)
    return restored


def link(
    uow: UnitOfWork,
    chat_id: str,
    from_id: str,
    to_id: str,
    relation: str,
    *,
    strength: float | None = None,
    source_indices: list[int] | None = None,
    manual: bool = True,
) -> Edge:
    """Create an edge, or strengthen the valid edge with the same ends and relation."""
    if relation not in RELATIONS:
        raise ValidationError("relation", f"unknown relation {relation!r}; known: {', '.join(RELATIONS)}")
    if from_id == to_id:
        raise ValidationError("to", "an edge cannot link a memory to itself")
    if strength is None:
        strength = RELATIONS[relation].default_strength
    if isinstance(strength, bool) or not isinstance(strength, int | float) or not 0 <= strength <= 1:
        raise ValidationError("strength", "must be a number from 0 to 1")
    require_node(uow, chat_id, from_id)
    require_node(uow, chat_id, to_id)
    existing = uow.read.valid_edge_between(chat_id, from_id, to_id, relation)
    if existing is not None:
        if strength > existing.strength:
            existing = replace(existing, strength=float(strength), updated_at=uow.now)
            uow.put_edge(existing)
        return existing
    edge = Edge(
        id=new_id(),
        chat_id=chat_id,
        from_id=from_id,
        to_id=to_id,
        relation=relation,
        strength=float(strength),
        valid_from=uow.now,
        source_indices=list(source_indices or []),
        manually_edited=manual,
        created_at=uow.now,
        updated_at=uow.now,
    )
    uow.put_edge(edge, new=True)
    return edge


def unlink(uow: UnitOfWork, chat_id: str, edge_id: str) -> Edge:
    edge = uow.read.edge(chat_id, edge_id)
    if edge is None:
        raise NotFound(f"no edge {edge_id!r} in chat {chat_id!r}")
    removed = replace(edge, deleted_at=uow.now, updated_at=uow.now)
    uow.put_edge(removed)
    return removed
