"""Preparing chat messages for extraction: cleaning and the context window.

Reasoning blocks (``<think>``, ``<thinking>``, ``<analysis>``, ``<reasoning>``) and common
"pollution" tags that frontends and presets put into replies (``<choice>``,
``<UpdateVariable>``, ``<status_current_variable>``, ``<StatusPlaceHolderImpl>``) are removed
by editable regular expressions. ``settings.extraction.cleaning_patterns`` is ``None`` for the
presets below; a saved list (also an empty one) replaces them exactly.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..model import Message


def _block(tag: str) -> str:
    # A closed block, or an unclosed opening tag that runs to the end of the message.
    return rf"(?is)<{tag}\b[^>]*>.*?(?:</{tag}\s*>|\Z)"


PRESET_PATTERNS: tuple[str, ...] = (
    _block("think"),
    _block("thinking"),
    _block("analysis"),
    _block("reasoning"),
    _block("choice"),
    _block("UpdateVariable"),
    _block("status_current_variable"),
    r"(?is)<StatusPlaceHolderImpl\s*/?>",
    r"(?is)</?(?:think|thinking|analysis|reasoning)\s*>",  # stray closing tags
)

MAX_PATTERN_CHARS = 2000


@dataclass(frozen=True)
class PreparedMessage:
    """A message as the extractor sees it. ``context_only`` messages were extracted by an
    earlier batch and are shown for continuity only."""

    index: int
    role: str
    name: str | None
    text: str
    context_only: bool


def effective_patterns(saved: Sequence[str] | None) -> tuple[str, ...]:
    """The patterns in force: the presets when nothing was saved, else exactly the saved list."""
    return PRESET_PATTERNS if saved is None else tuple(saved)


@lru_cache(maxsize=64)
def _compile(patterns: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    compiled: list[re.Pattern[str]] = []
    for pattern in patterns:
        if not pattern or len(pattern) > MAX_PATTERN_CHARS:
            continue
        try:
            compiled.append(re.compile(pattern))
        except re.error:
            continue  # an invalid user pattern is skipped, not fatal (check_patterns reports it)
    return tuple(compiled)


def check_patterns(patterns: Sequence[str]) -> list[str]:
    """Problems with user patterns, one line each (for the settings dialog)."""
    problems: list[str] = []
    for i, pattern in enumerate(patterns):
        if not pattern:
            problems.append(f"pattern {i + 1} is empty")
        elif len(pattern) > MAX_PATTERN_CHARS:
            problems.append(f"pattern {i + 1} is longer than {MAX_PATTERN_CHARS} characters")
        else:
            try:
                re.compile(pattern)
            except re.error as exc:
                problems.append(f"pattern {i + 1} is not a valid regular expression: {exc}")
    return problems


_BLANK_LINES = re.compile(r"\n{3,}")


def clean_text(text: str, patterns: Sequence[str] | None = None) -> str:
    """``text`` with every pattern's matches removed and blank runs squeezed."""
    for regex in _compile(effective_patterns(patterns)):
        text = regex.sub("", text)
    return _BLANK_LINES.sub("\n\n", text).strip()


def prepare_window(
    messages: Sequence[Message], start: int, end: int, *, patterns: Sequence[str] | None = None
) -> list[PreparedMessage]:
    """Clean ``messages`` (already limited to the window) and mark those before ``start``
    as context only. Messages left empty by cleaning are dropped."""
    out: list[PreparedMessage] = []
    for m in messages:
        if m.index > end:
            continue
        text = clean_text(m.text, patterns)
        if not text:
            continue
        out.append(
            PreparedMessage(index=m.index, role=m.role, name=m.name, text=text, context_only=m.index < start)
        )
    return out
