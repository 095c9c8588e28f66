"""What recall calls: a recall hit counts as a review; current retrievability for scoring.

``record_recall_hits`` grades each hit by the time since the memory's last review (a
repeat within ``repeat_window_minutes`` changes only the counters, so one conversation
cannot pump a memory up), promotes recalled short-term memories (as injectable as they
were: see ``tiers.promotion_review``), wakes sleeping ones a direct ask brought back, and
writes one journaled ``review`` batch. ``recall_strength`` is the multiplier recall can apply: retrievability,
discounted for strong memories hit again within ``echo_window_hours`` (no echo chamber).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..model import Node
from ..settings import LifecycleSettings
from ..store.node_updates import bulk_update_nodes
from ..store.unit_of_work import UnitOfWork
from . import tiers
from .schedule import new_card, relearn, retrievability, review, valid_card

if TYPE_CHECKING:
    from ..ports import Memory

ACTOR = "recall"
STRONG_STABILITY_DAYS = 30.0  # a card this stable counts as "already strong" for the echo discount


@dataclass
class HitReport:
    chat_id: str
    batch_id: int | None = None
    reviewed: dict[str, str] = field(default_factory=dict)  # node id → "repeat" | "Hard" | "Good" | "Easy"
    promoted: list[str] = field(default_factory=list)
    woken: list[str] = field(default_factory=list)  # dormant or expired memories a direct ask brought back
    skipped: list[str] = field(default_factory=list)  # unknown, deleted, rejected, or archived for good


def record_hits_in(
    uow: UnitOfWork, chat_id: str, node_ids: Iterable[str], now: float, settings: LifecycleSettings
) -> HitReport:
    report = HitReport(chat_id)
    wanted = list(dict.fromkeys(node_ids))
    nodes = {n.id: n for n in uow.read.nodes_by_ids(chat_id, wanted)}
    updates: dict[str, dict[str, Any]] = {}
    flags: dict[str, dict[str, Any]] = {}
    for node_id in wanted:
        node = nodes.get(node_id)
        if (
            node is None
            or node.review_status == "rejected"
            or not (tiers.is_visible(node) or tiers.is_sleeping(node))
        ):
            report.skipped.append(node_id)
            continue
        if tiers.is_sleeping(node):  # asked for directly: back to long-term with a fresh card
            fresh = relearn(node.srs, now, node.importance, settings)
            update: dict[str, Any] = {
                "srs": fresh,
                "tier": "long_term",
                "updated_at": now,
                "recall_count": node.recall_count + 1,
                "last_recalled_at": max(now, node.last_recalled_at or now),
            }
            probe = Node(
                id=node.id,
                chat_id=chat_id,
                type=node.type,
                title=node.title,
                fields=node.fields,
                pinned=node.pinned,
                srs=fresh,
            )
            update["retrievability"] = retrievability(probe, now, settings)
            updates[node_id] = update
            flags[node_id] = {"woken_at": now, "woken_from": node.tier}
            report.woken.append(node_id)
            report.reviewed[node_id] = "woken"
            continue
        card = node.srs if valid_card(node.srs) else new_card(node.created_at, node.importance, settings)
        assert card is not None
        outcome = review(card, now, settings)
        update = {
            "srs": outcome.srs,
            "recall_count": node.recall_count + 1,
            "last_recalled_at": max(now, node.last_recalled_at or now),
        }
        if node.tier == "short_term":
            status, extra = tiers.promotion_review(node.review_status, settings)
            update.update(tier="long_term", updated_at=now, review_status=status)
            flags[node_id] = {"promoted_at": now, **extra}
            report.promoted.append(node_id)
        probe = Node(
            id=node.id,
            chat_id=chat_id,
            type=node.type,
            title=node.title,
            fields=node.fields,
            pinned=node.pinned,
            srs=outcome.srs,
        )
        update["retrievability"] = retrievability(probe, now, settings)
        updates[node_id] = update
        report.reviewed[node_id] = outcome.rating
    if updates:
        report.batch_id = uow.begin_batch(
            chat_id, "review", actor=ACTOR, description=f"recall hits: {len(updates)} memories"
        )
        bulk_update_nodes(uow, chat_id, updates, merge_flags=flags)
        uow.end_batch()
    return report


def record_recall_hits(service: Memory, chat_id: str, node_ids: Sequence[str]) -> HitReport:
    """The recall hook: count each recalled memory as one review at ``service.now()``."""
    settings = service.settings.lifecycle
    now = service.now()
    return service.write(lambda uow: record_hits_in(uow, chat_id, node_ids, now, settings))


def current_retrievability(node: Node, now: float, settings: LifecycleSettings) -> float:
    """Retrievability of ``node`` at ``now`` from its card (no database access)."""
    return retrievability(node, now, settings)


def recall_strength(node: Node, now: float, settings: LifecycleSettings) -> float:
    """A multiplier in [0, 1] for recall scores: 0 for memories recall must not show,
    otherwise retrievability, times ``echo_discount`` when the memory is already strong and
    was hit within ``echo_window_hours``. A sleeping memory (dormant, expired) keeps its low
    retrievability: recall shows it only when asked for directly."""
    if not (tiers.is_visible(node) or tiers.is_sleeping(node)):
        return 0.0
    value = retrievability(node, now, settings)
    strong = valid_card(node.srs) and float((node.srs or {}).get("stability", 0.0)) >= STRONG_STABILITY_DAYS
    last = node.last_recalled_at
    if strong and last is not None and 0 <= now - last < settings.echo_window_hours * 3600:
        value *= settings.echo_discount
    return value
