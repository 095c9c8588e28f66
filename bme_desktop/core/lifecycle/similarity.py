"""Text similarity for near-duplicate detection, CJK-safe and deterministic.

Each text becomes a hashed bag of character bigrams and trigrams (unigrams only for texts
of one character), L2-normalised; cosine similarity is then one matrix product, done in
blocks so 10k memories of one type stay within memory. Unigrams were dropped because they
made "a silver coin" and "a silver key" in one short sentence 0.94 similar; with bi- and
trigrams it is 0.89 — still lexical: one swapped word in a short sentence stays close,
which is what the LLM judge seam in ``consolidate`` is for.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterator, Sequence

import numpy as np
import numpy.typing as npt

DIM = 4096
BLOCK = 1024
_SPACE = re.compile(r"\s+")


def normalise(text: str) -> str:
    return _SPACE.sub(" ", text.lower()).strip()


def _grams(text: str) -> Iterator[str]:
    t = normalise(text)
    if len(t) < 2:
        yield t
    for n in (2, 3):
        for i in range(len(t) - n + 1):
            yield t[i:i + n]


def text_matrix(texts: Sequence[str]) -> npt.NDArray[np.float32]:
    m = np.zeros((len(texts), DIM), dtype=np.float32)
    for row, text in enumerate(texts):
        for gram in _grams(text):
            m[row, zlib.crc32(gram.encode("utf-8")) % DIM] += 1.0
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    out: npt.NDArray[np.float32] = m / norms
    return out


def lexical_similarity(a: str, b: str) -> float:
    m = text_matrix([a, b])
    return float(m[0] @ m[1])


def pairs_above(m: npt.NDArray[np.float32], floor: float) -> list[tuple[int, int, float]]:
    """All pairs ``i < j`` with cosine ≥ ``floor``, highest first (ties by index)."""
    out: list[tuple[int, int, float]] = []
    n = m.shape[0]
    for start in range(0, n, BLOCK):
        sims = m[start:start + BLOCK] @ m.T
        rows, cols = np.nonzero(sims >= floor)
        for r, c in zip(rows.tolist(), cols.tolist(), strict=True):
            i = start + r
            if i < c:
                out.append((i, c, float(sims[r, c])))
    out.sort(key=lambda p: (-p[2], p[0], p[1]))
    return out
