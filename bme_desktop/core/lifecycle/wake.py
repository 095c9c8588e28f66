"""Waking dormant (or archived) memories on demand, and undoing a life-cycle batch."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..errors import Conflict, NotFound
from ..model import Node
from ..store import journal
from ..store.unit_of_work import UnitOfWork
from .chat_state import undo_state
from .schedule import relearn, retrievability

if TYPE_CHECKING:
    from ..ports import Editing

LIFECYCLE_KINDS = (
    "upkeep",
    "retention",
    "review",
    "consolidate",
    "summarize",
    "fold",
    "compress",
    "reflect",
    "persona",
    "working",
)


def wake_in(uow: UnitOfWork, service: Editing, chat_id: str, node_id: str) -> Node:
    node = uow.read.node(chat_id, node_id)
    if node is None:
        raise NotFound(f"no memory {node_id!r} in chat {chat_id!r}")
    if node.tier in ("short_term", "long_term"):
        return node
    now = uow.now
    settings = service.settings.lifecycle
    card = relearn(node.srs, now, node.importance, settings)
    flags = {**node.flags, "woken_at": now, "woken_from": node.tier}
    woken = replace(node, tier="long_term", srs=card, flags=flags, updated_at=now)
    woken.retrievability = retrievability(woken, now, settings)
    uow.put_node(woken)
    return woken


def wake(service: Editing, chat_id: str, node_id: str, *, actor: str = "user") -> Node:
    """Bring a dormant or archived memory back to long-term with a fresh card (one
    undoable manual edit). A memory that is already awake is returned unchanged."""
    return service.manual_write(chat_id, actor, "wake", lambda uow: wake_in(uow, service, chat_id, node_id))


def undo_lifecycle_batch(service: Editing, chat_id: str, batch_id: int, *, actor: str = "user") -> None:
    """Undo one automatic life-cycle batch exactly; refuses (Conflict) when a memory it
    touched has changed since, so later work is never overwritten."""

    def op(uow: UnitOfWork) -> None:
        batches = {b.id: b for b in uow.read.batches(chat_id)}
        batch = batches.get(batch_id)
        if batch is None:
            raise NotFound(f"no batch {batch_id} in chat {chat_id!r}")
        if batch.kind not in LIFECYCLE_KINDS:
            raise Conflict(f"batch {batch_id} is a {batch.kind} batch, not a life-cycle one")
        try:
            if batch.status == "applied":
                undo_state(uow, chat_id, batch.kind, batch_id)
            journal.undo_batch(uow, batch_id)
        except journal.JournalConflict as exc:
            raise Conflict(f"cannot undo: {exc}") from exc
        uow.audit(chat_id, actor, "undo", str(batch_id), kind=batch.kind)

    service.write(op)
