"""Intake of new memories: their first card, and the review centre per ``audit_mode``.

Runs right after an extraction (the life-cycle worker reacts to ``graph.changed`` events
with added memories) so automatic memories wait for approval before recall injects them;
the upkeep pass does the same for anything the worker missed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..settings import LifecycleSettings
from ..store.node_updates import bulk_update_nodes
from ..store.unit_of_work import UnitOfWork
from . import tiers
from .schedule import new_card, retrievability, valid_card

ACTOR = "lifecycle"


def intake_in(
    uow: UnitOfWork, chat_id: str, node_ids: Iterable[str], now: float, settings: LifecycleSettings
) -> list[str]:
    """Give the listed memories a card and, if their tier needs review, ``pending`` status.
    Memories that already have a card are left alone (idempotent). Returns changed ids."""
    updates: dict[str, dict[str, Any]] = {}
    for node in uow.read.nodes_by_ids(chat_id, list(dict.fromkeys(node_ids))):
        if node.deleted_at is not None or node.manually_edited or valid_card(node.srs):
            continue  # a user's own memory gets its card at upkeep: an undo right after creating it must work
        card = new_card(node.created_at, node.importance, settings)
        node.srs = card
        update: dict[str, Any] = {"srs": card, "retrievability": retrievability(node, now, settings)}
        if node.review_status == "approved" and tiers.needs_review(node.tier, settings):
            update["review_status"] = "pending"
        updates[node.id] = update
    if not updates:
        return []
    batch_id = uow.begin_batch(
        chat_id, "upkeep", actor=ACTOR, description=f"intake of {len(updates)} new memories"
    )
    changed = bulk_update_nodes(uow, chat_id, updates)
    uow.end_batch()
    pending = sum(1 for u in updates.values() if "review_status" in u)
    uow.audit(chat_id, ACTOR, "intake", str(batch_id), cards_created=len(updates), pending=pending)
    return changed
