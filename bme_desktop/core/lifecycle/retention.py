"""Retention rules, the capacity cap and the recycle bin's expiry (issue 20.3), applied by upkeep.

Per chat, as of ``now`` (settings in ``LifecycleSettings``):

1. **maximum age** per type (``retention_max_age_days``): a memory of that type older than the
   limit (from ``created_at``) that was never recalled is retired;
2. **maximum count** per type (``retention_max_count``): past the limit, the weakest go first —
   fewest recalls, then lowest strength (the retrievability upkeep stored), then the oldest
   update (ties: by id);
3. **capacity** (``max_memories_per_chat``, 0: none): when the chat still holds more memories
   than that, the weakest go first, in the same order.

Never retired (and still counted): core memories — characters, rules, summaries, and facts of a
core category (trait, preference, goal, lore: the ``never`` decay pool) —, pinned memories and
memories written or edited by hand. Retired memories go to the recycle bin with their links (one
journaled ``retention`` batch: ``undo_lifecycle_batch`` or a restore from the bin brings them
back). A plan that would retire every memory of a type, or of the chat, is refused whole:
nothing is retired, and the refusal says which rule.

The bin keeps what was deleted for ``recycle_bin_days`` (30; 0: for ever); upkeep then deletes
it for good (not undoable; audited as ``bin.expire``).

``plan_retention`` only reads: the patrol report shows it as "will be retired at the next
upkeep"; ``retention_in`` applies it inside upkeep's write.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from ..schema import NODE_TYPES, decay_pool_for
from ..settings import LifecycleSettings
from ..store.reader import Reader, RetentionRow
from ..store.unit_of_work import UnitOfWork

DAY = 86400.0
ACTOR = "lifecycle"
RULES = ("max_age", "max_count", "capacity")


@dataclass
class Retirement:
    """One memory a rule retires: ``limit`` is the rule's number (days, memories per type or per chat)."""

    id: str
    type: str
    title: str
    rule: str  # one of RULES
    limit: float
    age_days: float
    recall_count: int


@dataclass
class RetentionPlan:
    chat_id: str
    at: float
    retire: list[Retirement] = field(default_factory=list)
    # Why nothing is retired although rules would: {"rule": "max_age", "type": "event", "count": n,
    # "limit": days} (a rule would retire every memory of its type) or {"rule": "all", "count": n}.
    refused: dict[str, Any] | None = None
    bin_expiring: int = 0  # memories the recycle bin deletes for good at the next upkeep

    @property
    def by_rule(self) -> dict[str, int]:
        counts = Counter(r.rule for r in self.retire)
        return {rule: counts[rule] for rule in RULES if counts[rule]}

    def refusal_text(self) -> str:
        """The refusal in English (logs, the command line); the UI words ``refused`` itself."""
        r = self.refused
        if r is None:
            return ""
        if r["rule"] == "all":
            return (
                f"retention refused: the rules would retire all {r['count']} memories of this chat; "
                "nothing retired"
            )
        unit = "days" if r["rule"] == "max_age" else "memories"
        return (
            f"retention refused: the {r['rule'].replace('_', ' ')} of {r['type']} ({r['limit']:g} {unit}) "
            f"would retire all {r['count']} {r['type']} memories of this chat; nothing retired"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "chat_id": self.chat_id,
            "at": self.at,
            "total": len(self.retire),
            "by_rule": self.by_rule,
            "retire": [asdict(r) for r in self.retire],
            "refused": self.refused,
            "bin_expiring": self.bin_expiring,
        }


def retirable(row: RetentionRow) -> bool:
    """Not core, not pinned, not written or edited by hand."""
    core = row.type not in NODE_TYPES or decay_pool_for(row.type, {"category": row.category or ""}) == "never"
    return not (core or row.pinned or row.manually_edited)


def weakest_first(row: RetentionRow) -> tuple[int, float, float, str]:
    return row.recall_count, row.retrievability, row.updated_at, row.id


def has_rules(settings: LifecycleSettings) -> bool:
    return bool(settings.retention_max_age_days or settings.retention_max_count)


def plan_retention(read: Reader, chat_id: str, now: float, settings: LifecycleSettings) -> RetentionPlan:
    """What the next upkeep retires (one read, no write)."""
    plan = RetentionPlan(chat_id, now)
    cutoff = now - settings.recycle_bin_days * DAY if settings.recycle_bin_days > 0 else None
    live, plan.bin_expiring = read.node_counts(chat_id, cutoff)
    cap = settings.max_memories_per_chat
    if not has_rules(settings) and (cap == 0 or live <= cap):
        return plan  # the usual case: one count, no scan
    rows = read.retention_rows(chat_id)
    going: dict[str, Retirement] = {}

    def retire(row: RetentionRow, rule: str, limit: float) -> None:
        going[row.id] = Retirement(
            row.id,
            row.type,
            row.title,
            rule,
            float(limit),
            max(0.0, (now - row.created_at) / DAY),
            row.recall_count,
        )

    by_type: dict[str, list[RetentionRow]] = {}
    for row in rows:
        by_type.setdefault(row.type, []).append(row)
    for type_id, days in sorted(settings.retention_max_age_days.items()):
        old = [
            r
            for r in by_type.get(type_id, [])
            if retirable(r) and r.recall_count == 0 and now - r.created_at > days * DAY
        ]
        if old and len(old) == len(by_type[type_id]):
            plan.refused = {"rule": "max_age", "type": type_id, "count": len(old), "limit": days}
            return plan
        for row in old:
            retire(row, "max_age", days)
    for type_id, limit in sorted(settings.retention_max_count.items()):
        kept = [r for r in by_type.get(type_id, []) if r.id not in going]
        excess = len(kept) - limit
        if excess > 0:
            for row in sorted((r for r in kept if retirable(r)), key=weakest_first)[:excess]:
                retire(row, "max_count", limit)
    kept = [r for r in rows if r.id not in going]
    if cap and len(kept) > cap:
        for row in sorted((r for r in kept if retirable(r)), key=weakest_first)[: len(kept) - cap]:
            retire(row, "capacity", cap)
    if rows and len(going) == len(rows):
        plan.refused = {"rule": "all", "count": len(rows)}
        return plan
    plan.retire = sorted(going.values(), key=lambda r: (RULES.index(r.rule), r.type, r.id))
    return plan


@dataclass
class RetentionReport:
    batch_id: int | None = None
    retired: dict[str, int] = field(default_factory=dict)  # rule -> memories retired
    refused: str = ""
    bin_emptied: int = 0  # memories deleted for good
    bin_links_emptied: int = 0


def retention_in(uow: UnitOfWork, chat_id: str, now: float, settings: LifecycleSettings) -> RetentionReport:
    """Apply the plan inside ``uow``: one journaled ``retention`` batch for what is retired, then
    the bin's expiry (deleted for good, audited)."""
    report = RetentionReport()
    plan = plan_retention(uow.read, chat_id, now, settings)
    report.refused = plan.refusal_text()
    if plan.retire:
        report.retired = plan.by_rule
        parts = ", ".join(f"{n} by {rule.replace('_', ' ')}" for rule, n in report.retired.items())
        report.batch_id = uow.begin_batch(
            chat_id,
            "retention",
            actor=ACTOR,
            description=f"retention: {len(plan.retire)} to the recycle bin ({parts})",
        )
        uow.retire_nodes(chat_id, [r.id for r in plan.retire])
        uow.end_batch()
        uow.audit(chat_id, ACTOR, "retention", str(report.batch_id), **report.retired)
    if settings.recycle_bin_days > 0:
        report.bin_emptied, report.bin_links_emptied = uow.empty_bin(
            chat_id, now - settings.recycle_bin_days * DAY, nodes=plan.bin_expiring > 0
        )
    if report.bin_emptied or report.bin_links_emptied:
        uow.audit(
            chat_id,
            ACTOR,
            "bin.expire",
            None,
            memories=report.bin_emptied,
            links=report.bin_links_emptied,
            days=settings.recycle_bin_days,
        )
    return report
