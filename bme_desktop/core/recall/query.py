"""The query: the current input blended with the last reply and the previous input, and the
current input split into intents ("…, and also …", "顺便…", "另外…")."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..model import Message
from ..settings import RecallSettings
from .cues import clean_input, is_question

PART_CHARS = 400  # each context part is cut to this many characters
INPUT_CHARS = 2000
MAX_INTENTS = 4
MIN_INTENT_CHARS = 3
# A question names what it asks about: the last reply and the previous input count this much of
# their weight (they still resolve "what did she mean?", but no longer rank the latest scene
# above the one asked about).
QUESTION_CONTEXT = 0.5

_SPLIT = re.compile(
    r"[。！？!?；;\n]+|(?:，|,)?\s*(?:顺便|另外|还有|然后|此外|以及|并且|而且|再说|对了)\s*|"
    r"(?:,\s*|\s+)(?:and also|also|besides|by the way|btw|and then|plus|additionally|as well as)\s+|"
    r"\?\s+|\.\s+|"
    r",\s*and\s+(?=(?:(?:from|to|in|at|with|for|by|since|until)\s+)?(?:what|when|where|who|whom|whose|which|why|how|"
    r"did|do|does|is|are|was|were|has|have|had)\b)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class QueryPart:
    text: str
    weight: float
    kind: str  # "current" | "intent" | "last_reply" | "previous_input"


@dataclass(frozen=True)
class Query:
    text: str  # the cleaned current input
    parts: tuple[QueryPart, ...]  # weights sum to 1 over the context kinds

    @property
    def current(self) -> list[QueryPart]:
        return [p for p in self.parts if p.kind in ("current", "intent")]

    @property
    def context(self) -> list[QueryPart]:
        return [p for p in self.parts if p.kind not in ("current", "intent")]


def split_intents(text: str) -> list[str]:
    """Up to four distinct intents of ``text`` (only when there are at least two)."""
    pieces = [p.strip(" ,，、") for p in _SPLIT.split(text) if p and p.strip()]
    pieces = [p for p in pieces if len(p) >= MIN_INTENT_CHARS]
    unique: list[str] = []
    for piece in pieces:
        if piece not in unique:
            unique.append(piece)
    return unique[:MAX_INTENTS] if len(unique) > 1 else []


def context_from_messages(messages: Sequence[Message], index: int | None) -> tuple[str | None, str | None]:
    """The last assistant reply and the previous user input before ``index`` (or the end)."""
    last_reply: str | None = None
    previous: str | None = None
    for m in reversed(messages):
        if index is not None and m.index >= index:
            continue
        if m.role == "assistant" and last_reply is None and previous is None:
            last_reply = m.text
        elif m.role == "user" and previous is None:
            previous = m.text
        if previous is not None:
            break
    return last_reply, previous


def build_query(
    user_input: str, last_reply: str | None, previous_input: str | None, settings: RecallSettings
) -> Query:
    text = clean_input(user_input, INPUT_CHARS)
    weighted: list[tuple[str, float, str]] = []
    context_share = QUESTION_CONTEXT if text and is_question(text) else 1.0
    if text:
        weighted.append((text, settings.weight_current, "current"))
    for extra, weight, kind in (
        (last_reply, settings.weight_last_reply, "last_reply"),
        (previous_input, settings.weight_previous_input, "previous_input"),
    ):
        cleaned = clean_input(extra or "", PART_CHARS)
        if cleaned and weight > 0:
            weighted.append((cleaned, weight * context_share, kind))
    total = sum(w for _, w, _ in weighted) or 1.0
    parts = [QueryPart(t, w / total, k) for t, w, k in weighted]
    if text:
        current_weight = next(p.weight for p in parts if p.kind == "current")
        parts.extend(QueryPart(i, current_weight, "intent") for i in split_intents(text))
    return Query(text=text, parts=tuple(parts))
