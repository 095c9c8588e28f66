"""The addressee: a name the input calls out to ("Sera, what is my profession?", "What do I
play, Jordan?", "林老板，…") names who is spoken to, not what is asked about.

Left in the query, the addressee's name is the strongest word of the input: BM25 ranks every
memory that mentions the character (and role-play mentions the characters everywhere), the
name anchors the character, and diffusion spreads from it to all of its scenes, so the
memories that answer the question are crowded out. Recall therefore queries with the rest of
the input. Only a known name counts (a character's title or one of its aliases, ``is_name``):
"Well, …" or "Yesterday, …" is not an addressee and stays. When the rest asks about the
addressee ("What are you afraid of, Mira?", "Sera, what do you think…") the name is what
"you" stands for: the input is kept whole, and a point of view of the addressee's counts as
asked for.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

MAX_NAME_CHARS = 40
MIN_REST_CHARS = 3
_LEADING = re.compile(r"^\s*(?P<name>[^,，:：!！?？。.\n]{1,40}?)\s*[,，:：]\s*(?P<rest>\S.*)$", re.DOTALL)
_TRAILING = re.compile(
    r"^(?P<rest>.*\S)\s*[,，]\s*(?P<name>[^,，:：!！?？。.\n]{1,40}?)\s*(?P<end>[?？!！.。…~～]*)\s*$",
    re.DOTALL,
)
_SECOND_PERSON = re.compile(r"\b(?:you|your|yours|yourself)\b|你|您", re.IGNORECASE)


@dataclass(frozen=True)
class Addressed:
    text: str  # what recall queries: the input without the addressee, unless it asks about them
    name: str | None  # the name called out to (None: no addressee)
    about_addressee: bool = False  # the rest asks about the addressee ("you", "your", 你)


def addressee(text: str, is_name: Callable[[str], bool]) -> Addressed:
    """``text`` without a known name called out at its start or end."""
    for pattern in (_LEADING, _TRAILING):
        m = pattern.match(text)
        if m is None:
            continue
        name, rest = m.group("name").strip(), m.group("rest").strip()
        if not is_name(name) or len(rest) < MIN_REST_CHARS:
            continue
        if _SECOND_PERSON.search(rest):
            return Addressed(text, name, about_addressee=True)
        return Addressed(rest + (m.group("end") if pattern is _TRAILING else ""), name)
    return Addressed(text, None)
