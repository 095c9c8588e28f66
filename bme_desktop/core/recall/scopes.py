"""The scope stage of recall (issue 18): which memories of other chats a chat draws in, and
how much they weigh.

A chat's recall state holds its own memories and, when the chat is not isolated, the memories
other chats share with it (``Reader.shared_nodes``: the same character's ``character``
memories, the same persona's ``persona`` memories, the same world's ``world`` memories). They
go through every stage like the chat's own; this stage then multiplies the score of a memory
drawn from another chat by the weight of its kind in the settings
(``recall.weight_scope_character`` / ``_persona`` / ``_world``; 0 leaves that kind out). The
chat's own memories keep their score whatever their kind: they are this story's.

In a group chat a recall can name the character about to speak (``for_character``): then only
what that character knows is injected (``knows``): what happened in a scene where it spoke,
its own point of view, facts about itself, the world's rules, world and persona memories;
never a memory extraction's knowledge state (``Knowledge``) says it has wrong.

The knowledge state (``state["knowledge"]``, kept by extraction) also decides which points of
view are mistaken: one in its owner's ``mistaken`` list is marked so in every recall, whatever
its ``certainty`` field says, so a belief the story showed wrong is never injected as fact.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..model import Message, Node
from ..scopes import fold
from ..settings import RecallSettings
from .api import RecalledNode

ENTITY_TYPES = ("character", "location")


def scope_weight(node: Node, chat_id: str, settings: RecallSettings) -> float:
    """1 for the chat's own memories; the kind's weight for one drawn from another chat."""
    if node.chat_id == chat_id:
        return 1.0
    return {
        "character": settings.weight_scope_character,
        "persona": settings.weight_scope_persona,
        "world": settings.weight_scope_world,
    }.get(node.scope.kind, 0.0)


def weigh_scopes(items: Iterable[RecalledNode], chat_id: str, settings: RecallSettings) -> list[RecalledNode]:
    """The items with drawn-in memories weighed by their kind (``components["w_scope"]``) and
    those of a kind weighed 0 left out. A character or place known under one name in several
    chats (Mira's card in each chat with her) is shown once: the best scored, the chat's own on a tie."""
    out: list[RecalledNode] = []
    named: dict[tuple[str, str], int] = {}
    for item in items:
        weight = scope_weight(item.node, chat_id, settings)
        if weight <= 0:
            continue
        if weight != 1.0:
            item.score *= weight
            item.components["w_scope"] = weight
        if item.node.type in ENTITY_TYPES:
            key = (item.node.type, fold(item.node.title))
            at = named.get(key)
            if at is not None:
                if _rank(item, chat_id) > _rank(out[at], chat_id):
                    out[at] = item
                continue
            named[key] = len(out)
        out.append(item)
    return out


def _rank(item: RecalledNode, chat_id: str) -> tuple[float, bool]:
    return item.score, item.node.chat_id == chat_id


# Group chats -------------------------------------------------------------------------------
# A scene ends at a system message (SillyTavern's /sys narration) or at a scene-break line.
SCENE_BREAK = re.compile(r"^\s*(?:-{3,}|\*{3,}|(?:\*\s){2,}\*|#{3,}|={3,}|scene\b|场景|第.{1,4}[幕场])", re.I)
ALWAYS_KNOWN = ("rule", "synopsis")  # the world's rules and the story's summary are known to all


@dataclass(frozen=True)
class Members:
    """A group chat's members as the frontend reported them (``state["members"]``, written by
    ``scopes.record_members``): each folded name with the first and last message index it was
    a member at (``None``: still is)."""

    spans: tuple[tuple[str, int, int | None], ...] = ()

    @classmethod
    def of(cls, runtime: Any) -> Members:
        table = runtime.get("members") if isinstance(runtime, dict) else None
        spans: list[tuple[str, int, int | None]] = []
        for entry in table if isinstance(table, list) else []:
            name = fold(str(entry.get("name", ""))) if isinstance(entry, dict) else ""
            since, until = (
                (entry.get("since"), entry.get("until")) if isinstance(entry, dict) else (None, None)
            )
            if name and isinstance(since, int) and (until is None or isinstance(until, int)):
                spans.append((name, since, until))
        return cls(tuple(spans))

    def at(self, index: int) -> set[str]:
        return {
            name for name, since, until in self.spans if since <= index and (until is None or index <= until)
        }


@dataclass(frozen=True)
class Witnesses:
    """Who was present at each message of a chat: the characters who speak in its scene, and
    the group's members at any of its messages (those who never spoke there witnessed it too)."""

    scene_of: dict[int, int]  # message index -> scene number
    present: dict[int, frozenset[str]]  # scene number -> folded names of its speakers

    def at(self, indices: Iterable[int]) -> frozenset[str]:
        out: set[str] = set()
        for index in indices:
            scene = self.scene_of.get(index)
            if scene is not None:
                out |= self.present[scene]
        return frozenset(out)


def witnesses(messages: Iterable[Message], members: Members | None = None) -> Witnesses:
    scene_of: dict[int, int] = {}
    present: dict[int, set[str]] = {0: set()}
    scene = 0
    for m in sorted(messages, key=lambda m: m.index):
        if m.role == "system" or SCENE_BREAK.match(m.text or ""):
            scene += 1
            present[scene] = set()
        scene_of[m.index] = scene
        if m.role == "assistant" and m.name:
            present[scene].add(fold(m.name))
        if members is not None and members.spans:
            present[scene] |= members.at(m.index)
    return Witnesses(scene_of, {k: frozenset(v) for k, v in present.items()})


@dataclass(frozen=True)
class Knowledge:
    """What each owner (folded name) believes wrongly, from extraction's
    ``state["knowledge"][owner]["mistaken"]`` (memory ids)."""

    mistaken: dict[str, frozenset[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, runtime: Any) -> Knowledge:
        table = runtime.get("knowledge") if isinstance(runtime, dict) else None
        if not isinstance(table, dict):
            return cls()
        mistaken: dict[str, frozenset[str]] = {}
        for owner, entry in table.items():
            ids = entry.get("mistaken") if isinstance(entry, dict) else None
            if isinstance(ids, list) and fold(str(owner)):
                mistaken[fold(str(owner))] = mistaken.get(fold(str(owner)), frozenset()) | {
                    str(i) for i in ids
                }
        return cls(mistaken)

    def is_mistaken(self, node: Node) -> bool:
        """Whether ``node`` is a point of view its owner is known to hold wrongly (its certainty
        field, or the owner's ``mistaken`` list)."""
        if node.scope.layer != "pov" and node.type != "pov_memory":
            return False
        if node.fields.get("certainty", "").strip().lower() == "mistaken":
            return True
        owner = fold((node.scope.owner or "").split(":", 1)[-1])
        return bool(owner) and node.id in self.mistaken.get(owner, frozenset())


def mark_mistaken(items: Iterable[RecalledNode], knowledge: Knowledge) -> None:
    """``components["mistaken"]`` on the points of view the knowledge state says are wrong (the
    injection says so beside them)."""
    for item in items:
        if knowledge.is_mistaken(item.node):
            item.components["mistaken"] = 1.0


def knows(node: Node, who: str, seen: Witnesses, knowledge: Knowledge | None = None) -> bool:
    """Whether the character ``who`` (folded) knows the memory: never one the knowledge state
    says ``who`` has wrong (unless it is ``who``'s own point of view: that is what ``who``
    believes); world and persona memories and the world's rules everyone knows; a point of view
    is its owner's; a fact about a character is known to that character; anything else only to
    the characters present in the scene of one of its messages (those who witnessed it or were
    told). The knowledge state's ``known`` lists do not widen this: offline extraction lists
    there every character a turn names, present or not ("don't tell Mira" names Mira)."""
    knowledge = knowledge or Knowledge()
    own_view = (node.scope.layer == "pov" or node.type == "pov_memory") and fold(
        node.scope.owner or ""
    ) == who
    if node.id in knowledge.mistaken.get(who, frozenset()) and not own_view:
        return False
    if node.scope.kind in ("world", "persona") or node.type in ALWAYS_KNOWN:
        return True
    if node.scope.layer == "pov" or node.type == "pov_memory":
        return fold(node.scope.owner or "") == who
    if node.type == "fact" and fold(node.fields.get("subject", "")) == who:
        return True
    if node.type == "character" and fold(node.fields.get("name", "")) == who:
        return True
    if not node.source_indices:
        return True  # written by hand, from no message: the user's note for everyone
    if node.type in ENTITY_TYPES:  # a card's state is its latest message's: known to who saw that
        return who in seen.at([max(node.source_indices)])
    return who in seen.at(node.source_indices)


def knows_span(start: int | None, end: int | None, who: str, seen: Witnesses) -> bool:
    """Whether ``who`` (folded) was present in every scene of messages ``start``–``end`` (a
    summary of them tells nothing it missed)."""
    if start is None or end is None:
        return False
    scenes = {seen.scene_of[i] for i in range(start, end + 1) if i in seen.scene_of}
    return all(who in seen.present[scene] for scene in scenes)


def for_character(
    items: list[RecalledNode], who: str | None, seen: Witnesses, knowledge: Knowledge | None = None
) -> list[RecalledNode]:
    """A group generation: only what the character about to speak knows."""
    if who is None:
        return items
    folded = fold(who)
    return [
        item
        for item in items
        if (item.bucket == "archive" and folded in seen.at(item.node.source_indices))
        or (item.bucket != "archive" and knows(item.node, folded, seen, knowledge))
    ]
