"""The review centre: new automatic long-term memories and promotions wait as ``pending``
(per ``audit_mode``: all / long_term / none) until a person approves, edits or rejects them.

Each decision is one undoable manual batch with one audit-log entry per memory. Approving
or rejecting changes only the status (the memory stays open to later extraction updates);
editing counts as the user's own version. Recall injects memories for which
``is_injectable`` (in ``tiers``) holds: visible and not rejected, and with the strict
``review_gate`` on, not pending either (unless a promotion sent them to review).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .. import editing
from ..errors import ValidationError
from ..model import Node, NodeQuery
from ..store.unit_of_work import UnitOfWork

if TYPE_CHECKING:
    from ..ports import Editing


def pending(service: Editing, chat_id: str, *, limit: int = 200, offset: int = 0) -> tuple[list[Node], int]:
    """Memories waiting for review, oldest first, and how many there are."""
    return service.search_nodes(
        chat_id,
        NodeQuery(
            review_status="pending", limit=limit, offset=offset, order_by="created_at", descending=False
        ),
    )


def _decide(
    service: Editing,
    chat_id: str,
    node_ids: Sequence[str],
    status: str,
    action: str,
    actor: str,
    reason: str | None = None,
) -> list[Node]:
    ids = list(dict.fromkeys(node_ids))
    if not ids:
        raise ValidationError("node_ids", "name at least one memory")

    def op(uow: UnitOfWork) -> list[Node]:
        out = []
        for node_id in ids:
            node = editing.require_node(uow, chat_id, node_id)
            flags = {**node.flags, "reviewed": {"status": status, "by": actor, "at": uow.now}}
            if reason:
                flags["reviewed"]["reason"] = reason
            updated = editing.patch_node(uow, chat_id, node_id, {"review_status": status}, manual=False)
            updated.flags = flags
            uow.put_node(updated)
            uow.audit(chat_id, actor, action, node_id, previous=node.review_status, reason=reason)
            out.append(updated)
        return out

    result: list[Node] = service.manual_write(chat_id, actor, f"{action} ({len(ids)})", op)
    return result


DECISIONS = {"approved": "review.approve", "rejected": "review.reject", "pending": "review.reopen"}


def decide(
    service: Editing,
    chat_id: str,
    node_ids: Sequence[str],
    status: str,
    *,
    actor: str = "user",
    reason: str | None = None,
) -> list[Node]:
    """Set the review status of memories as a review decision (not an edit: a later edit of
    their source messages still rolls them back and extracts them again)."""
    if status not in DECISIONS:
        raise ValidationError("review_status", f"must be one of {', '.join(DECISIONS)}")
    return _decide(service, chat_id, node_ids, status, DECISIONS[status], actor, reason)


def approve(service: Editing, chat_id: str, node_ids: Sequence[str], *, actor: str = "user") -> list[Node]:
    """Approve one or many memories (one undoable batch)."""
    return _decide(service, chat_id, node_ids, "approved", "review.approve", actor)


def reject(
    service: Editing, chat_id: str, node_ids: Sequence[str], *, actor: str = "user", reason: str | None = None
) -> list[Node]:
    """Reject memories: they stay (for provenance) but are never injected, and promotions
    or later passes never put them back to pending."""
    return _decide(service, chat_id, node_ids, "rejected", "review.reject", actor, reason)


def edit_and_approve(
    service: Editing, chat_id: str, node_id: str, patch: dict[str, Any], *, actor: str = "user"
) -> Node:
    """Correct a pending memory and approve it in one step (the edit is the user's version)."""

    def op(uow: UnitOfWork) -> Node:
        before = editing.require_node(uow, chat_id, node_id)
        updated = editing.patch_node(uow, chat_id, node_id, {**patch, "review_status": "approved"})
        updated.flags = {
            **updated.flags,
            "reviewed": {"status": "approved", "by": actor, "at": uow.now, "edited": sorted(patch)},
        }
        uow.put_node(updated)
        uow.audit(
            chat_id, actor, "review.edit", node_id, previous=before.review_status, changed=sorted(patch)
        )
        return updated

    result: Node = service.manual_write(chat_id, actor, "update_node", op)
    return result


def approve_all(service: Editing, chat_id: str, *, actor: str = "user") -> list[Node]:
    """Approve every pending memory of the chat (bulk)."""
    nodes, _ = pending(service, chat_id, limit=100_000)
    return approve(service, chat_id, [n.id for n in nodes], actor=actor) if nodes else []
