"""The patrol report: a daily look over a chat's memories that only lists, never changes.

``patrol_report(service, chat_id)`` (one read, no write) lists: long-unused memories (not
recalled for ``patrol_unused_days``), suspected duplicates (same type and point of view,
similarity ≥ ``consolidate_threshold`` − 0.1), contradiction candidates (``contradicts``
edges, or facts with the same subject and category but different statements), memories
about to be forgotten (current retrievability between ``dormant_below`` and
``dormant_below + patrol_forget_margin``), unclassified facts (no category) and stale to-dos
(working-memory items unmentioned for over half their expiry). Each list holds at most
``MAX_ITEMS`` entries; ``omitted`` counts the rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..model import Node
from ..model import PatrolItem as PatrolItem
from ..model import PatrolReport as PatrolReport
from ..settings import LifecycleSettings
from ..store.reader import Reader
from .consolidate import NEAR_MISS_BAND, decide_pairs
from .recall_hits import current_retrievability
from .retention import Retirement, plan_retention
from .tiers import is_visible
from .working_memory import open_items

if TYPE_CHECKING:
    from ..ports import Memory

DAY = 86400.0
MAX_ITEMS = 100  # per list; duplicates come most similar first


def _item(nodes: list[Node], note: str) -> PatrolItem:
    return PatrolItem([n.id for n in nodes], [n.title for n in nodes], note)


def build_report(read: Reader, chat_id: str, now: float, settings: LifecycleSettings) -> PatrolReport:
    report = PatrolReport(chat_id, now)
    nodes = [n for n in read.all_nodes(chat_id) if is_visible(n) and n.review_status != "rejected"]
    by_id = {n.id: n for n in nodes}
    groups: dict[tuple[str, str, str | None], list[Node]] = {}
    for n in nodes:
        last = n.last_recalled_at if n.last_recalled_at is not None else n.created_at
        if n.tier == "long_term" and now - last >= settings.patrol_unused_days * DAY:
            report.long_unused.append(_item([n], f"unused for {(now - last) / DAY:.0f} days"))
        r = current_retrievability(n, now, settings)
        if (
            n.tier == "long_term"
            and not n.pinned
            and settings.dormant_below <= r < settings.dormant_below + settings.patrol_forget_margin
        ):
            report.fading.append(_item([n], f"retrievability {r:.2f}"))
        if n.type == "fact" and not n.fields.get("category", "").strip():
            report.unclassified.append(_item([n], "fact without a category"))
        groups.setdefault((n.type, n.scope.layer, n.scope.owner), []).append(n)
    duplicates: list[tuple[float, PatrolItem]] = []
    for key in sorted(groups, key=lambda k: (k[0], k[1], k[2] or "")):
        group = sorted(groups[key], key=lambda n: (n.created_at, n.id))
        for i, j, sim in decide_pairs(group, {}, settings.consolidate_threshold):
            if sim >= settings.consolidate_threshold - NEAR_MISS_BAND:
                duplicates.append((sim, _item([group[i], group[j]], f"similarity {sim:.2f}")))
    duplicates.sort(key=lambda d: -d[0])  # stable: within a similarity, the groups' order
    report.duplicates = [item for _, item in duplicates]
    for edge in read.edges(chat_id, include_invalid=False):
        a, b = by_id.get(edge.from_id), by_id.get(edge.to_id)
        if edge.relation == "contradicts" and a is not None and b is not None:
            report.contradictions.append(_item([a, b], "marked as contradicting"))
    facts: dict[tuple[str, str], list[Node]] = {}
    for n in nodes:
        subject, category = (
            n.fields.get("subject", "").strip().casefold(),
            n.fields.get("category", "").strip(),
        )
        if n.type == "fact" and subject and category:
            facts.setdefault((subject, category), []).append(n)
    for (subject, category), same in sorted(facts.items()):
        statements = {n.fields.get("statement", "").strip().casefold() for n in same}
        if len(statements) > 1:
            report.contradictions.append(
                _item(same, f"{len(statements)} different {category} statements about {subject}")
            )
    for todo in open_items(read, chat_id, now, settings):
        if now - todo.last_mentioned > settings.working_expiry_days * DAY / 2:
            report.stale_todos.append(todo.text)
    plan = plan_retention(read, chat_id, now, settings)
    report.retiring = [PatrolItem([r.id], [r.title], _retire_note(r)) for r in plan.retire]
    report.retention = {
        "total": len(plan.retire),
        "by_rule": plan.by_rule,
        "refused": plan.refused,
        "bin_expiring": plan.bin_expiring,
    }
    report.cap(MAX_ITEMS)
    return report


def _retire_note(r: Retirement) -> str:
    if r.rule == "max_age":
        return f"never recalled, {r.age_days:.0f} days old (limit {r.limit:g} days)"
    if r.rule == "max_count":
        return f"more than {r.limit:g} {r.type} memories; recalled {r.recall_count} times"
    return f"more than {r.limit:g} memories in this chat; recalled {r.recall_count} times"


def patrol_report(service: Memory, chat_id: str) -> PatrolReport:
    """The report as of ``service.now()``; reads only."""
    now, settings = service.now(), service.settings.lifecycle
    return service.read(lambda r: build_report(r, chat_id, now, settings))
