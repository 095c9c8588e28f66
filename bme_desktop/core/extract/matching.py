"""Finding the existing memory a proposed one may be: same name, near duplicate, or a
contradicted fact. Similarity is the embedding cosine for memories that have a vector
(when the runner computed :class:`VectorScores`), else lexical term overlap."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..lorebook import is_read_only, lore_of
from ..model import Node, Scope
from ..schema import NODE_TYPES, node_text
from ..scopes import fold
from ..store.live_nodes import LiveFilter, has_lorebook_fact, live_node_keys, live_nodes
from ..store.unit_of_work import UnitOfWork
from ..worldinfo import is_regex_key
from . import entities
from .textutil import has_han, negated, overlap, term_set

if TYPE_CHECKING:
    from .vector_match import VectorScores

DUPLICATE_THRESHOLD = 0.85
FACT_DUPLICATE_THRESHOLD = 0.8
CONTRADICTION_TOPIC_THRESHOLD = 0.5
MAX_CANDIDATES = 200
_PROBE = re.compile(r"[a-z0-9]{4,}|[\u4e00-\u9fff]{2}")
_SENTIMENT = frozenset(
    {
        "like",
        "love",
        "hate",
        "dislik",
        "never",
        "not",
        "no",
        "longer",
        "anymor",
        "don",
        "doesn",
        "didn",
        "won",
        "stop",
        "stopp",
        "prefer",
        "喜欢",
        "讨厌",
        "不再",
        "再喜",
        "不喜",
        "不吃",
        "不喝",
        "没有",
        "从不",
        "再也",
        "也不",
    }
)


@dataclass(frozen=True)
class Match:
    node: Node
    score: float
    contradicts: bool = False


def content_order(node: Node) -> tuple[int, str, str]:
    """A reproducible order of memories: ids are random and timestamps may tie, so every
    choice among several memories orders them by what they say and where it was said."""
    first = min(node.source_indices) if node.source_indices else 1 << 30
    return (first, node.title, json.dumps(node.fields, sort_keys=True, ensure_ascii=False))


def _order_key(score: float, node: Node) -> tuple[float, int, str, str]:
    return (-score, *content_order(node))


def candidates(
    uow: UnitOfWork, chat_id: str, types: tuple[str, ...], text: str, since: int | None = None
) -> list[Node]:
    """Live, unarchived memories of ``types`` sharing at least one probe word with ``text``
    (and, with ``since``, drawn from messages at or after that index)."""
    pk = uow.read.require_chat_pk(chat_id)
    probes = sorted(set(_PROBE.findall(text.lower())), key=lambda w: (-len(w), w))[:6]
    if not probes:
        return []
    # The newest MAX_CANDIDATES by first source message, with every memory tied at the cut: a
    # plain LIMIT would keep whichever rows the backend's scan met first (insertion order on
    # SQLite, where updates moved them on PostgreSQL), so the match would depend on the backend.
    found = [
        (str(k[0]), k[3]) for k in live_node_keys(uow.read, pk, LiveFilter(types, words=probes, since=since))
    ]
    if len(found) > MAX_CANDIDATES:
        first = sorted((-1 if s is None else s for _, s in found), reverse=True)[MAX_CANDIDATES - 1]
        found = [(i, s) for i, s in found if (-1 if s is None else s) >= first]
    nodes = uow.read.nodes_by_ids(chat_id, sorted(i for i, _ in found))
    return sorted(nodes, key=content_order)


def same_name(uow: UnitOfWork, chat_id: str, types: tuple[str, ...], name: str, scope: Scope) -> Node | None:
    """The live memory of one of ``types`` with this name (case-insensitive) in the same owner
    scope; types earlier in the tuple win. The title of a character or place is its name."""
    pk = uow.read.require_chat_pk(chat_id)
    wanted = name.strip().lower()
    found = [
        n
        for n in live_nodes(uow.read, chat_id, pk, LiveFilter(types, name=wanted))
        if n.fields.get("name", n.title).strip().lower() == wanted
        and (n.scope.layer, n.scope.owner) == (scope.layer, scope.owner)
    ]
    if not found:
        return None
    return min(found, key=lambda n: (types.index(n.type), *content_order(n)))


def _by_ids(uow: UnitOfWork, chat_id: str, type_id: str, ids: list[str], since: int | None) -> list[Node]:
    pk = uow.read.require_chat_pk(chat_id)
    return live_nodes(uow.read, chat_id, pk, LiveFilter((type_id,), ids=ids, since=since))


def names_in(text: str, names: Sequence[str]) -> frozenset[str]:
    """Which of ``names`` (the chat's characters and places, folded) ``text`` mentions: a
    whole word for a name in Latin letters, anywhere for one in Han characters."""
    folded = fold(text)
    found = set()
    for name in names:
        if len(name) < 2 or name not in folded:
            continue
        if has_han(name) or re.search(rf"(?<!\w){re.escape(name)}(?!\w)", folded):
            found.add(name)
    return frozenset(found)


def about_others(a: frozenset[str], b: frozenset[str]) -> bool:
    """Two memories are about different people or places when each names one the other does not
    ("一定帮苏婉找回玉佩" and "一定帮赵小桃找回玉佩" are two promises however close their words or
    vectors); one naming more than the other may be the same memory told in more detail."""
    return bool(a - b) and bool(b - a)


def nearest(
    uow: UnitOfWork,
    chat_id: str,
    type_id: str,
    fields: dict[str, str],
    scope: Scope,
    threshold: float = DUPLICATE_THRESHOLD,
    since: int | None = None,
    vectors: VectorScores | None = None,
    names: Sequence[str] = (),
) -> Match | None:
    """The most similar live memory of the same type and scope, if above the threshold: the
    cosine one (``vectors.threshold``) for memories with a vector, else ``threshold`` lexically.
    A memory about other people or places than the proposed one (``names``: the chat's folded
    character and place names, see :func:`about_others`) is never its duplicate."""
    text = node_text(type_id, fields)
    terms = term_set(text)
    mine = names_in(text, names)
    pool = {n.id: n for n in candidates(uow, chat_id, (type_id,), text, since)}
    if vectors is not None and vectors.above:
        pool.update((n.id, n) for n in _by_ids(uow, chat_id, type_id, sorted(vectors.above), since))
    best: tuple[tuple[float, int, str, str], Match] | None = None
    for node in pool.values():
        if node.scope != scope:
            continue
        if vectors is not None and node.id in vectors.indexed:
            score, bar = vectors.above.get(node.id, 0.0), vectors.threshold
        else:
            score, bar = overlap(terms, term_set(node_text(node.type, node.fields))), threshold
        if score >= bar and not about_others(mine, names_in(node_text(node.type, node.fields), names)):
            key = _order_key(score, node)
            if best is None or key < best[0]:
                best = (key, Match(node, score))
    return best[1] if best else None


def folded_names(nodes: Iterable[Node]) -> list[str]:
    """The folded names and aliases of the chat's characters and places, for :func:`nearest`."""
    return sorted({fold(name) for node in nodes for name in _node_names(node) if name and name.strip()})


LORE_TYPES = ("fact", "rule", "character", "location")


def has_lore(uow: UnitOfWork, chat_id: str) -> bool:
    """Whether SillyTavern's lorebook gave this chat any memory (one query; an extraction batch
    asks once, so a chat without a lorebook pays nothing more per proposal)."""
    pk = uow.read.chat_pk(chat_id)
    return pk is not None and has_lorebook_fact(uow.read, pk)


def lore_match(uow: UnitOfWork, chat_id: str, type_id: str, fields: dict[str, str]) -> Node | None:
    """The memory SillyTavern's lorebook gives this chat (core/lorebook.py) that a proposed fact,
    rule, character or place repeats: one named the same (its comment or a plain key), or whose
    text the proposal repeats (≥ ``FACT_DUPLICATE_THRESHOLD`` of its words). Extraction joins it
    instead of writing the lorebook's knowledge a second time."""
    if type_id not in LORE_TYPES:
        return None
    spec = NODE_TYPES[type_id]
    name = fold(fields.get(spec.title_field, "") or "")
    text = node_text(type_id, fields)
    terms = term_set(text)
    best: tuple[tuple[float, int, str, str], Node] | None = None
    for node in candidates(uow, chat_id, ("fact",), f"{name} {text}"):
        lore = lore_of(node)
        if lore is None or not is_read_only(node):
            continue
        titles = {fold(node.title)} | {
            fold(k) for k in lore.get("key", ()) if isinstance(k, str) and not is_regex_key(k)
        }
        score = 1.0 if name and name in titles else overlap(terms, term_set(node.fields.get("statement", "")))
        if score >= FACT_DUPLICATE_THRESHOLD:
            key = _order_key(score, node)
            if best is None or key < best[0]:
                best = (key, node)
    return best[1] if best else None


def fact_match(uow: UnitOfWork, chat_id: str, fields: dict[str, str], scope: Scope) -> Match | None:
    """A fact about the same subject that the new one repeats (score ≥ 0.8, same polarity) or
    contradicts (same topic, opposite polarity)."""
    statement = fields.get("statement", "")
    subject = fields.get("subject", "").strip().lower()
    terms = term_set(statement)
    topic = terms - _SENTIMENT
    polarity = negated(statement)
    best: tuple[tuple[float, int, str, str], Match] | None = None
    for node in candidates(uow, chat_id, ("fact",), statement):
        if node.scope != scope or node.fields.get("subject", "").strip().lower() != subject:
            continue
        if node.flags.get("superseded_by"):
            continue
        other = node.fields.get("statement", "")
        other_terms = term_set(other)
        if negated(other) != polarity:
            score = overlap(topic, other_terms - _SENTIMENT)
            match = Match(node, score, contradicts=True) if score >= CONTRADICTION_TOPIC_THRESHOLD else None
        else:
            score = overlap(terms, other_terms)
            match = Match(node, score) if score >= FACT_DUPLICATE_THRESHOLD else None
        if match is not None:
            key = _order_key(score, node)
            if best is None or key < best[0]:
                best = (key, match)
    return best[1] if best else None


ENTITY_TYPES = ("character", "location")
MAX_ENTITIES = 2000
ROLE_NEAR = 12  # a role-title form (林掌柜) joins a full name mentioned within this many messages


@dataclass(frozen=True)
class EntityMatch:
    node: Node  # the memory the proposed entity is
    others: tuple[Node, ...] = ()  # further memories the proposal shows to be the same entity
    how: str = "name"  # "name" | "alias" | "partial" | "ambiguous" (a part of several: no new memory)


def entity_nodes(uow: UnitOfWork, chat_id: str) -> list[Node]:
    """The chat's live, unarchived characters and places (read once per batch by the applier)."""
    pk = uow.read.require_chat_pk(chat_id)
    return live_nodes(uow.read, chat_id, pk, LiveFilter(ENTITY_TYPES), limit=MAX_ENTITIES)


def _in_scope(nodes: list[Node], scope: Scope) -> list[Node]:
    return sorted(
        (n for n in nodes if (n.scope.layer, n.scope.owner) == (scope.layer, scope.owner)), key=content_order
    )


def _node_names(node: Node) -> list[str]:
    return [node.fields.get("name", node.title), *entities.aliases_of(node.fields)]


def _near(a: list[int], b: list[int]) -> bool:
    return any(abs(x - y) <= ROLE_NEAR for x in a for y in b)


def _partial(node: Node, name: str, type_id: str, avoid: set[str], sources: list[int]) -> bool:
    """Whether the proposed ``name`` and the memory ``node`` are partial forms of one name. A
    proposed place may be a part of a character's name ("Sera" of "Sera Ashdown"), never the
    whole of which a character's name is a part; a proposed character may be the name of a
    place without its place word (明德 of 明德大学)."""
    names = _node_names(node)
    if entities.role_title(name) and avoid & {n.lower() for n in names}:
        return False
    place = node.type == "location"
    for other in names:
        if entities.partial_of(name, other, place) or (
            type_id == node.type and entities.partial_of(other, name, place)
        ):
            role = entities.role_title(name) or entities.role_title(other)
            if role and not _near(node.source_indices, sources):
                continue  # 林掌柜 is a full name's only if the chat names them together
            return True
    return False


def resolve_entity(
    uow: UnitOfWork,
    chat_id: str,
    type_id: str,
    name: str,
    aliases: list[str],
    scope: Scope,
    *,
    avoid: list[str] | tuple[str, ...] = (),
    sources: list[int] | None = None,
    known: list[Node] | None = None,
) -> EntityMatch | None:
    """The existing character or place a proposed one is (entity resolution on write).

    Same name or alias (case-insensitive, titles aside: "Captain Roderick Vale" = "Roderick
    Vale"): that memory, and every other memory one of the proposal's aliases names (they
    are one entity: the caller merges them). Else a partial form ("Roderick", 陆师兄, 小沈)
    of exactly one memory of the type (a place may also be a partial of a character); a
    Chinese surname with a role title (林掌柜) only of a full name mentioned near it and
    never of a name in ``avoid``. A part of several ("Ashdown" of two Ashdowns): ``ambiguous``.
    ``known``: the chat's characters and places when the caller holds them (else read here)."""
    nodes = _in_scope(entity_nodes(uow, chat_id) if known is None else known, scope)
    wanted = entities.all_keys(name, aliases)
    if not wanted:
        return None
    exact = [
        n
        for n in nodes
        if entities.all_keys(n.fields.get("name", n.title), entities.aliases_of(n.fields)) & wanted
    ]
    if exact:
        by_name = [n for n in exact if entities.keys(n.fields.get("name", n.title)) & entities.keys(name)]
        first = by_name or exact
        primary = min(first, key=lambda n: (n.type != type_id, *content_order(n)))
        others = tuple(n for n in exact if n.id != primary.id and not n.manually_edited and not n.pinned)
        return EntityMatch(primary, others, "name" if by_name else "alias")
    avoid_set = {a.lower() for a in avoid}
    order = (type_id, "character") if type_id == "location" else (type_id, "location")
    for kind in order:
        found = [n for n in nodes if n.type == kind and _partial(n, name, type_id, avoid_set, sources or [])]
        if len(found) == 1:
            return EntityMatch(found[0], (), "partial")
        if found:
            return EntityMatch(found[0], (), "ambiguous")
    return None
