"""Which older statement a statement of change replaces (the offline path).

A statement of change ("I hate mushrooms now", "he's leaving Chicago", "我戒奶茶了", see
:func:`.cues.change_cue`) replaces the latest earlier statement of state on the same topic:
one that states a lasting state or preference (:func:`.cues.is_state`), or answers a
question about one ("你住哪栋？" — "7号楼"), from a message at least two before it. The
topic is what the two exchanges share: the terms of the change's message and the message it
answers, against the terms of the older message and the one before it, each term weighted
by how rare it is among the messages read (a word in every other message says nothing).
The older statement is taken when the shared weight reaches ``MIN_SHARED``, or
``MIN_SHARED_DIRECT`` when a shared term is in the changing sentence itself.

Facts already stored count too, however old: a live fact with the same subject whose
statement shares the topic. Messages are read back at most ``LOOKBACK`` messages.
Same input, same answer: nothing here reads the clock or random state.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..model import Message, Node
from ..store.unit_of_work import UnitOfWork
from .cues import STATE, is_question, is_state
from .matching import candidates, content_order
from .textutil import sentences, term_set

LOOKBACK = 300
MIN_SCORE = 0.9  # when the changing sentence shares a term with the older exchange
MIN_SCORE_AROUND = 2.0  # when only the exchanges around it do
SAME_KIND = 1.5  # both statements are about where someone lives, what they eat and drink, or work
# Words of change and sentiment: shared by any two such statements, they name no topic.
_NOT_TOPIC = frozenset(
    term_set(
        "now no longer anymore any more nowadays these days lately from now on gone went off quit gave given "
        "up "
        "switched moved moving leaving left changed mind love loves like likes hate hates never always every "
        "day "
        "night morning can't without favourite favorite usually really actually want make thing take back "
        "现在 不再 再也 已经 戒了 戒掉 改成 换成 搬到 搬去 搬家 如今 从此 以后 最近 喜欢 讨厌 每天 总是 一直 "
        "以前"
    )
)
_KINDS = (
    (
        "home",
        re.compile(
            r"\b(?:live[sd]?|living|moved?|moving|room|apartment|flat|house|home|city|town|stays?)\b|"
            r"住|搬|宿舍|家|楼",
            re.I,
        ),
    ),
    (
        "food",
        re.compile(
            r"\b(?:eat\w*|drink\w*|food|dish|stew|coffee|tea|latte|beer|wine|taste|spicy|sweet|"
            r"vegetarian|mushrooms?)\b|吃|喝|茶|咖啡|辣|甜|酒|饭|菜|味",
            re.I,
        ),
    ),
    (
        "work",
        re.compile(
            r"\b(?:work\w*|job|shop|office|boss|business|career)\b|工作|上班|开店|店|掌柜|老板|公司", re.I
        ),
    ),
)


def _kinds(text: str) -> set[str]:
    return {name for name, pattern in _KINDS if pattern.search(text)}


@dataclass(frozen=True)
class Replaced:
    """The older statement a change replaces."""

    index: int  # the message it was said in
    sentence: str
    speaker: str | None
    node: Node | None  # the fact already stored for it, if any
    score: float


def _weights(messages: Sequence[Message]) -> dict[str, float]:
    """Inverse document frequency over the messages read, 1 for a term said once."""
    df: Counter[str] = Counter()
    for m in messages:
        df.update(term_set(m.text))
    n = len(messages) + 1
    top = math.log(n / 1.5)
    if top <= 0:
        return dict.fromkeys(df, 1.0)
    return {t: max(0.0, math.log(n / (c + 0.5)) / top) * (0.5 if t.isdigit() else 1.0) for t, c in df.items()}


def _speaker_terms(messages: Sequence[Message]) -> frozenset[str]:
    names = {m.name for m in messages if m.name}
    return frozenset().union(*(term_set(n) for n in names)) if names else frozenset()


_REFERS = re.compile(r"\b(?:this|that|it|one|there|then)\b|这|那|它", re.I)


def _stated(message: Message, before: Message | None) -> list[str]:
    """The statements in ``message`` of something lasting (a sentence that refers back — "I
    could eat this every night" — with the sentence before it); the first sentence also when
    it answers a question about a state."""
    said = [s for s in sentences(message.text) if len(term_set(s)) >= 2 and not _asks(s)]
    found = [
        f"{said[n - 1]} {s}" if n and _REFERS.search(s) else s for n, s in enumerate(said) if is_state(s)
    ]
    if before is not None and not found and said:
        asked = [s for s in sentences(before.text)[-2:] if _asks(s)]
        if asked and STATE.search(asked[-1]):
            found.append(said[0])
    return found


def _asks(sentence: str) -> bool:
    return "?" in sentence or "？" in sentence or is_question(sentence)


def _same_statement(facts: list[Node], terms: frozenset[str]) -> Node | None:
    """The stored fact that says this statement (most of its terms), if any."""
    for fact in sorted(facts, key=content_order):  # not by id: ids are random
        said = term_set(fact.fields.get("statement", ""))
        if said and len(said & terms) >= 0.6 * min(len(said), len(terms)):
            return fact
    return None


def _sum(terms: frozenset[str], weights: dict[str, float]) -> float:
    return sum(weights.get(t, 0.0) for t in terms)


def find_replaced(
    uow: UnitOfWork, chat_id: str, statement: str, subject: str | None, sources: Sequence[int]
) -> Replaced | None:
    """The older statement that ``statement`` (a change, said in message ``max(sources)``)
    replaces, or None."""
    if not sources:
        return None
    at = max(sources)
    messages = uow.read.messages(chat_id, max(0, at - LOOKBACK), at)
    by_index = {m.index: m for m in messages}
    now = by_index.get(at)
    if now is None:
        return None
    weights = _weights(messages)
    ignore = _NOT_TOPIC | _speaker_terms(messages)
    asked = by_index.get(at - 1)
    direct = term_set(statement) - ignore
    around = (term_set(now.text) | (term_set(asked.text) if asked else frozenset())) - ignore - direct
    kinds = _kinds(statement) or _kinds(now.text)
    if not direct and not around:
        return None
    best: tuple[tuple[float, float, int], Replaced] | None = None
    stored: dict[int, list[Node]] = {}
    for n in candidates(uow, chat_id, ("fact",), statement + " " + now.text):
        if n.scope.layer == "objective":
            for i in n.source_indices:
                stored.setdefault(i, []).append(n)
    for m in messages:
        if m.index > at - 2:
            break
        before = by_index.get(m.index - 1)
        context = term_set(m.text) | (term_set(before.text) if before else frozenset())
        if not (direct | around) & context:
            continue
        for sentence in _stated(m, before):
            own = term_set(sentence)
            # The changing sentence against the older one counts most, the exchanges around
            # them least; at least one of the two sentences must take part.
            score = (
                2.0 * _sum(direct & own, weights)
                + _sum(direct & (context - own), weights)
                + _sum(around & own, weights)
                + 0.5 * _sum(around & (context - own), weights)
            )
            if not (direct & context or around & own):
                continue
            if kinds & _kinds(
                sentence + " " + (before.text if before and not (own & (direct | around)) else "")
            ):
                score *= SAME_KIND
            import os

            if os.environ.get("SUPDBG"):
                print(
                    "DBG",
                    at,
                    statement[:40],
                    "|",
                    m.index,
                    sentence[:50],
                    round(score, 2),
                    sorted(direct & context),
                    sorted(around & own),
                )
            near = bool(direct & context)
            if score < (MIN_SCORE if near else MIN_SCORE_AROUND):
                continue
            # a focused statement beats a long narration that mentions the topic in passing
            fact = _same_statement(stored.get(m.index, []), own)
            if fact is not None and fact.flags.get("superseded_by"):
                continue  # already replaced once: its successor is what a later change replaces
            key = (float(near), score / math.sqrt(max(4, len(own))), m.index)
            if best is None or key > best[0]:
                best = (key, Replaced(m.index, sentence, m.name or m.role, fact, score))
    # Stored facts older than the messages read (same subject, sharing the topic).
    first_read = messages[0].index if messages else at
    for fact in {n.id: n for found in stored.values() for n in found}.values():
        if (
            not fact.source_indices
            or max(fact.source_indices) >= first_read
            or fact.flags.get("superseded_by")
        ):
            continue
        if (fact.fields.get("subject") or "").strip().lower() != (subject or "").strip().lower():
            continue
        shared = direct & term_set(fact.fields.get("statement", ""))
        score = float(len(shared))
        if score >= 2 and is_state(fact.fields.get("statement", "")):
            key = (1.0, score, max(fact.source_indices))
            if best is None or key > best[0]:
                best = (
                    key,
                    Replaced(max(fact.source_indices), fact.fields.get("statement", ""), None, fact, score),
                )
    return best[1] if best else None
