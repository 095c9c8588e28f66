"""Reflection (task ``reflect``; automatically every ``reflect_every`` extractions when
``auto_reflect``): insights about long-running patterns, stored as ``reflection`` memories.

The context is the last ``reflect_window`` (30) visible events, the names in them (the
``participants`` field and characters linked by ``involved_in``), the places they happened
at (``occurred_at``) and the ``contradicts`` edges between visible memories. The
deterministic path (``deterministic_insights``, written in the chat's language: Chinese when
the recent events are mostly Han) finds: a participant in at least
``MIN_REPEAT`` (3) of those events, a pair of participants together that often, a place
that often, and each contradiction. An LLM can propose insights instead (``ask_insights``,
used by the hand-run task when a model is available (an endpoint, or a lent one); any failure falls back to
the
deterministic path; the batch description ends with ``(llm)`` or ``(rules …)``). Each insight becomes a
``reflection`` memory (insight, trigger,
suggestion) with an ``evolves`` edge from every piece of evidence to it; an insight whose
key (``flags.reflection_key``) is already stored is not written again. One ``reflect``
batch per pass, undone by ``undo_lifecycle_batch``.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING

from .. import editing
from ..cancel import CancelToken, checkpoint
from ..events import ChangeRecord
from ..model import Edge, Node
from ..settings import LifecycleSettings
from ..store.reader import Reader
from ..store.unit_of_work import UnitOfWork
from .tiers import is_visible

if TYPE_CHECKING:
    from ..ports import ModelSteps

ACTOR = "lifecycle"
MIN_REPEAT = 3
MAX_EVIDENCE = 6
_SPLIT = re.compile(r"\s*(?:[,，、;；/&]|\band\b|和|与|跟)\s*")


@dataclass
class Insight:
    insight: str
    trigger: str
    suggestion: str
    evidence: list[str]
    importance: float = 6.0
    key: str = ""


@dataclass
class ReflectionContext:
    events: list[Node]  # oldest first
    names: dict[str, list[str]]  # event id -> participant names
    places: dict[str, list[str]]  # event id -> location names
    contradictions: list[tuple[Node, Node]]


@dataclass
class ReflectionReport:
    batch_id: int | None = None
    created: list[str] = field(default_factory=list)
    used_llm: bool = False
    label: str = "rules"  # the path, as the batch description ends: "llm", "rules", "rules (model failed: …)"


def gather(read: Reader, chat_id: str, window: int) -> ReflectionContext:
    nodes = {n.id: n for n in read.all_nodes(chat_id) if is_visible(n) and n.review_status != "rejected"}
    events = sorted(
        (n for n in nodes.values() if n.type == "event"),
        key=lambda n: (min(n.source_indices, default=0), n.created_at, n.id),
    )[-window:]
    wanted = {e.id for e in events}
    names: dict[str, list[str]] = {
        e.id: [p for p in _SPLIT.split(e.fields.get("participants", "")) if p] for e in events
    }
    places: dict[str, list[str]] = {e.id: [] for e in events}
    contradictions: list[tuple[Node, Node]] = []
    edges: list[Edge] = read.edges(chat_id, include_invalid=False)
    for edge in edges:
        a, b = nodes.get(edge.from_id), nodes.get(edge.to_id)
        if a is None or b is None:
            continue
        if (
            edge.relation == "involved_in"
            and b.id in wanted
            and a.type == "character"
            and a.title not in names[b.id]
        ):
            names[b.id].append(a.title)
        elif edge.relation == "occurred_at" and a.id in wanted and b.type == "location":
            places[a.id].append(b.title)
        elif edge.relation == "contradicts":
            contradictions.append((a, b))
    return ReflectionContext(events, names, places, contradictions)


def _evidence(ctx: ReflectionContext, ids: list[str]) -> list[str]:
    return ids[-MAX_EVIDENCE:]  # the newest pieces of evidence


# The rules' sentences, in the chat's language (Chinese when the events are mostly Han).
_TEXTS = {
    "en": {
        "person": (
            "{name} keeps coming back: in {count} of the last {total} events.",
            "recurring participant: {name}",
            "Keep {name}'s state and goals current.",
        ),
        "pair": (
            "{a} and {b} are often together: {count} of the last {total} events.",
            "co-occurring: {a} + {b}",
            "Consider how {a} and {b} relate.",
        ),
        "place": (
            "Much of the story happens at {place}: {count} of the last {total} events.",
            "recurring place: {place}",
            "Keep {place}'s state current.",
        ),
        "contradiction": (
            "Two memories disagree: “{first}” vs “{second}”.",
            "contradiction",
            "Check which one is still true; correct or archive the other.",
        ),
    },
    "zh": {
        "person": (
            "{name}反复出现：最近 {total} 个事件中有 {count} 个。",
            "反复出现的人物：{name}",
            "及时更新{name}的状态和目标。",
        ),
        "pair": (
            "{a}和{b}经常同时出现：最近 {total} 个事件中有 {count} 个。",
            "同时出现：{a} + {b}",
            "想想{a}和{b}之间是什么关系。",
        ),
        "place": (
            "故事多在{place}展开：最近 {total} 个事件中有 {count} 个。",
            "反复出现的地点：{place}",
            "及时更新{place}的状态。",
        ),
        "contradiction": (
            "两条记忆互相矛盾：“{first}”与“{second}”。",
            "矛盾",
            "确认哪一条仍然成立，修正或归档另一条。",
        ),
    },
}


def chat_language(ctx: ReflectionContext) -> str:
    """``"zh"`` when the events are written mostly in Chinese, else ``"en"``."""
    text = "".join(e.title + " ".join(e.fields.values()) for e in ctx.events[-10:])
    han = sum(1 for ch in text if "\u4e00" <= ch <= "\u9fff")
    latin = sum(1 for ch in text if ch.isascii() and ch.isalpha())
    return "zh" if han and han * 2 >= latin else "en"


def _say(lang: str, kind: str, **values: object) -> tuple[str, str, str]:
    insight, trigger, suggestion = _TEXTS[lang][kind]
    return insight.format(**values), trigger.format(**values), suggestion.format(**values)


def deterministic_insights(ctx: ReflectionContext) -> list[Insight]:
    out: list[Insight] = []
    total = len(ctx.events)
    lang = chat_language(ctx)
    people = Counter(name for e in ctx.events for name in set(ctx.names[e.id]))
    for name, count in sorted(people.items(), key=lambda kv: (-kv[1], kv[0])):
        if count >= MIN_REPEAT:
            ids = [e.id for e in ctx.events if name in ctx.names[e.id]]
            out.append(
                Insight(
                    *_say(lang, "person", name=name, count=count, total=total),
                    _evidence(ctx, ids),
                    min(9.0, 5.0 + count / 3),
                    f"person:{name}",
                )
            )
    pairs = Counter(pair for e in ctx.events for pair in combinations(sorted(set(ctx.names[e.id])), 2))
    for (a, b), count in sorted(pairs.items(), key=lambda kv: (-kv[1], kv[0])):
        if count >= MIN_REPEAT:
            ids = [e.id for e in ctx.events if a in ctx.names[e.id] and b in ctx.names[e.id]]
            out.append(
                Insight(
                    *_say(lang, "pair", a=a, b=b, count=count, total=total),
                    _evidence(ctx, ids),
                    6.0,
                    f"pair:{a}|{b}",
                )
            )
    where = Counter(p for e in ctx.events for p in set(ctx.places[e.id]))
    for place, count in sorted(where.items(), key=lambda kv: (-kv[1], kv[0])):
        if count >= MIN_REPEAT:
            ids = [e.id for e in ctx.events if place in ctx.places[e.id]]
            out.append(
                Insight(
                    *_say(lang, "place", place=place, count=count, total=total),
                    _evidence(ctx, ids),
                    5.0,
                    f"place:{place}",
                )
            )
    for x, y in ctx.contradictions:
        first, second = sorted((x, y), key=lambda n: n.id)
        out.append(
            Insight(
                *_say(lang, "contradiction", first=first.title, second=second.title),
                [first.id, second.id],
                7.0,
                f"contradiction:{first.id}|{second.id}",
            )
        )
    return out


def existing_keys(read: Reader, chat_id: str) -> set[str]:
    return {
        str(n.flags.get("reflection_key"))
        for n in read.all_nodes(chat_id)
        if n.type == "reflection" and n.flags.get("reflection_key")
    }


def write_insights(
    uow: UnitOfWork,
    chat_id: str,
    insights: list[Insight],
    report: ReflectionReport,
    *,
    cancel: CancelToken | None = None,
) -> None:
    """Store new insights (skipping known keys and vanished evidence) in one ``reflect`` batch."""
    known = existing_keys(uow.read, chat_id)
    fresh: list[Insight] = []
    for ins in insights:
        live = [n.id for n in uow.read.nodes_by_ids(chat_id, ins.evidence) if is_visible(n)]
        if (ins.key and ins.key in known) or not live or not ins.insight.strip():
            continue
        known.add(ins.key)
        fresh.append(
            Insight(
                ins.insight,
                ins.trigger,
                ins.suggestion,
                [i for i in ins.evidence if i in live],
                ins.importance,
                ins.key,
            )
        )
    if not fresh:
        return
    report.batch_id = uow.begin_batch(
        chat_id, "reflect", actor=ACTOR, description=f"{len(fresh)} reflections ({report.label})"
    )
    for ins in fresh:
        checkpoint(cancel)
        made = editing.create_node(
            uow,
            chat_id,
            editing.NodeDraft(
                type="reflection",
                importance=max(0.0, min(10.0, ins.importance)),
                tier="long_term",
                fields={
                    "insight": ins.insight[:2000],
                    "trigger": ins.trigger[:2000],
                    "suggestion": ins.suggestion[:2000],
                },
            ),
            manual=False,
        )
        made.flags = {
            "reflection_key": ins.key,
            "evidence": ins.evidence,
            "source": "llm" if report.used_llm else "rules",
        }
        uow.put_node(made)
        for evidence_id in ins.evidence:
            editing.link(uow, chat_id, evidence_id, made.id, "evolves", manual=False)
        report.created.append(made.id)
    uow.end_batch()


def reflect_in(uow: UnitOfWork, chat_id: str, now: float, settings: LifecycleSettings) -> ReflectionReport:
    report = ReflectionReport()
    write_insights(
        uow, chat_id, deterministic_insights(gather(uow.read, chat_id, settings.reflect_window)), report
    )
    return report


def auto_reflect_in(
    uow: UnitOfWork, chat_id: str, now: float, settings: LifecycleSettings
) -> ReflectionReport:
    """After an extraction: reflect once ``reflect_every`` extractions passed since the last
    reflection (only when ``auto_reflect``)."""
    if not settings.auto_reflect:
        return ReflectionReport()
    last = max((b.id for b in uow.read.batches(chat_id, status="applied", kind="reflect")), default=0)
    since = sum(1 for b in uow.read.batches(chat_id, status="applied", kind="extract") if b.id > last)
    return reflect_in(uow, chat_id, now, settings) if since >= settings.reflect_every else ReflectionReport()


def reflect_with_change(
    service: ModelSteps, chat_id: str, *, cancel: CancelToken | None = None
) -> tuple[ReflectionReport, ChangeRecord]:
    """The hand-run task: the LLM proposes when enabled (called outside the write), else the
    rules; the proposal is written in one write."""
    from .llm_step import Asked, model_step
    from .reflect_llm import ask_insights

    window = service.settings.lifecycle.reflect_window

    def write(
        uow: UnitOfWork, ctx: ReflectionContext, asked: Asked[list[Insight]] | None
    ) -> ReflectionReport:
        proposed = asked.value if asked is not None else None
        report = ReflectionReport(
            used_llm=proposed is not None, label=asked.label if asked is not None else "rules"
        )
        insights = proposed if proposed is not None else deterministic_insights(ctx)
        write_insights(uow, chat_id, insights, report, cancel=cancel)
        return report

    return model_step(
        service,
        chat_id,
        lambda r: gather(r, chat_id, window),
        lambda ctx: ask_insights(service, chat_id, ctx),
        write,
        cancel,
    )


def reflect(service: ModelSteps, chat_id: str) -> ReflectionReport:
    return reflect_with_change(service, chat_id)[0]
