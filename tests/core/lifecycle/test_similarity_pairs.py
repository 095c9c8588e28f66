"""Near-duplicate pairs stay bounded when many memories are alike, and are exact otherwise."""

from __future__ import annotations

import itertools
import random

from bme_desktop.core.lifecycle.similarity import pairs_above, text_matrix


def test_many_identical_memories_give_a_bounded_number_of_pairs() -> None:
    m = text_matrix(["Lena hides the brass key in the lighthouse."] * 400)
    pairs = pairs_above(m, 0.9, per_row=5)
    assert len(pairs) == sum(min(5, 399 - i) for i in range(400))  # not 400·399/2 = 79,800
    assert all(i < j and abs(s - 1.0) < 1e-5 for i, j, s in pairs)


def test_with_room_for_every_partner_the_pairs_are_those_of_brute_force() -> None:
    rng = random.Random(3)
    words = ["key", "lamp", "boat", "bread", "storm", "tower", "wolf", "map"]
    texts = [" ".join(rng.choice(words) for _ in range(5)) for _ in range(120)]
    m = text_matrix(texts)
    expected = sorted(
        (
            (i, j, float(m[i] @ m[j]))
            for i, j in itertools.combinations(range(len(texts)), 2)
            if float(m[i] @ m[j]) >= 0.7
        ),
        key=lambda p: (-p[2], p[0], p[1]),
    )
    got = pairs_above(m, 0.7, per_row=len(texts))
    assert {(i, j) for i, j, _ in got} == {(i, j) for i, j, _ in expected}
    assert [s for _, _, s in got] == sorted((s for _, _, s in got), reverse=True)
