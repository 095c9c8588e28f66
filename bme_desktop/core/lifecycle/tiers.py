"""Memory tiers and the rules that move memories between them.

* ``short_term`` — a draft: expires (→ ``archived``, flagged ``expired_at``) once older than
  ``short_term_hours`` unless it was recalled (a hit promotes it at once) or is important
  (importance ≥ ``promote_importance`` promotes it at the next upkeep).
* ``long_term`` — on the spaced-repetition schedule; falls ``dormant`` when its
  retrievability drops below ``dormant_below`` (pinned memories never do).
* ``dormant`` — out of unasked recall and the default views, never deleted; a direct ask
  (a strong match, a "remember when" cue, a named day or month) recalls it and a recall on a
  real turn wakes it, as ``wake`` does by hand.
* ``archived`` — expired drafts, merged duplicates, memories archived by hand or by an
  extraction; kept for provenance. Expired drafts (flag ``expired_at``) sleep like dormant
  memories: a direct ask still finds them; the others are never recalled.

Review is an audit by default: ``pending`` memories are listed in the review centre and
recalled all the same; ``rejected`` ones never are. With ``review_gate`` on (memory-lattice's
strict mode) a pending memory is *held* — not injected — until approved, except one that was
already injectable when a promotion sent it to review: using a memory never hides it.

The decisions are vectorised over numpy arrays so one upkeep pass over 100k memories stays
well under a second of arithmetic.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..model import Node
from ..settings import LifecycleSettings

VISIBLE_TIERS = ("short_term", "long_term")
SLEEPING_TIERS = ("dormant", "archived")


def is_visible(node: Node) -> bool:
    """Recall and default views show this memory (not dormant, archived or deleted)."""
    return node.deleted_at is None and node.tier in VISIBLE_TIERS


PROMOTED_FLAG = "review_after_promotion"  # flag: sent to review by a promotion while injectable


def is_sleeping(node: Node) -> bool:
    """Out of unasked recall, but found by a direct ask: dormant, or a draft that expired."""
    if node.deleted_at is not None:
        return False
    return node.tier == "dormant" or (node.tier == "archived" and "expired_at" in node.flags)


def is_held(node: Node, gate: bool) -> bool:
    """Held back by the strict review gate: pending and never injectable since it was made."""
    return gate and node.review_status == "pending" and not node.flags.get(PROMOTED_FLAG)


def is_injectable(node: Node, gate: bool = False) -> bool:
    """Automatic injection may use this memory: visible, not rejected, and not held by the
    review gate (``gate``: ``LifecycleSettings.review_gate``)."""
    return is_visible(node) and node.review_status != "rejected" and not is_held(node, gate)


def promotion_review(status: str, settings: LifecycleSettings) -> tuple[str, dict[str, bool]]:
    """The review status and flags a promotion gives a memory of ``status``: it goes to the
    review centre (unless reviews are off or it was rejected) and stays as injectable as it was."""
    if not promotion_needs_review(settings) or status != "approved":
        return status, {}
    return "pending", {PROMOTED_FLAG: True}


@dataclass
class TierInputs:
    tier: npt.NDArray[np.str_]
    importance: npt.NDArray[np.float64]
    created_at: npt.NDArray[np.float64]
    recall_count: npt.NDArray[np.int64]
    pinned: npt.NDArray[np.bool_]
    retrievability: npt.NDArray[np.float64]  # freshly computed, not the stored value


@dataclass
class TierMoves:
    promote: npt.NDArray[np.bool_]  # short_term → long_term
    expire: npt.NDArray[np.bool_]  # short_term → archived
    sleep: npt.NDArray[np.bool_]  # long_term → dormant


def decide(now: float, inputs: TierInputs, settings: LifecycleSettings) -> TierMoves:
    """Which memories change tier at ``now``. A memory created "in the future" (the clock
    went backwards) has age zero, so nothing expires early."""
    short = inputs.tier == "short_term"
    age_s = np.maximum(now - inputs.created_at, 0.0)
    promote = short & (
        (inputs.importance >= settings.promote_importance) | (inputs.recall_count > 0) | inputs.pinned
    )
    expire = short & ~promote & (age_s >= settings.short_term_hours * 3600.0)
    sleep = (inputs.tier == "long_term") & ~inputs.pinned & (inputs.retrievability < settings.dormant_below)
    return TierMoves(promote=promote, expire=expire, sleep=sleep)


def needs_review(tier: str, settings: LifecycleSettings) -> bool:
    """Does a new automatic memory of this tier wait in the review centre?"""
    mode = settings.audit_mode
    return mode == "all" or (mode == "long_term" and tier == "long_term")


def promotion_needs_review(settings: LifecycleSettings) -> bool:
    return settings.audit_mode != "none"
