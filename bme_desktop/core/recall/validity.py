"""Replaced facts in recall (Graphiti-style validity).

A memory marked ``superseded_by`` a live memory is no longer current. Unless the input asks
how things were (``Cues.past``: "before", "used to", "以前"…) it is not recalled; when it was
a good match, the memory replacing it takes its place (at least its score), and the other
memories drawn from the message the replaced statement came from (the event, a character's
state), when they matched the input only through the replaced statement's words, count
``CARRIER_WEIGHT`` as much, or are left out when their text states it (``QUOTES_SHARE`` of its
terms: an event quoting the old message) when the input asks for the current value (it shares
a word with the successor, or says now, still, these days, 现在, 还…), else weigh ×0.5. A character or place
is more than one statement:
it is never left out or weighed down for one; when its text states the replaced value, the
injection marks it as no longer true. When the input does ask
about the past, the replaced memory is recalled (brought in just below its successor when that
was recalled) and the injection says it no longer holds.
Summaries ("Story so far") leave out the sentences that state a replaced memory, unless the
input asks about the past.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import replace

from ..extract.textutil import sentences, term_set
from ..model import Node
from .api import RecalledNode
from .buckets import bucket_of
from .documents import body_text

CARRIER_WEIGHT = 0.5
NOW = re.compile(
    r"现在|如今|目前|还|\b(?:now|still|these days|nowadays|currently|any ?more)\b", re.IGNORECASE
)
PREDECESSOR_SHARE = 0.95  # for a question about the past, the replaced memory ranks just below its successor
ENTITY_TYPES = ("character", "location")
LABEL_FIELDS = frozenset({"status", "category", "certainty", "subject", "title"})
QUOTES_SHARE = 0.6  # a memory holding this share of a replaced statement's terms states it
TOPIC_SHARE = 0.25  # the input is about a replaced memory's topic when it shares a word with it or its
# successor, or when either is this close to the best relevance


def successor(node: Node, nodes: Mapping[str, Node]) -> Node | None:
    """The live memory that replaced ``node`` (following a chain of replacements), or None."""
    seen = {node.id}
    current = nodes.get(str(node.flags.get("superseded_by") or ""))
    while current is not None and current.flags.get("superseded_by") and current.id not in seen:
        seen.add(current.id)
        nxt = nodes.get(str(current.flags.get("superseded_by")))
        if nxt is None:
            break
        current = nxt
    return current


def is_replaced(node: Node, nodes: Mapping[str, Node]) -> bool:
    return bool(node.flags.get("superseded_by")) and successor(node, nodes) is not None


def old_sources(node: Node, new: Node | None) -> set[int]:
    """The messages the replaced statement was said in (not those its successor shares)."""
    return set(node.source_indices) - set(new.source_indices if new is not None else ())


def apply_validity(
    scored: list[RecalledNode],
    nodes: Mapping[str, Node],
    past: bool,
    query: str = "",
    core: list[RecalledNode] | None = None,
) -> list[RecalledNode]:
    """``scored`` with replaced memories handled as the module says (a new list). ``core``
    (the rules and open threads every injection carries) loses, in place, a memory that only
    restates a replaced statement the input is about."""
    if past:  # how things were: what a recalled memory replaced comes along, just below it
        recalled_too = list(scored)
        present = {r.node.id: r for r in recalled_too}
        for recalled in scored:
            for old_id in recalled.node.flags.get("supersedes") or []:
                old_node = nodes.get(str(old_id))
                share = recalled.score * PREDECESSOR_SHARE
                if old_node is None:
                    continue
                if old_node.id in present:
                    if present[old_node.id].score < share:
                        present[old_node.id].score = share
                        present[old_node.id].components["predecessor"] = 1.0
                    continue
                present[old_node.id] = RecalledNode(
                    old_node, share, bucket_of(old_node), {**recalled.components, "predecessor": 1.0}
                )
                recalled_too.append(present[old_node.id])
        return recalled_too
    replaced = [r for r in scored if is_replaced(r.node, nodes)]
    keep = [r for r in scored if r not in replaced]
    by_id = {r.node.id: r for r in keep}
    # (the replaced memory, its score in this recall or None, its successor)
    pairs: dict[str, tuple[Node, RecalledNode | None, Node]] = {}
    for gone in replaced:
        new = successor(gone.node, nodes)
        if new is not None:
            pairs[gone.node.id] = (gone.node, gone, new)
    for recalled in keep:  # a successor recalled on its own: the replaced memory's topic is asked about too
        for old_id in recalled.node.flags.get("supersedes") or []:
            old_node = nodes.get(str(old_id))
            if old_node is not None and old_node.id not in pairs and is_replaced(old_node, nodes):
                pairs[old_node.id] = (old_node, None, recalled.node)
    if not pairs:
        return keep
    best = max((r.components.get("relevance", r.score) for r in scored), default=0.0)
    asked = term_set(query)
    carried: set[int] = set()
    stated: list[frozenset[str]] = []  # the replaced statements' terms
    topic: frozenset[str] = frozenset()  # their words and their successors'
    successors: frozenset[str] = frozenset()
    until = -1.0  # the latest message that replaced one
    about: list[tuple[Node, Node]] = []  # the pairs the input is about
    for old_node, old, new in pairs.values():
        item = by_id.get(new.id)
        topical = max(
            old.components.get("relevance", old.score) if old is not None else 0.0,
            item.components.get("relevance", item.score) if item is not None else 0.0,
        )
        shares = asked & (term_set(body_text(old_node)) | term_set(body_text(new)))
        if not shares and topical < TOPIC_SHARE * best:
            continue
        carried |= old_sources(old_node, new)
        about.append((old_node, new))
        until = max(until, float((old_node.flags.get("validity") or {}).get("until_index") or -1))
        stated.append(term_set(body_text(old_node)))
        topic |= term_set(body_text(old_node)) | term_set(body_text(new))
        successors |= term_set(body_text(new))
        if old is None:
            continue
        if item is None:
            item = RecalledNode(new, old.score, bucket_of(new), {**old.components, "successor": 1.0})
            keep.append(item)
            by_id[new.id] = item
        elif item.score < old.score:
            item.score = old.score
            item.components["successor"] = 1.0
    if core:
        core[:] = [r for r in core if r.bucket == "summary" or not _restates(r.node, stated)]
    if not carried:
        return keep
    asks_now = bool(NOW.search(query))
    old_names = [_names_in(old_node, new, nodes) for old_node, new in about]
    out: list[RecalledNode] = []
    for recalled in keep:
        if "successor" not in recalled.components and carried & set(recalled.node.source_indices):
            terms = term_set(body_text(recalled.node))
            # it came back for the replaced statement's words (or who took part), not for
            # something else it holds
            via_old = not (asked & terms) - topic - term_set(recalled.node.fields.get("participants", ""))
            states_old = any(
                old_terms and len(old_terms & terms) >= QUOTES_SHARE * len(old_terms) for old_terms in stated
            )
            if recalled.node.type in ENTITY_TYPES:
                if any(recalled.node.id in names for names in old_names):
                    # the place or person the replaced statement names and its successor does
                    # not: the old value itself ("lives in 7号楼" → the place 7号楼)
                    recalled.score *= CARRIER_WEIGHT
                    recalled.components["w_superseded"] = CARRIER_WEIGHT
                    recalled.components["states_replaced"] = float(until)
                elif states_old:  # a character or place is more than one statement: it stays, marked
                    recalled.components["states_replaced"] = float(until)
                else:  # what it says now came later: the old message is no source of it here
                    dropped = carried & set(recalled.node.source_indices)
                    recalled.node = replace(
                        recalled.node,
                        source_indices=[i for i in recalled.node.source_indices if i not in dropped],
                    )
                    recalled.components["sources_replaced"] = float(len(dropped))
            elif states_old and (via_old or asks_now or asked & successors):
                continue  # it states the old value as if current, and the current value is asked for
            elif via_old or states_old or _sibling(recalled.node, carried, about):
                recalled.score *= CARRIER_WEIGHT
                recalled.components["w_superseded"] = CARRIER_WEIGHT
        out.append(recalled)
    return out


def _sibling(node: Node, carried: set[int], about: list[tuple[Node, Node]]) -> bool:
    """A fact said only in a replaced statement's message, about the same subject: the rest of
    the old state ("he's stuck in Chicago … he lives there now")."""
    subject = node.fields.get("subject", "").strip().lower()
    return (
        node.type == "fact"
        and bool(subject)
        and set(node.source_indices) <= carried
        and any(old.fields.get("subject", "").strip().lower() == subject for old, _ in about)
    )


def _restates(node: Node, stated: list[frozenset[str]]) -> bool:
    """Whether ``node`` says no more than one of the replaced statements (``stated``): most of
    its words are that statement's and it holds most of that statement's words."""
    terms = term_set(" ".join(v for k, v in node.fields.items() if k not in LABEL_FIELDS and v))
    return bool(terms) and any(
        old and len(old & terms) >= QUOTES_SHARE * len(old) and len(old & terms) >= QUOTES_SHARE * len(terms)
        for old in stated
    )


def _names_in(old: Node, new: Node, nodes: Mapping[str, Node]) -> set[str]:
    """The characters and places named in the replaced statement ``old`` but not in its
    successor ``new`` (by title or alias)."""
    old_text, new_text = body_text(old).lower(), body_text(new).lower()
    out = set()
    for node in nodes.values():
        if node.type not in ENTITY_TYPES:
            continue
        names = [node.title, *re.split(r"[;；,，]", node.fields.get("aliases", ""))]
        names = [n.strip().lower() for n in names if len(n.strip()) >= 2]
        if any(_says(n, old_text) for n in names) and not any(_says(n, new_text) for n in names):
            out.add(node.id)
    return out


def _says(name: str, text: str) -> bool:
    """Whether ``text`` names ``name`` (whole words for a Latin name)."""
    if name.isascii():
        return re.search(rf"\b{re.escape(name)}\b", text) is not None
    return name in text


def replaced_statements(replaced_ids: Iterable[str], nodes: Mapping[str, Node]) -> list[frozenset[str]]:
    """The terms of every memory replaced by a live one."""
    out = []
    for node_id in sorted(replaced_ids):
        node = nodes.get(node_id)
        if node is not None and is_replaced(node, nodes):
            terms = term_set(body_text(node))
            if terms:
                out.append(terms)
    return out


def current_text(text: str, stated: list[frozenset[str]]) -> str:
    """``text`` (a summary) without the sentences that state a replaced memory."""
    if not stated:
        return text
    kept = [
        s
        for s in sentences(text)
        if not any(len(old & (terms := term_set(s))) >= QUOTES_SHARE * len(old) and terms for old in stated)
    ]
    return " ".join(kept)
