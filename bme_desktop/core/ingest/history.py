"""Applying a sync: validation, the history diff, rollback of stale memories, storing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import ValidationError
from ..model import MessageIn
from ..schema import ROLES
from ..scopes import record_members
from ..store import journal
from ..store.unit_of_work import UnitOfWork
from .fingerprint import earliest_change, fingerprint

MAX_CHAT_ID = 256
MAX_MESSAGE_CHARS = 1_000_000
MAX_NAME_CHARS = 256


@dataclass
class SyncOutcome:
    stored: int
    changed_from: int | None
    rolled_back_batches: int
    rolled_back_nodes: int
    revision: int


def validate_chat_id(chat_id: object) -> str:
    if not isinstance(chat_id, str) or not 1 <= len(chat_id) <= MAX_CHAT_ID:
        raise ValidationError("chat_id", f"must be text of 1 to {MAX_CHAT_ID} characters")
    if "\x00" in chat_id:
        raise ValidationError("chat_id", "must not contain NUL characters")
    return chat_id


def validate_messages(chat_id: str, messages: Sequence[MessageIn], *, complete: bool) -> None:
    validate_chat_id(chat_id)
    seen: set[int] = set()
    for pos, m in enumerate(messages):
        where = f"messages[{pos}]"
        if isinstance(m.index, bool) or not isinstance(m.index, int) or m.index < 0:
            raise ValidationError(f"{where}.index", "must be a whole number ≥ 0")
        if m.index in seen:
            raise ValidationError(f"{where}.index", f"index {m.index} appears twice")
        seen.add(m.index)
        if m.role not in ROLES:
            raise ValidationError(f"{where}.role", f"must be one of {', '.join(ROLES)}")
        if not isinstance(m.text, str) or len(m.text) > MAX_MESSAGE_CHARS:
            raise ValidationError(f"{where}.text", f"must be text of at most {MAX_MESSAGE_CHARS} characters")
        if m.name is not None and (not isinstance(m.name, str) or len(m.name) > MAX_NAME_CHARS):
            raise ValidationError(f"{where}.name", f"must be text of at most {MAX_NAME_CHARS} characters")
        if m.swipe_id is not None and (isinstance(m.swipe_id, bool) or not isinstance(m.swipe_id, int)):
            raise ValidationError(f"{where}.swipe_id", "must be a whole number")
        if m.time is not None and (not isinstance(m.time, str) or len(m.time) > 64):
            raise ValidationError(f"{where}.time", "must be an ISO 8601 time text")
        if "\x00" in m.text:
            raise ValidationError(f"{where}.text", "must not contain NUL characters")
    if complete and seen and seen != set(range(len(messages))):
        raise ValidationError("messages", "a complete sync must hold every index from 0 without gaps")


def batches_to_roll_back(uow: UnitOfWork, chat_pk: int, changed_from: int) -> list[int]:
    """Automatic batches that read a message at or after ``changed_from``, and every later
    automatic batch that may have built on one of them; newest first. Manual edits are kept.

    A batch of a kind in ``journal.INDEPENDENT_STATE`` (the working-memory scan) writes only
    its own chat-state key and only later batches of its kind build on it: it is rolled back
    when it read a changed message, and it does not drag the batches after it along. Without
    that, the scan that read a whole first-connect history in one go made any later edit roll
    back, and re-extract, the whole chat."""
    chosen: list[tuple[int, str]] = []
    for bid, kind, read_to in uow.read.applied_batches(chat_pk):
        if kind == "manual":
            continue
        stale = read_to is not None and read_to >= changed_from
        if stale or any(_builds_on(kind, earlier) for _, earlier in chosen):
            chosen.append((bid, kind))
    return sorted((bid for bid, _ in chosen), reverse=True)


def _builds_on(kind: str, earlier: str) -> bool:
    """Whether a batch of ``kind`` may use what an earlier batch of kind ``earlier`` wrote."""
    if kind in journal.INDEPENDENT_STATE or earlier in journal.INDEPENDENT_STATE:
        return kind == earlier
    return True


def apply_sync(
    uow: UnitOfWork,
    chat_id: str,
    messages: Sequence[MessageIn],
    *,
    complete: bool,
    character: str | None,
    user: str | None,
) -> SyncOutcome:
    pk = uow.ensure_chat(chat_id, character, user)
    stored = uow.read.fingerprints(pk)
    pushed = {m.index: fingerprint(m) for m in messages}
    changed_from = earliest_change(stored, pushed, complete=complete)

    rolled_batches = rolled_nodes = 0
    if changed_from is not None:
        for batch_id in batches_to_roll_back(uow, pk, changed_from):
            journal.rollback_history(uow, batch_id)
            rolled_batches += 1
        rolled_nodes = len(uow.change(chat_id).nodes_removed)
        uow.drop_recalls_after_change(pk, changed_from)
        if complete:  # the list is the whole chat: what it lacks was deleted (a partial list keeps the rest)
            uow.drop_messages_after_change(pk, changed_from, keep=pushed)
        state = uow.chat_state(pk)
        if state.get("extracted_to") is not None and state["extracted_to"] >= changed_from:
            state["extracted_to"] = changed_from - 1
            uow.set_chat_state(pk, state)

    written = 0
    for m in messages:
        fp = pushed[m.index]
        if stored.get(m.index) == fp:
            continue
        row = {
            "role": m.role,
            "name": m.name,
            "text": m.text,
            "swipe_id": m.swipe_id,
            "time": m.time,
            "fingerprint": fp,
            "stored_at": uow.now,
        }
        uow.put_message(pk, m.index, row)
        written += 1
    revision = uow.touch_chat(pk, bump_revision=bool(written or changed_from is not None))
    return SyncOutcome(
        stored=written,
        changed_from=changed_from,
        rolled_back_batches=rolled_batches,
        rolled_back_nodes=rolled_nodes,
        revision=revision,
    )


def store_members(uow: UnitOfWork, chat_id: str, names: tuple[str, ...]) -> list[dict[str, object]] | None:
    """Record the group's members a sync reports (``state["members"]``, see
    ``scopes.record_members``; not journaled: the frontend owns them). The new record when it
    changed, else None."""
    pk = uow.read.require_chat_pk(chat_id)
    last = uow.read.last_message_index(pk)
    state = uow.chat_state(pk)
    members = record_members(state.get("members"), names, -1 if last is None else last)
    if members == state.get("members") or (not members and "members" not in state):
        return None
    state["members"] = members
    uow.set_chat_state(pk, state)
    return members
