"""Which messages the next extraction batch reads, and committing its result.

A batch ends at every N-th assistant reply after the last extracted message and starts
right after it; K earlier messages come along as context. Batch boundaries depend only on
the chat, never on how the messages arrived, so an incremental extraction and a rebuild
from scratch cut the chat the same way. The commit re-checks, on the writer thread, that
progress and the fingerprints of every message read are unchanged; if not it writes
nothing and the caller reads again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..events import ChangeRecord
from ..model import Message
from ..store.reader import Reader
from ..store.unit_of_work import UnitOfWork
from .apply import ApplyReport, apply_plan
from .heuristic import ChatInfo
from .operations import Plan
from .state import extracted_to
from .vector_match import VectorScores


@dataclass
class Window:
    chat_id: str
    after: int  # extracted_to when the window was read
    start: int  # first message of the batch itself
    end: int  # last message (an assistant reply)
    messages: list[Message]  # context first, then the batch's own messages
    chat: ChatInfo
    state: dict[str, Any] = field(default_factory=dict)

    @property
    def read_from(self) -> int:
        return self.messages[0].index if self.messages else self.start

    def fingerprints(self) -> dict[int, str]:
        return {m.index: m.fingerprint for m in self.messages}


def next_window(reader: Reader, chat_id: str, *, every_n: int, context: int) -> Window | None:
    """The next batch to extract, or None when fewer than ``every_n`` new replies wait."""
    row = reader.chat_row(chat_id)
    if row is None:
        return None
    pk, state = row["pk"], dict(row["state"] or {})
    after = extracted_to(state)
    replies = reader.reply_indices_after(pk, after, every_n)
    if len(replies) < every_n:
        return None
    end = replies[-1]
    own = reader.messages_in(chat_id, pk, after, end)
    earlier = reader.messages_up_to(chat_id, pk, after, context) if context else []
    messages = [*earlier, *own]
    start = own[0].index if own else end
    return Window(chat_id, after, start, end, messages, ChatInfo(row["character"], row["user_name"]), state)


@dataclass
class Committed:
    batch_id: int
    report: ApplyReport
    change: ChangeRecord


def _unchanged(uow: UnitOfWork, pk: int, window: Window) -> bool:
    return uow.read.fingerprints_between(pk, window.read_from, window.end) == window.fingerprints()


def commit(
    uow: UnitOfWork,
    window: Window,
    plan: Plan,
    labels: dict[str, str],
    vectors: dict[int, VectorScores] | None = None,
) -> Committed | None:
    """Apply ``plan`` as one journaled batch, or return None if the chat moved on."""
    pk = uow.read.chat_pk(window.chat_id)
    if pk is None:
        return None
    if extracted_to(uow.chat_state(pk)) != window.after or not _unchanged(uow, pk, window):
        return None
    description = f"{plan.extractor} extraction of messages {window.start}–{window.end}"
    if plan.model:
        description += f" by {plan.model}"
    if plan.note:
        description += f" ({plan.note})"
    batch_id = uow.begin_batch(
        window.chat_id,
        "extract",
        actor=plan.extractor,
        description=description[:2000],
        read_from=window.read_from,
        read_to=window.end,
    )
    state = uow.chat_state(pk)
    report = apply_plan(uow, window.chat_id, plan, labels=labels, state=state, vectors=vectors)
    state["extracted_to"] = window.end
    state["extraction_count"] = int(state.get("extraction_count", 0)) + 1
    state["last_extractor"] = plan.extractor
    state["last_model"] = plan.model  # "" for the heuristic (and for a fallback: see last_note)
    state["last_note"] = plan.note[:300]
    uow.set_chat_state(pk, state)
    uow.end_batch()
    change = ChangeRecord(window.chat_id)
    change.merge(uow.change(window.chat_id))
    return Committed(batch_id, report, change)
