"""Finding the existing memory a proposed one may be: same name, near duplicate, or a
contradicted fact. Similarity is the embedding cosine for memories that have a vector
(when the runner computed :class:`VectorScores`), else lexical term overlap."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from sqlalchemy import func, or_, select

from ..model import Node, Scope
from ..schema import node_text
from ..store import tables as t
from ..store.rows import row_to_node
from ..store.unit_of_work import UnitOfWork
from .textutil import negated, overlap, term_set
from .vector_match import VectorScores

DUPLICATE_THRESHOLD = 0.85
FACT_DUPLICATE_THRESHOLD = 0.8
CONTRADICTION_TOPIC_THRESHOLD = 0.5
MAX_CANDIDATES = 200
_PROBE = re.compile(r"[a-z0-9]{4,}|[\u4e00-\u9fff]{2}")
_SENTIMENT = frozenset({"like", "love", "hate", "dislik", "never", "not", "no", "longer", "anymor", "don",
                        "doesn", "didn", "won", "stop", "stopp", "prefer", "喜欢", "讨厌", "不再", "再喜", "不喜",
                        "不吃", "不喝", "没有", "从不", "再也", "也不"})


@dataclass(frozen=True)
class Match:
    node: Node
    score: float
    contradicts: bool = False


def _order_key(score: float, node: Node) -> tuple[float, int, str, str]:
    # Ids are random and timestamps may tie: order by content so the choice is reproducible.
    first = min(node.source_indices) if node.source_indices else 1 << 30
    return (-score, first, node.title, json.dumps(node.fields, sort_keys=True, ensure_ascii=False))


def candidates(uow: UnitOfWork, chat_id: str, types: tuple[str, ...], text: str,
               since: int | None = None) -> list[Node]:
    """Live, unarchived memories of ``types`` sharing at least one probe word with ``text``
    (and, with ``since``, drawn from messages at or after that index)."""
    pk = uow.read.require_chat_pk(chat_id)
    probes = sorted(set(_PROBE.findall(text.lower())), key=lambda w: (-len(w), w))[:6]
    if not probes:
        return []
    cond = [t.nodes.c.chat_pk == pk, t.nodes.c.type.in_(types), t.nodes.c.deleted_at.is_(None),
            t.nodes.c.tier != "archived",
            or_(*(t.nodes.c.search_text.like(f"%{p}%") for p in probes))]
    if since is not None:
        cond.append(t.nodes.c.src_min >= since)
    rows = uow.conn.execute(select(t.nodes).where(*cond).limit(MAX_CANDIDATES)).mappings()
    return [row_to_node(r, chat_id) for r in rows]


def same_name(uow: UnitOfWork, chat_id: str, types: tuple[str, ...], name: str, scope: Scope) -> Node | None:
    """The live memory of one of ``types`` with this name (case-insensitive) in the same owner
    scope; types earlier in the tuple win. The title of a character or place is its name."""
    pk = uow.read.require_chat_pk(chat_id)
    wanted = name.strip().lower()
    rows = uow.conn.execute(select(t.nodes).where(
        t.nodes.c.chat_pk == pk, t.nodes.c.type.in_(types), t.nodes.c.deleted_at.is_(None),
        t.nodes.c.tier != "archived", func.lower(t.nodes.c.title) == wanted[:200])).mappings()
    found = [n for n in (row_to_node(r, chat_id) for r in rows)
             if n.fields.get("name", n.title).strip().lower() == wanted
             and (n.scope.layer, n.scope.owner) == (scope.layer, scope.owner)]
    if not found:
        return None
    return min(found, key=lambda n: (types.index(n.type), *_order_key(0.0, n)))


def _by_ids(uow: UnitOfWork, chat_id: str, type_id: str, ids: list[str], since: int | None) -> list[Node]:
    pk = uow.read.require_chat_pk(chat_id)
    cond = [t.nodes.c.chat_pk == pk, t.nodes.c.id.in_(ids), t.nodes.c.type == type_id,
            t.nodes.c.deleted_at.is_(None), t.nodes.c.tier != "archived"]
    if since is not None:
        cond.append(t.nodes.c.src_min >= since)
    return [row_to_node(r, chat_id) for r in uow.conn.execute(select(t.nodes).where(*cond)).mappings()]


def nearest(uow: UnitOfWork, chat_id: str, type_id: str, fields: dict[str, str], scope: Scope,
            threshold: float = DUPLICATE_THRESHOLD, since: int | None = None,
            vectors: VectorScores | None = None) -> Match | None:
    """The most similar live memory of the same type and scope, if above the threshold: the
    cosine one (``vectors.threshold``) for memories with a vector, else ``threshold`` lexically."""
    text = node_text(type_id, fields)
    terms = term_set(text)
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
        if score >= bar:
            key = _order_key(score, node)
            if best is None or key < best[0]:
                best = (key, Match(node, score))
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
