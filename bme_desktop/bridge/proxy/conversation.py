"""The chat inside an OpenAI request: which messages are the conversation, and where the
window an app sent sits in the history already stored.

The conversation is the request's ``user`` and ``assistant`` messages with some text, in
order; system (and ``developer``) messages are the app's prompt, and ``tool``/``function``
messages are plumbing: neither is memory. Apps trim old messages to fit their context window,
so a request's first message is not always the chat's first: :func:`plan_sync` finds where the
window starts in the stored history by message fingerprints, so a trimmed window extends the
chat instead of replacing it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...core.ingest.fingerprint import fingerprint
from ...core.ingest.history import MAX_MESSAGE_CHARS, MAX_NAME_CHARS
from ...core.model import MessageIn

CONVERSATION_ROLES = frozenset({"user", "assistant"})
SYSTEM_ROLES = frozenset({"system", "developer"})
TEXT_PART_TYPES = frozenset({"text", "input_text", "output_text"})
# How many earlier places of the window's first message are tried when aligning (a chat of
# identical short messages must not make alignment quadratic).
MAX_ALIGN_CANDIDATES = 256


def content_text(content: Any) -> str:
    """The text of an OpenAI message ``content``: a string, or the text parts of a list
    (images and audio are not memory)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts: list[str] = []
        for part in content:
            if isinstance(part, str):
                parts.append(part)
            elif (
                isinstance(part, dict)
                and part.get("type") in TEXT_PART_TYPES
                and isinstance(part.get("text"), str)
            ):
                parts.append(part["text"])
        return "\n".join(parts)
    return ""


def clean_text(text: str) -> str:
    """What is stored: stripped (apps trim what they show), no NUL, at most the core's limit."""
    return text.replace("\x00", "").strip()[:MAX_MESSAGE_CHARS]


@dataclass(frozen=True)
class Turn:
    """One conversation message of a request."""

    position: int  # its place in the request's ``messages``
    role: str  # "user" | "assistant"
    text: str
    name: str | None = None

    def message(self, index: int) -> MessageIn:
        return MessageIn(index=index, role=self.role, text=self.text, name=self.name)


def conversation(messages: Sequence[Any]) -> list[Turn]:
    turns: list[Turn] = []
    for pos, m in enumerate(messages):
        if not isinstance(m, dict) or m.get("role") not in CONVERSATION_ROLES:
            continue
        text = clean_text(content_text(m.get("content")))
        if not text:
            continue
        raw_name = m.get("name")
        name = (
            raw_name
            if isinstance(raw_name, str) and 0 < len(raw_name) <= MAX_NAME_CHARS and "\x00" not in raw_name
            else None
        )
        turns.append(Turn(pos, str(m["role"]), text, name))
    return turns


def last_user(turns: Sequence[Turn]) -> int | None:
    """The window position of the last user message, if any."""
    for i in range(len(turns) - 1, -1, -1):
        if turns[i].role == "user":
            return i
    return None


def last_name(turns: Sequence[Turn], role: str) -> str | None:
    for turn in reversed(turns):
        if turn.role == role and turn.name:
            return turn.name
    return None


def fingerprints(turns: Sequence[Turn]) -> list[str]:
    return [fingerprint(t.message(0)) for t in turns]


def _run(stored: Mapping[int, str], window: Sequence[str], at: int) -> int:
    """How many window messages match the stored ones from index ``at`` on, in a row."""
    run = 0
    while run < len(window) and stored.get(at + run) == window[run]:
        run += 1
    return run


def align(stored: Mapping[int, str], window: Sequence[str]) -> int:
    """The stored index where ``window`` (fingerprints) starts.

    Every stored place holding the window's first message is a candidate, 0 included; the
    one whose following messages match the window longest wins (ties: the earliest). A later
    place is taken only when at least two messages match there in a row, or when the window
    starts with the last stored message; otherwise 0: the conversation under this chat id was
    replaced or edited near its start, and a complete sync from 0 is the truth."""
    if not stored or not window:
        return 0
    end = max(stored) + 1
    best_at, best_run = 0, _run(stored, window, 0)
    if best_run == min(end, len(window)):
        return 0  # the window starts like the chat and matches it as far as both go
    first, tried = window[0], 0
    for k in sorted(stored, reverse=True):
        if k == 0 or stored[k] != first:
            continue
        tried += 1
        if tried > MAX_ALIGN_CANDIDATES:
            break
        run = _run(stored, window, k)
        if run > best_run or (run == best_run and k < best_at):
            best_at, best_run = k, run
    if best_at == 0:
        return 0
    if best_run >= 2 or (best_run == 1 and best_at == end - 1):
        return best_at
    return 0


@dataclass(frozen=True)
class SyncPlan:
    offset: int  # stored index of the window's first message
    complete: bool  # the synced list is the whole chat (messages not in it are deleted)
    prefix: bool  # put stored messages [0, offset) in front to make the list whole


def plan_sync(stored: Mapping[int, str], window: Sequence[str]) -> SyncPlan:
    """How to sync a request's window.

    - Starts at 0: a complete sync of the window (the spec's rule: the request is the chat).
    - Starts later and reaches the stored end or beyond: a partial sync of the window; the
      stored messages before it stay as they are (the app trimmed them, it did not delete them).
    - Starts later and ends before the stored end (a regenerate or a deleted tail in a trimmed
      window): a complete sync of the stored prefix plus the window, so the tail is removed."""
    offset = align(stored, window)
    if offset == 0:
        return SyncPlan(0, True, False)
    if offset + len(window) >= max(stored) + 1:
        return SyncPlan(offset, False, False)
    return SyncPlan(offset, True, True)
