"""Spaced-repetition scheduling: FSRS cards, recall hits graded as reviews, retrievability.

A memory's card lives in ``node.srs`` as plain JSON (``CARD_VERSION``). FSRS (the ``fsrs``
package, v6) updates stability and difficulty on each review; this module owns the
forgetting curve the life cycle acts on:

* until the card is due (``stability`` days after the last review, where FSRS predicts
  90 % recall) retrievability follows the FSRS power curve, 1 → 0.9;
* past the due date it halves every *pool half-life* (slow 365 d, medium 120 d, fast
  20 d by default), so a memory nobody uses fades on a human time scale — FSRS's own
  power curve would need millions of days to reach the dormancy threshold;
* never-pool memories (core traits, characters, rules) and pinned ones keep 1.0.

Why FSRS and not SM-2: FSRS's stability already rewards a review made when the memory
was nearly forgotten more than one made straight away, so the "echo chamber" damping and
the spacing effect fall out of the model instead of being hand-tuned multipliers.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import numpy as np
import numpy.typing as npt
from fsrs import Card, Rating, Scheduler, State

from ..model import Node
from ..schema import NODE_TYPES, decay_pool_for
from ..settings import LifecycleSettings

CARD_VERSION = 1
DAY = 86400.0
_SCHEDULER = Scheduler(enable_fuzzing=False, learning_steps=(), relearning_steps=(), maximum_interval=36500)
DECAY = -float(_SCHEDULER.parameters[20])
FACTOR = 0.9 ** (1 / DECAY) - 1
MIN_STABILITY = 0.01


def pool_of(node: Node) -> str:
    """The decay pool of a node; unknown types fade at the medium rate."""
    if node.type not in NODE_TYPES:
        return "medium"
    return decay_pool_for(node.type, node.fields)


def half_life_days(pool: str, settings: LifecycleSettings) -> float:
    """Days for retrievability to halve once a card is overdue; ``inf`` for never."""
    return {
        "slow": settings.half_life_slow_days,
        "medium": settings.half_life_medium_days,
        "fast": settings.half_life_fast_days,
    }.get(pool, math.inf)


def _dt(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, UTC)


def _to_card(srs: dict[str, Any]) -> Card:
    return Card(
        card_id=1,
        state=State(int(srs["state"])),
        step=None,
        stability=float(srs["stability"]),
        difficulty=float(srs["difficulty"]),
        due=_dt(float(srs["due"])),
        last_review=_dt(float(srs["last_review"])),
    )


def _from_card(card: Card, reps: int, lapses: int) -> dict[str, Any]:
    assert card.stability is not None and card.difficulty is not None and card.last_review is not None
    return {
        "v": CARD_VERSION,
        "algo": "fsrs6",
        "state": int(card.state.value),
        "stability": round(float(card.stability), 6),
        "difficulty": round(float(card.difficulty), 6),
        "last_review": card.last_review.timestamp(),
        "due": card.due.timestamp(),
        "reps": reps,
        "lapses": lapses,
    }


def valid_card(srs: Any) -> bool:
    """A card this module wrote (an older or foreign shape is rebuilt by upkeep)."""
    if not isinstance(srs, dict) or srs.get("v") != CARD_VERSION:
        return False
    try:
        return (
            all(math.isfinite(float(srs[k])) for k in ("stability", "difficulty", "last_review", "due"))
            and float(srs["stability"]) > 0
        )
    except (KeyError, TypeError, ValueError):
        return False


@functools.lru_cache(maxsize=4)
def _first_review(rating: Rating) -> tuple[tuple[str, Any], ...]:
    """A new card's first review at time 0 (the result does not depend on the time)."""
    card, _ = _SCHEDULER.review_card(Card(card_id=1, due=_dt(0.0)), rating, _dt(0.0))
    return tuple(_from_card(card, reps=1, lapses=0).items())


def new_card(at: float, importance: float, settings: LifecycleSettings) -> dict[str, Any]:
    """The card of a memory first learned at ``at``: one review, Easy for important ones."""
    rating = Rating.Easy if importance >= settings.promote_importance else Rating.Good
    card = dict(_first_review(rating))
    card["last_review"] = float(at)
    card["due"] = float(at) + float(card["due"])
    return card


def grade(elapsed_s: float, settings: LifecycleSettings) -> Rating | None:
    """How a recall hit counts: None (a repeat within minutes, no review), Hard within a day,
    Good within three weeks, Easy after that (it was still found after a long gap)."""
    if elapsed_s < settings.repeat_window_minutes * 60:
        return None
    if elapsed_s < DAY:
        return Rating.Hard
    if elapsed_s < 21 * DAY:
        return Rating.Good
    return Rating.Easy


@dataclass(frozen=True)
class ReviewOutcome:
    srs: dict[str, Any]
    rating: str  # "repeat" | "Hard" | "Good" | "Easy" | "relearn"


def review(srs: dict[str, Any], at: float, settings: LifecycleSettings) -> ReviewOutcome:
    """Apply one recall hit at ``at`` to a valid card. A hit at or before the last review
    (the clock went backwards) or within the repeat window changes nothing."""
    last = float(srs["last_review"])
    rating = grade(at - last, settings)
    if rating is None:
        return ReviewOutcome(srs, "repeat")
    old_s = float(srs["stability"])
    card, _ = _SCHEDULER.review_card(_to_card(srs), rating, _dt(at))
    assert card.stability is not None
    new_s = float(card.stability)
    cap = settings.stability_soft_cap_days
    if new_s > old_s and old_s > cap:
        new_s = old_s + (new_s - old_s) * cap / old_s  # soft cap: gains shrink above the cap
        card.stability = new_s
        card.due = _dt(at + new_s * DAY)
    return ReviewOutcome(
        _from_card(card, int(srs.get("reps", 0)) + 1, int(srs.get("lapses", 0))), rating.name
    )


def relearn(
    srs: dict[str, Any] | None, at: float, importance: float, settings: LifecycleSettings
) -> dict[str, Any]:
    """A woken memory starts a fresh card at ``at`` (keeping its difficulty) and counts a lapse."""
    card = new_card(at, importance, settings)
    if srs is not None and valid_card(srs):
        card["difficulty"] = float(srs["difficulty"])
        card["lapses"] = int(srs.get("lapses", 0)) + 1
        card["reps"] = int(srs.get("reps", 0)) + 1
    return card


def retrievability_array(
    now: float,
    last_review: npt.NDArray[np.float64],
    stability: npt.NDArray[np.float64],
    half_life: npt.NDArray[np.float64],
) -> npt.NDArray[np.float64]:
    """Vectorised retrievability at ``now``; ``half_life`` is ``inf`` for never-pool cards.
    Elapsed time below zero (a clock that went backwards) counts as zero."""
    s = np.maximum(stability, MIN_STABILITY)
    elapsed = np.maximum(now - last_review, 0.0) / DAY
    inside = np.power(1.0 + FACTOR * np.minimum(elapsed, s) / s, DECAY)
    over = np.maximum(elapsed - s, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        fade = np.where(np.isinf(half_life), 1.0, np.exp2(-over / half_life))
    r = np.where(np.isinf(half_life), 1.0, inside * fade)
    out: npt.NDArray[np.float64] = np.clip(np.nan_to_num(r, nan=1.0), 0.0, 1.0)
    return out


def retrievability(node: Node, now: float, settings: LifecycleSettings) -> float:
    """The current retrievability of one memory (1.0 without a card yet, or when pinned)."""
    if node.pinned or not valid_card(node.srs):
        return 1.0
    assert node.srs is not None
    hl = half_life_days(pool_of(node), settings)
    return retrievability_one(now, float(node.srs["last_review"]), float(node.srs["stability"]), hl)


def retrievability_one(now: float, last_review: float, stability: float, half_life: float) -> float:
    """:func:`retrievability_array` for one card, in plain floats: recall scores a few hundred
    memories a query, and numpy calls on one-element arrays cost microseconds each."""
    if math.isinf(half_life):
        return 1.0
    s = max(stability, MIN_STABILITY)
    elapsed = max(now - last_review, 0.0) / DAY
    over = max(elapsed - s, 0.0)
    inside = math.pow(1.0 + FACTOR * min(elapsed, s) / s, DECAY)
    try:
        fade = math.pow(2.0, -over / half_life)
    except ZeroDivisionError:  # a zero half-life, as numpy has it: 0/0 (or NaN/0) is NaN, and x/0 is
        # -inf (fades to 0) for +0.0 but +inf (overflows) for -0.0
        fade = (math.inf if math.copysign(1.0, half_life) < 0 else 0.0) if over > 0.0 else math.nan
    except OverflowError:  # a negative half-life: the fade overflows to inf
        fade = math.inf
    r = inside * fade
    if math.isnan(r):
        return 1.0
    return min(1.0, max(0.0, r))


def dormant_day(stability: float, half_life: float, threshold: float) -> float:
    """Days after the last review when retrievability first falls below ``threshold``."""
    if math.isinf(half_life) or threshold <= 0:
        return math.inf
    if threshold >= 0.9:
        # inside the FSRS part of the curve: (1 + F t / S)^D = threshold
        return float(stability * (threshold ** (1 / DECAY) - 1) / FACTOR)
    return float(stability + half_life * math.log2(0.9 / threshold))
