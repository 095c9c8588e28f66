"""Hierarchical summaries (tasks ``summarize`` and ``fold``), deterministic and extractive.

``summarize``: once ``summary_every`` (3) extraction batches are not yet covered by a
level-0 summary, write one small summary of them: the key sentences of the events they
messages: the sentences that name someone or somewhere new, state a rule, a decision or plan, a
lasting fact or a change, without greetings, questions, interjections and echoes (kept in
story order, about 220 characters). The summary keeps the message
range it covers; its batch reads that range, so a history rollback there undoes it.

``fold``: when a level holds more than ``fold_above`` (3) active summaries, the oldest
``fold_above`` fold into one summary a level up (their first sentences, about 260
characters) and are marked ``folded``. The hand-run ``summarize`` and ``fold`` tasks ask the
LLM first (``summaries_llm``, ``fold_llm``, outside the write) and pass its texts in as
``proposed``; the batch description ends with the path used: ``(llm)`` or ``(rules …)``.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from ..cancel import CancelToken, checkpoint
from ..model import Batch, Summary
from ..schema import node_text
from ..settings import LifecycleSettings
from ..store.reader import Reader
from ..store.unit_of_work import UnitOfWork
from .llm_step import is_llm

ACTOR = "lifecycle"
SMALL_CHARS = 220
ROLLUP_CHARS = 260
_SENTENCE = re.compile(r"[^。！？!?.\n]+[。！？!?.]?")


@dataclass
class SummaryReport:
    batch_ids: list[int] = field(default_factory=list)
    created: list[str] = field(default_factory=list)
    folded: list[str] = field(default_factory=list)


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.findall(text) if len(s.strip()) > 1]


def compose(candidates: list[tuple[float, int, str]], limit: int) -> str:
    """Pick the highest-scoring sentences ``(score, order, sentence)`` that fit ``limit``
    characters, then print them in their original order."""
    chosen: list[tuple[int, str]] = []
    used = 0
    seen: set[str] = set()
    for _score, order, sentence in sorted(candidates, key=lambda c: (-c[0], c[1])):
        if sentence in seen:
            continue
        cost = len(sentence) + (1 if chosen else 0)
        if used + cost > limit and chosen:
            continue
        chosen.append((order, sentence[:limit]))
        seen.add(sentence)
        used += cost
    return " ".join(s for _, s in sorted(chosen))


def _uncovered(read: Reader, chat_id: str) -> list[Batch]:
    """The extraction batches past the last small summary (read in SQL: this runs after every
    extraction batch, and reading the whole chat's batches each time grew with the chat)."""
    covered = read.summaries_end(chat_id, 0)
    return read.batches(
        chat_id, status="applied", kind="extract", read_to_above=-1 if covered is None else covered
    )


def pending_groups(read: Reader, chat_id: str, settings: LifecycleSettings) -> list[list[Batch]]:
    """The extraction batches each next small summary will cover, oldest first."""
    pending = _uncovered(read, chat_id)
    every = settings.summary_every
    return [pending[i : i + every] for i in range(0, len(pending) - every + 1, every)]


@dataclass
class SummarySource:
    start: int
    end: int
    source_ids: list[str]
    texts: list[str]  # the events' texts in story order, else the messages
    candidates: list[tuple[float, int, str]]


_GREETINGS = re.compile(
    r"^(?:hi|hey|hello|welcome|thanks?|thank you|good (?:morning|evening|night|afternoon)|bye|goodbye|yes|no|"
    r"yeah|okay|ok|oh|ah|um|well|sure|deal|right|see you)\b|^(?:你好|您好|欢迎|谢谢|早上好|晚上好|晚安|再见|"
    r"好的|好啦|嗯|哦|啊|哈)",
    re.I,
)
_DECISION = re.compile(
    r"\b(?:must|have to|need to|will|promise[sd]?|decide[sd]?|plan(?:s|ned)? to|let'?s|agree[sd]?|vow(?:s|"
    r"ed)?|"
    r"going to|find|search)\b|必须|一定要|决定|答应|打算|要去|寻找|约好|发誓|计划",
    re.I,
)
_FIRST_PERSON = re.compile(r"^(?:i|i'm|i've|i'll|i'd|my|we|we're|we'll|our)\b|^我", re.I)
_DECOR = re.compile(r"[*\"“”「」『』]+")
ECHO_SHARE = 0.7  # a sentence whose words an earlier candidate mostly holds is an echo


def _clean(sentence: str) -> str:
    return " ".join(_DECOR.sub(" ", sentence).split()).strip(" :：,，")


def summary_source(read: Reader, chat_id: str, batches: list[Batch]) -> SummarySource:
    """The sentences of the batches' messages that carry the story: new names, rules,
    decisions and plans, lasting facts and changes; greetings, questions, short interjections
    and echoes of an earlier sentence are left out (extractive, no model)."""
    from ..extract.cues import change_cue, fact_cue, is_question, is_rule
    from ..extract.textutil import term_set

    ids = {b.id for b in batches}
    start = min(b.read_from if b.read_from is not None else b.read_to or 0 for b in batches)
    end = max(b.read_to or 0 for b in batches)
    nodes = read.all_nodes(chat_id, batch_ids=ids)
    events = [n for n in nodes if n.type == "event"] or nodes
    names = sorted(
        {
            n.title
            for n in nodes
            if n.type in ("character", "location")
            and n.title
            and min(n.source_indices, default=start) >= start
        },
        key=len,
        reverse=True,
    )
    texts = [
        node_text(n.type, n.fields)
        for n in sorted(events, key=lambda n: (min(n.source_indices, default=0), n.created_at))
    ]
    candidates: list[tuple[float, int, str]] = []
    seen: list[frozenset[str]] = []
    for message in read.messages(chat_id, start, end):
        speaker = message.name or ""
        for k, raw in enumerate(sentences(message.text)):
            sentence = _clean(raw)
            terms = term_set(sentence)
            if (
                len(terms) < 3
                or _GREETINGS.match(sentence)
                or is_question(sentence)
                or "?" in sentence
                or "？" in sentence
            ):
                continue
            if any(len(terms & old) >= ECHO_SHARE * len(terms) for old in seen):
                continue
            seen.append(terms)
            lowered = sentence.lower()
            score = 2.0 * sum(1 for name in names if name.lower() in lowered)
            cue = fact_cue(sentence)
            score += 2.0 if is_rule(sentence) else 0.0
            score += 1.5 if cue is not None and cue[0] != "event" else 0.0
            score += 1.5 if change_cue(sentence) else 0.0
            score += 1.0 if _DECISION.search(sentence) else 0.0
            score += min(len(terms), 12) / 12 - 0.01 * k
            if score < 1.0:
                continue  # nothing new: scenery, small talk
            if speaker and _FIRST_PERSON.match(sentence):
                sentence = f"{speaker}: {sentence}"
            candidates.append((score, message.index * 100 + k, sentence))
    if not candidates:  # messages that say nothing new: the memories' own sentences
        for rank, text in enumerate(texts):
            for k, sentence in enumerate(sentences(text)):
                candidates.append((5.0 - k, rank * 100 + k, sentence))
    return SummarySource(start, end, [n.id for n in events], texts, candidates)


def summarize_in(
    uow: UnitOfWork,
    chat_id: str,
    now: float,
    settings: LifecycleSettings,
    *,
    proposed: Mapping[tuple[int, int], str] | None = None,
    label: str = "rules",
    cancel: CancelToken | None = None,
) -> SummaryReport:
    """Write the due small summaries. ``proposed`` maps a ``(start, end)`` range to a text the
    LLM wrote for it; other ranges get the extractive text, their description says ``label``."""
    report = SummaryReport()
    for group in pending_groups(uow.read, chat_id, settings):
        checkpoint(cancel)
        src = summary_source(uow.read, chat_id, group)
        start, end = src.start, src.end
        text = (proposed or {}).get((start, end))
        path = (label if is_llm(label) else "llm") if text else ("rules" if is_llm(label) else label)
        text = text or compose(src.candidates, SMALL_CHARS)
        batch_id = uow.begin_batch(
            chat_id,
            "summarize",
            actor=ACTOR,
            read_from=start,
            read_to=end,
            description=f"summary of messages {start}–{end} ({path})",
        )
        summary = Summary(
            id=uuid.uuid4().hex,
            chat_id=chat_id,
            level=0,
            kind="small",
            status="active",
            text=text or "(nothing to summarise)",
            start_index=start,
            end_index=end,
            source_ids=src.source_ids,
            batch_id=None,
            created_at=now,
        )
        uow.put_summary(summary)
        uow.end_batch()
        report.batch_ids.append(batch_id)
        report.created.append(summary.id)
    return report


def fold_in(
    uow: UnitOfWork,
    chat_id: str,
    now: float,
    settings: LifecycleSettings,
    *,
    proposed: Mapping[tuple[str, ...], str] | None = None,
    label: str = "rules",
    cancel: CancelToken | None = None,
) -> SummaryReport:
    """Fold every overflowing level. ``proposed`` maps the ids of a group of children (oldest
    first) to a text the LLM wrote for it; other groups get the extractive text and ``label``."""
    report = SummaryReport()
    while True:
        checkpoint(cancel)
        active = uow.read.summaries(chat_id, status="active")
        levels = sorted({s.level for s in active})
        level = next(
            (lv for lv in levels if sum(1 for s in active if s.level == lv) > settings.fold_above), None
        )
        if level is None:
            return report
        children = sorted(
            (s for s in active if s.level == level),
            key=lambda s: (s.start_index if s.start_index is not None else -1, s.created_at),
        )
        children = children[: settings.fold_above]
        candidates = [
            (10.0 - k, i * 100 + k, sentence)
            for i, child in enumerate(children)
            for k, sentence in enumerate(sentences(child.text)[:2])
        ]
        starts = [s.start_index for s in children if s.start_index is not None]
        ends = [s.end_index for s in children if s.end_index is not None]
        start, end = (min(starts) if starts else None), (max(ends) if ends else None)
        text = (proposed or {}).get(tuple(s.id for s in children))
        path = (label if is_llm(label) else "llm") if text else ("rules" if is_llm(label) else label)
        batch_id = uow.begin_batch(
            chat_id,
            "fold",
            actor=ACTOR,
            read_from=start,
            read_to=end,
            description=f"fold {len(children)} level-{level} summaries ({path})",
        )
        rollup = Summary(
            id=uuid.uuid4().hex,
            chat_id=chat_id,
            level=level + 1,
            kind="rollup",
            status="active",
            text=text or compose(candidates, ROLLUP_CHARS),
            start_index=start,
            end_index=end,
            source_ids=[s.id for s in children],
            batch_id=None,
            created_at=now,
        )
        uow.put_summary(rollup)
        for child in children:
            uow.put_summary(replace(child, status="folded"))
            report.folded.append(child.id)
        uow.end_batch()
        report.batch_ids.append(batch_id)
        report.created.append(rollup.id)
