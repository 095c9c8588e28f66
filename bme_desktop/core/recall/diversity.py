"""Diversity by maximal marginal relevance (MMR) on the memories' embeddings.

Greedily picks the memory with the best ``λ·relevance − (1−λ)·redundancy``, where relevance
is the score scaled by the best score, and redundancy the highest similarity to a memory
already picked: cosine of their vectors, or the overlap of their source messages (two
memories of the same turns say the same thing), whichever is higher.

A memory drawn only from messages the picked memories (or the ``covered`` ones, such as the
rules and open threads every injection carries) already cite is one slot with them: a plot
thread and the event it was read from, a fact and its turn. It is taken only when nothing
else is left.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np
import numpy.typing as npt

LAMBDA = 0.75


def source_overlap(a: Sequence[int], b: Sequence[int]) -> float:
    if not a or not b:
        return 0.0
    sa, sb = set(a), set(b)
    return len(sa & sb) / min(len(sa), len(sb))


def mmr(
    scores: Sequence[float],
    vectors: npt.NDArray[np.float32] | None,
    has_vector: Sequence[bool],
    sources: Sequence[Sequence[int]],
    k: int,
    lam: float = LAMBDA,
    covered: Collection[int] = (),
    covers: Sequence[bool] | None = None,
) -> list[int]:
    """Positions (into the inputs, best first) of up to ``k`` diverse, relevant items.
    ``covers[i]``: whether item i, once picked, cites its messages for the rule above (a
    character or place citing every scene it appears in does not: it tells none of them)."""
    n = len(scores)
    if n == 0 or k <= 0:
        return []
    rel = np.asarray(scores, dtype=np.float64)
    top = rel.max()
    rel = rel / top if top > 0 else rel
    sims = np.zeros((n, n), dtype=np.float64)
    if vectors is not None and len(vectors) == n:
        mask = np.asarray(has_vector, dtype=bool)
        sims = np.clip(vectors.astype(np.float64) @ vectors.T.astype(np.float64), 0.0, 1.0)
        sims[~mask, :] = 0.0
        sims[:, ~mask] = 0.0
    chosen: list[int] = []
    redundancy = np.zeros(n, dtype=np.float64)
    available = np.ones(n, dtype=bool)
    cited = set(covered)
    for _ in range(min(k, n)):
        gain = np.where(available, lam * rel - (1.0 - lam) * redundancy, -np.inf)
        fresh = np.array([not s or not set(s) <= cited for s in sources], dtype=bool) & available
        if fresh.any():  # a memory adding no message to those cited waits until nothing else is left
            gain = np.where(fresh, gain, -np.inf)
        best = int(np.argmax(gain))  # ties: the earlier (better-ranked) item
        chosen.append(best)
        available[best] = False
        if covers is None or covers[best]:
            cited.update(sources[best])
        overlap = np.array([source_overlap(sources[best], s) for s in sources], dtype=np.float64)
        redundancy = np.maximum(redundancy, np.maximum(sims[best], overlap))
    return chosen
