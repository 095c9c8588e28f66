"""FSRS cards, grading of recall hits and the forgetting curve."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bme_desktop.core.lifecycle.schedule import (
    DAY,
    dormant_day,
    grade,
    new_card,
    retrievability,
    retrievability_array,
    retrievability_one,
    review,
)
from bme_desktop.core.model import Node
from bme_desktop.core.settings import LifecycleSettings

S = LifecycleSettings()
T0 = 1_700_000_000.0


def _node(type_id: str, fields: dict[str, str], srs: dict[str, object] | None, pinned: bool = False) -> Node:
    return Node(id="n", chat_id="c", type=type_id, title="", fields=fields, srs=srs, pinned=pinned)


def test_a_hit_is_graded_by_the_time_since_the_last_review() -> None:
    assert grade(5 * 60, S) is None  # a repeat within minutes is no review
    assert grade(3 * 3600, S).name == "Hard"  # type: ignore[union-attr]
    assert grade(3 * DAY, S).name == "Good"  # type: ignore[union-attr]
    assert grade(40 * DAY, S).name == "Easy"  # type: ignore[union-attr]


def test_a_repeat_within_the_window_leaves_the_card_as_it_was() -> None:
    card = new_card(T0, 5.0, S)
    assert review(card, T0 + 60, S).srs == card


def test_spaced_reviews_grow_stability() -> None:
    card = new_card(T0, 5.0, S)
    at = T0
    stabilities = [card["stability"]]
    for _ in range(5):
        at += card["stability"] * DAY
        card = review(card, at, S).srs
        stabilities.append(card["stability"])
    assert stabilities == sorted(stabilities) and stabilities[-1] > 10 * stabilities[0]


def test_stability_gains_shrink_above_the_soft_cap() -> None:
    capped = LifecycleSettings(stability_soft_cap_days=10.0)
    card = dict(new_card(T0, 5.0, S), stability=20.0, due=T0 + 20 * DAY)
    free = review(card, T0 + 20 * DAY, S).srs["stability"]
    damped = review(card, T0 + 20 * DAY, capped).srs["stability"]
    assert 20.0 < damped < free
    assert math.isclose(damped - 20.0, (free - 20.0) * 10.0 / 20.0, rel_tol=1e-6)


def test_retrievability_is_0_9_when_due_then_halves_every_pool_half_life() -> None:
    card = new_card(T0, 5.0, S)
    s = card["stability"]
    node = _node("event", {"summary": "x"}, card)
    assert math.isclose(retrievability(node, T0 + s * DAY, S), 0.9, rel_tol=1e-9)
    assert math.isclose(retrievability(node, T0 + (s + 20) * DAY, S), 0.45, rel_tol=1e-9)


def test_never_pool_and_pinned_memories_keep_full_retrievability() -> None:
    card = new_card(T0, 5.0, S)
    later = T0 + 3650 * DAY
    assert retrievability(_node("character", {"name": "Ana"}, card), later, S) == 1.0
    assert (
        retrievability(_node("fact", {"statement": "likes tea", "category": "preference"}, card), later, S)
        == 1.0
    )
    assert retrievability(_node("event", {"summary": "x"}, card, pinned=True), later, S) == 1.0
    assert retrievability(_node("fact", {"statement": "x", "category": "knowledge"}, card), later, S) < 0.5


def test_a_clock_before_the_last_review_counts_as_no_time_passed() -> None:
    r = retrievability_array(T0 - 100 * DAY, np.array([T0]), np.array([2.0]), np.array([20.0]))
    assert r[0] == 1.0


def test_dormant_day_matches_the_curve() -> None:
    day = dormant_day(2.5, 20.0, 0.1)
    r = retrievability_array(T0 + day * DAY, np.array([T0]), np.array([2.5]), np.array([20.0]))
    assert math.isclose(r[0], 0.1, rel_tol=1e-9)


_finite_or_not = st.floats(allow_nan=True, allow_infinity=True, width=64)


@settings(max_examples=300, deadline=None)
@given(
    now=_finite_or_not,
    last_review=_finite_or_not,
    stability=_finite_or_not,
    half_life=st.one_of(_finite_or_not, st.sampled_from([0.0, -1.0, math.inf, 30.0])),
)
def test_one_card_retrievability_equals_the_vectorised_one(
    now: float, last_review: float, stability: float, half_life: float
) -> None:
    with np.errstate(all="ignore"):
        expected = float(
            retrievability_array(now, np.array([last_review]), np.array([stability]), np.array([half_life]))[
                0
            ]
        )
    assert retrievability_one(now, last_review, stability, half_life) == pytest.approx(
        expected, rel=1e-9, abs=1e-12
    )


@pytest.mark.parametrize("half_life", [0.0, -0.0])
def test_a_signed_zero_half_life_agrees_with_the_vectorised_curve(half_life: float) -> None:
    """Found by the property test above (now=0, last_review=-865, stability=0, half_life=-0.0)."""
    with np.errstate(all="ignore"):
        expected = float(
            retrievability_array(0.0, np.array([-865.0]), np.array([0.0]), np.array([half_life]))[0]
        )
    assert retrievability_one(0.0, -865.0, 0.0, half_life) == expected
