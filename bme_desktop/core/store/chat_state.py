"""Life-cycle records kept in the chat's state (persona snapshots, working memory).

They are written inside a journaled batch, so the batch row keeps the chat state from
before (``state_before``): a history rollback over that batch restores it, and with it the
snapshots or to-dos that came from the rolled-back messages. Undoing such a batch by hand
(``undo_lifecycle_batch``) restores only the key the batch owns, and only while that batch
is the newest of its kind, so later work is never overwritten.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from ..errors import Conflict
from . import tables as t
from .journal import INDEPENDENT_STATE
from .reader import Reader
from .unit_of_work import UnitOfWork

STATE_KEYS = {"persona": "persona", **INDEPENDENT_STATE}  # batch kind -> chat-state key


def get_key(uow: UnitOfWork, chat_id: str, key: str) -> Any:
    return uow.chat_state(uow.read.require_chat_pk(chat_id)).get(key)


def read_key(read: Reader, chat_id: str, key: str) -> Any:
    """The same, read-only (outside a write)."""
    state = read.conn.execute(select(t.chats.c.state).where(t.chats.c.chat_id == chat_id)).scalar()
    return (state or {}).get(key)


def set_key(uow: UnitOfWork, chat_id: str, key: str, value: Any) -> None:
    pk = uow.read.require_chat_pk(chat_id)
    state = uow.chat_state(pk)
    state[key] = value
    uow.set_chat_state(pk, state)


def undo_state(uow: UnitOfWork, chat_id: str, kind: str, batch_id: int) -> None:
    """Restore the chat-state key a ``persona``/``working`` batch wrote (before it is undone)."""
    key = STATE_KEYS.get(kind)
    if key is None:
        return
    newer = [b.id for b in uow.read.batches(chat_id, status="applied", kind=kind) if b.id > batch_id]
    if newer:
        raise Conflict(f"cannot undo: a later {kind} batch ({newer[0]}) built on it")
    before = uow.conn.execute(select(t.batches.c.state_before).where(t.batches.c.id == batch_id)).scalar()
    set_key(uow, chat_id, key, (before or {}).get(key))
