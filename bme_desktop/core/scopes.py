"""Memory beyond one chat: who else remembers a memory (issue 18).

Every memory has a scope kind:

- ``chat`` — this story's events, plot threads, places, points of view: only this chat;
- ``character`` — what the character is and what it knows of its relationship with the user:
  every chat with the same character;
- ``persona`` — facts about the user (birthday, tastes, history): every chat of the same persona,
  whichever character it is with;
- ``world`` — rules and places of a setting: every chat that names the same world.

A memory stays in the chat it was drawn from (rollback, undo and deletion work as before); its
kind says which other chats draw it in. Who is who comes from the chat: its character and
persona keys (a stable id from the frontend when it sends one, else the folded name) and its
world. An isolated chat shares nothing and draws nothing.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from .errors import ValidationError

SCOPE_KINDS = ("chat", "character", "persona", "world")
SHARED_KINDS = ("character", "persona", "world")
MAX_ID = 256
# Names a frontend uses for the user or the character in a memory's subject before a name is known.
_USER_WORDS = frozenset({"user", "{{user}}", "the user", "用户", "我"})
_CHARACTER_WORDS = frozenset({"char", "{{char}}", "the character", "角色"})


def fold(name: str) -> str:
    """A name as compared: NFKC, case-folded (every script, not ASCII only), spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def identity_key(stable_id: str | None, name: str | None) -> str | None:
    """The key shared memories are drawn by: the frontend's stable id when it sends one (a
    renamed character keeps its memories; two cards of one name stay apart), else the name."""
    if stable_id is not None and stable_id.strip():
        return "id:" + stable_id.strip()
    if name is not None and fold(name):
        return "name:" + fold(name)
    return None


@dataclass(frozen=True)
class ChatIdentity:
    """Who is who in a chat, as a sync names it (every field optional: None keeps the stored value)."""

    character: str | None = None
    user: str | None = None
    character_id: str | None = None
    persona_id: str | None = None
    world: str | None = None
    isolated: bool | None = None
    members: tuple[str, ...] | None = None  # a group chat's members (names), as the frontend reports them


MAX_MEMBERS = 30  # a group chat's members a sync may name


def record_members(entries: Any, names: tuple[str, ...], last_index: int) -> list[dict[str, Any]]:
    """A group's member record (``state["members"]``: name, ``since``, ``until``) once a sync
    reports ``names`` with the chat's last message at ``last_index``. A member reported the
    first time the chat has any record was there from the start (index 0); one who joins later
    from the last message; one no longer reported left at the last message (``until``) and
    still witnessed what happened while it was there."""
    old = [dict(e) for e in entries if isinstance(e, dict)] if isinstance(entries, list) else []
    wanted = {fold(n): n.strip() for n in names if fold(n)}
    out: list[dict[str, Any]] = []
    active: set[str] = set()
    for entry in old:
        key = fold(str(entry.get("name", "")))
        if entry.get("until") is None and key not in wanted:
            entry["until"] = max(int(entry.get("since", 0)), last_index)
        elif entry.get("until") is None:
            active.add(key)
        out.append(entry)
    start = max(last_index, 0) if old else 0
    out.extend(
        {"name": name, "since": start, "until": None} for key, name in wanted.items() if key not in active
    )
    return out


@dataclass(frozen=True)
class ChatScope:
    """A stored chat's identity, as recall and extraction read it."""

    chat_id: str
    character: str | None
    user: str | None
    character_key: str | None
    persona_key: str | None
    world: str | None
    isolated: bool

    def key_of(self, kind: str) -> str | None:
        if kind == "character":
            return self.character_key
        if kind == "persona":
            return self.persona_key
        if kind == "world":
            return fold(self.world) if self.world else None
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "character_key": self.character_key,
            "persona_key": self.persona_key,
            "world": self.world,
            "isolated": self.isolated,
        }


def check_kind(kind: object, where: str = "scope.kind") -> str:
    if kind not in SCOPE_KINDS:
        raise ValidationError(where, f"must be one of {', '.join(SCOPE_KINDS)}")
    return str(kind)


def _is(name: str | None, *candidates: str | None) -> bool:
    if not name:
        return False
    folded = fold(name)
    return any(c is not None and fold(c) == folded for c in candidates)


def assign_kind(node_type: str, fields: dict[str, str], layer: str, chat: ChatScope) -> str:
    """The scope extraction gives a new memory, from its type and subject: a fact about the
    user → persona; about the character (or the character's own card) → character; rules and
    places → world when the chat names one, else chat; everything else (events, threads,
    points of view, summaries) → chat. An isolated chat keeps everything to itself."""
    if chat.isolated or layer == "pov":
        return "chat"
    if node_type == "fact":
        subject = fields.get("subject")
        if _is(subject, chat.user) or (subject is not None and fold(subject) in _USER_WORDS):
            return "persona"
        if _is(subject, chat.character) or (subject is not None and fold(subject) in _CHARACTER_WORDS):
            return "character"
        return "chat"
    if node_type == "character":
        name = fields.get("name")
        if _is(name, chat.character):
            return "character"
        if _is(name, chat.user):
            return "persona"
        return "chat"
    if node_type in ("rule", "location"):
        return "world" if chat.world else "chat"
    return "chat"
