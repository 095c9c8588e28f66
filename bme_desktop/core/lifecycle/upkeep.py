"""The upkeep pass (maintenance task ``upkeep``): as of ``service.now()``

1. give every memory without a valid card its first card (learned at ``created_at``) and,
   per ``audit_mode``, send new automatic memories to the review centre;
2. promote or expire short-term memories;
3. recompute retrievability (written only when it moved by ``retrievability_step``);
4. put long-term memories below ``dormant_below`` to sleep.

Everything is decided from the stored card and ``now`` alone, so a pass is idempotent (a
second pass at the same time finds nothing to do and writes no batch), a clock that jumps
backwards only raises retrievability for a while (elapsed time is clamped at zero, cards are
never rewritten), and a database last opened months ago catches up in one pass. The changes
form one journaled ``upkeep`` batch that ``undo_lifecycle_batch`` reverts exactly — except
pure retrievability refreshes, a cache of (card, clock) stored unjournaled (see ``bulk``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..cancel import CancelToken, checkpoint
from ..events import ChangeRecord
from ..schema import FACT_CATEGORY_POOLS, NODE_TYPES
from ..settings import LifecycleSettings
from ..store.node_updates import bulk_update_nodes, write_retrievability
from ..store.unit_of_work import UnitOfWork
from . import tiers
from .retention import retention_in
from .schedule import CARD_VERSION, half_life_days, new_card, retrievability_array

ACTOR = "lifecycle"


@dataclass
class UpkeepReport:
    chat_id: str
    at: float
    batch_id: int | None = None
    scanned: int = 0
    cards_created: int = 0
    pending: int = 0
    promoted: int = 0
    expired: int = 0
    dormant: int = 0
    retrievability_updated: int = 0
    changed_ids: list[str] = field(default_factory=list)
    # retention (retention.py): its own batch, after the pass
    retention_batch_id: int | None = None
    retired: dict[str, int] = field(default_factory=dict)  # rule -> memories moved to the recycle bin
    retention_refused: str = ""
    bin_emptied: int = 0  # memories the recycle bin deleted for good

    def counts(self) -> dict[str, int]:
        return {
            "scanned": self.scanned,
            "cards_created": self.cards_created,
            "pending": self.pending,
            "promoted": self.promoted,
            "expired": self.expired,
            "dormant": self.dormant,
            "retrievability_updated": self.retrievability_updated,
        }


def _pool(type_id: str, category: str | None) -> str:
    node_type = NODE_TYPES.get(type_id)
    if node_type is None:
        return "medium"
    if type_id == "fact" and category is not None and category in FACT_CATEGORY_POOLS:
        return FACT_CATEGORY_POOLS[category]
    return node_type.decay_pool


def plan_upkeep(
    uow: UnitOfWork, chat_id: str, now: float, settings: LifecycleSettings
) -> tuple[UpkeepReport, dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """Decide the pass without writing: ``(report, column updates, flag merges)``."""
    report = UpkeepReport(chat_id, now)
    rows = uow.read.upkeep_rows(uow.read.require_chat_pk(chat_id))
    report.scanned = n = len(rows)
    updates: dict[str, dict[str, Any]] = {}
    flags: dict[str, dict[str, Any]] = {}
    if n == 0:
        return report, updates, flags
    cols = list(zip(*rows, strict=True))
    ids = list(cols[0])
    tier = np.array(cols[3])
    importance = np.array(cols[6], dtype=np.float64)
    created = np.array(cols[11], dtype=np.float64)
    recall_count = np.array(cols[12], dtype=np.int64)
    pinned = np.array(cols[5], dtype=bool)
    stored_r = np.array(cols[10], dtype=np.float64)
    stability = np.array([s if s is not None else np.nan for s in cols[8]], dtype=np.float64)
    last_review = np.array([x if x is not None else np.nan for x in cols[9]], dtype=np.float64)
    version = np.array([v if v is not None else -1 for v in cols[7]], dtype=np.int64)
    invalid = (version != CARD_VERSION) | ~(stability > 0) | ~np.isfinite(last_review)
    for i in np.flatnonzero(invalid).tolist():
        r = rows[i]
        srs = new_card(float(r[11]), float(r[6]), settings)
        updates.setdefault(ids[i], {})["srs"] = srs
        stability[i], last_review[i] = srs["stability"], srs["last_review"]
        report.cards_created += 1
        if r[4] == "approved" and not r[13] and tiers.needs_review(str(r[3]), settings):
            updates[ids[i]]["review_status"] = "pending"
            report.pending += 1
    pools: dict[tuple[str, str | None], float] = {}
    for key in set(zip(cols[1], cols[2], strict=True)):
        pools[key] = half_life_days(_pool(key[0], key[1]), settings)
    half_life = np.array([pools[key] for key in zip(cols[1], cols[2], strict=True)], dtype=np.float64)
    half_life[pinned] = math.inf
    fresh_r = retrievability_array(now, last_review, stability, half_life)
    moves = tiers.decide(
        now, tiers.TierInputs(tier, importance, created, recall_count, pinned, fresh_r), settings
    )
    awake = (tier == "short_term") | (tier == "long_term")
    write_r = awake & (np.abs(fresh_r - stored_r) >= settings.retrievability_step)
    write_r |= moves.sleep & (fresh_r != stored_r)
    for i in np.flatnonzero(write_r).tolist():
        updates.setdefault(ids[i], {})["retrievability"] = float(fresh_r[i])
        report.retrievability_updated += 1
    for i in np.flatnonzero(moves.promote).tolist():
        update = updates.setdefault(ids[i], {})
        status, extra = tiers.promotion_review(str(rows[i][4]), settings)
        update.update(tier="long_term", updated_at=now, review_status=status)
        flags[ids[i]] = {"promoted_at": now, **extra}
        report.promoted += 1
    for i in np.flatnonzero(moves.expire).tolist():
        updates.setdefault(ids[i], {}).update(tier="archived", updated_at=now)
        flags[ids[i]] = {"expired_at": now}
        report.expired += 1
    for i in np.flatnonzero(moves.sleep).tolist():
        updates.setdefault(ids[i], {}).update(tier="dormant", updated_at=now)
        flags[ids[i]] = {"dormant_since": now}
        report.dormant += 1
    return report, updates, flags


def upkeep_in(
    uow: UnitOfWork,
    chat_id: str,
    now: float,
    settings: LifecycleSettings,
    *,
    cancel: CancelToken | None = None,
) -> UpkeepReport:
    """Run one upkeep pass inside ``uow``; one journaled batch when anything changes, then
    retention (a batch of its own when it retires anything) and the recycle bin's expiry."""
    report, updates, flags = plan_upkeep(uow, chat_id, now, settings)
    checkpoint(cancel)
    estimates = {k: u["retrievability"] for k, u in updates.items() if set(u) == {"retrievability"}}
    journaled = {k: u for k, u in updates.items() if k not in estimates}
    report.changed_ids = write_retrievability(uow, chat_id, estimates)
    if journaled:
        _write_pass(uow, chat_id, report, journaled, flags, cancel)
    checkpoint(cancel)
    retention = retention_in(uow, chat_id, now, settings)
    report.retention_batch_id, report.retired = retention.batch_id, retention.retired
    report.retention_refused, report.bin_emptied = retention.refused, retention.bin_emptied
    return report


def _write_pass(
    uow: UnitOfWork,
    chat_id: str,
    report: UpkeepReport,
    journaled: dict[str, dict[str, Any]],
    flags: dict[str, dict[str, Any]],
    cancel: CancelToken | None,
) -> None:
    report.batch_id = uow.begin_batch(chat_id, "upkeep", actor=ACTOR, description=_describe(report))
    report.changed_ids += bulk_update_nodes(uow, chat_id, journaled, merge_flags=flags, cancel=cancel)
    uow.end_batch()
    uow.audit(chat_id, ACTOR, "upkeep", str(report.batch_id), **report.counts())


def _describe(report: UpkeepReport) -> str:
    parts = [f"{v} {k.replace('_', ' ')}" for k, v in report.counts().items() if v and k != "scanned"]
    return "upkeep: " + (", ".join(parts) or "nothing")


def copy_change(uow: UnitOfWork, chat_id: str) -> ChangeRecord:
    record = ChangeRecord(chat_id)
    current = uow.changes.get(chat_id)
    if current is not None:
        record.merge(current)
        record.batch_id = current.batch_id
    return record
