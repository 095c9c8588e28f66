"""Merge two memories into one: the kept node takes the other's evidence, its empty fields
and its edges; the other goes to the recycle bin. One manual batch, so one undo restores both."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from . import editing
from .errors import ValidationError
from .extract.entities import ALIASES_FIELD, aliases_of, with_aliases
from .lorebook import check_writable
from .model import Edge, Node
from .schema import NODE_TYPES, RELATIONS, node_title
from .store.unit_of_work import UnitOfWork

if TYPE_CHECKING:
    from .ports import ManualEdits


def _duplicate(uow: UnitOfWork, chat_id: str, edge: Edge, from_id: str, to_id: str) -> Edge | None:
    """The live edge that already says what the re-pointed ``edge`` would say, if any."""
    found = uow.read.valid_edge_between(chat_id, from_id, to_id, edge.relation)
    relation = RELATIONS.get(edge.relation)
    if found is None and relation is not None and not relation.directed:
        found = uow.read.valid_edge_between(chat_id, to_id, from_id, edge.relation)
    return found if found is not None and found.id != edge.id else None


def _repoint_edges(uow: UnitOfWork, chat_id: str, keep_id: str, other_id: str) -> None:
    for edge in uow.read.edges(chat_id, node_id=other_id):
        from_id = keep_id if edge.from_id == other_id else edge.from_id
        to_id = keep_id if edge.to_id == other_id else edge.to_id
        if from_id == to_id:  # an edge between the two merged nodes: it would be a self-loop
            uow.put_edge(replace(edge, deleted_at=uow.now, updated_at=uow.now))
            continue
        existing = _duplicate(uow, chat_id, edge, from_id, to_id) if edge.is_valid else None
        if existing is not None:
            if edge.strength > existing.strength:
                uow.put_edge(replace(existing, strength=edge.strength, updated_at=uow.now))
            uow.put_edge(replace(edge, deleted_at=uow.now, updated_at=uow.now))
            continue
        uow.put_edge(replace(edge, from_id=from_id, to_id=to_id, updated_at=uow.now))


def _merged_node(uow: UnitOfWork, keep: Node, other: Node, manual: bool = True) -> Node:
    node_type = NODE_TYPES.get(keep.type)
    allowed = set(node_type.field_names) if node_type is not None else set(keep.fields)
    fields = dict(keep.fields)
    for key, value in other.fields.items():
        if key in allowed and value and not fields.get(key):
            fields[key] = value
    if ALIASES_FIELD in allowed and other.fields.get("name"):  # a character or place keeps the other's names
        aliases = with_aliases(fields, [other.fields["name"], *aliases_of(other.fields)])
        if aliases:
            fields[ALIASES_FIELD] = aliases
    flags = dict(keep.flags)
    flags["merged"] = [*flags.get("merged", []), other.id]
    merged = replace(
        keep,
        fields=fields,
        title=node_title(keep.type, fields),
        flags=flags,
        source_indices=sorted(set(keep.source_indices) | set(other.source_indices)),
        importance=max(keep.importance, other.importance),
        pinned=keep.pinned or other.pinned,
        manually_edited=keep.manually_edited or other.manually_edited or manual,
        updated_at=uow.now,
    )
    editing.check_node_values(
        type_id=merged.type,
        fields=merged.fields,
        importance=merged.importance,
        tier=merged.tier,
        review_status=merged.review_status,
        source_indices=merged.source_indices,
    )
    return merged


def merge_in(uow: UnitOfWork, chat_id: str, keep_id: str, other_id: str, *, manual: bool = True) -> Node:
    """The merge as operations on one unit of work (the caller owns the batch). ``manual``:
    a user's merge marks the kept memory as edited by hand; extraction's entity resolution
    (``manual=False``) leaves it open to later extraction."""
    if keep_id == other_id:
        raise ValidationError("other", "a memory cannot be merged with itself")
    keep = editing.require_node(uow, chat_id, keep_id)
    other = editing.require_node(uow, chat_id, other_id)
    check_writable(keep)  # SillyTavern's lorebook owns its memories (core/lorebook.py)
    check_writable(other)
    merged = _merged_node(uow, keep, other, manual)
    _repoint_edges(uow, chat_id, keep_id, other_id)
    uow.put_node(merged)
    editing.delete_node(uow, chat_id, other_id)
    return merged


def merge_nodes(
    service: ManualEdits, chat_id: str, keep_id: str, other_id: str, *, actor: str = "user"
) -> Node:
    """Merge ``other_id`` into ``keep_id`` as one undoable manual edit; returns the kept node."""
    return service.manual_write(
        chat_id, actor, "merge_nodes", lambda uow: merge_in(uow, chat_id, keep_id, other_id)
    )
