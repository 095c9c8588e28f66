"""Alias-aware recall: the characters and places the input names by another of their names.

Entity resolution keeps a character's or place's other names in its ``aliases`` field ("Kestrel"
with "Kestrel Marrow; Grey Fox", 林掌柜 with 林福; 林老板). An input that names an entity by
any of them anchors the entity (its neighbours in the graph come with it) and counts as
naming its owner for a point of view. Appending the other names to the query (synonym
expansion) was tried and left out: on roleplay-dev it found nothing more and pulled memories
that only share a name ("Mercer" for the Baron) over the ones asked about.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from ..model import Node
from .lexical import normalise_name

ENTITY_TYPES = frozenset({"character", "location"})
MIN_CHARS = 2
_SPLIT = re.compile(r"[;；,，/、]")


@dataclass(frozen=True)
class NameTable:
    """Every name of the chat's entities: normalised name → (entity ids)."""

    names: dict[str, frozenset[str]]
    all_names: dict[str, tuple[str, ...]]  # entity id → its title and aliases, as written


def names_of(node: Node) -> list[str]:
    out = [node.title.strip()]
    out += [a.strip() for a in _SPLIT.split(node.fields.get("aliases", "")) if a.strip()]
    seen: list[str] = []
    for name in out:
        if len(name) >= MIN_CHARS and name not in seen:
            seen.append(name)
    return seen


def name_table(nodes: Mapping[str, Node]) -> NameTable:
    names: dict[str, set[str]] = {}
    all_names: dict[str, tuple[str, ...]] = {}
    for node in nodes.values():
        if node.type not in ENTITY_TYPES:
            continue
        found = names_of(node)
        if len(found) < 2:
            continue
        all_names[node.id] = tuple(found)
        for name in found:
            names.setdefault(normalise_name(name), set()).add(node.id)
    return NameTable({k: frozenset(v) for k, v in names.items()}, all_names)


def _occurs(name: str, text: str) -> bool:
    if name not in text:
        return False
    if name.isascii():
        return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None
    return name in text


def named_entities(table: NameTable, text: str) -> set[str]:
    """The entities (with other names) that ``text`` names by any of their names."""
    norm = normalise_name(text)
    return {node_id for name, ids in table.names.items() if _occurs(name, norm) for node_id in ids}
