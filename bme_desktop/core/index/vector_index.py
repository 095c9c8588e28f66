"""An in-memory vector index: one float32 matrix of L2-normalised rows, top-k by one product.

Rows are added, replaced and removed one id at a time (removal swaps the last row into the
hole), so an edit never rebuilds the matrix. All methods are thread-safe.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

Matrix = npt.NDArray[np.float32]


def normalise_rows(rows: npt.ArrayLike) -> Matrix:
    out = np.array(rows, dtype=np.float32, copy=True, ndmin=2)
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    np.divide(out, norms, out=out, where=norms > 0.0)
    return out


class VectorIndex:
    """Vectors of one chat, all of one model and one dimension."""

    def __init__(self, model: str, dim: int) -> None:
        self.model = model
        self.dim = dim
        self._lock = threading.Lock()
        self._matrix: Matrix = np.zeros((0, dim), dtype=np.float32)
        self._ids: list[str] = []
        self._row: dict[str, int] = {}
        self._hash: dict[str, str] = {}
        self.uid = uuid.uuid4().hex  # with ``version``: which index, in which state, a cached result is from
        self.version = 0  # bumped by every change

    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, node_id: object) -> bool:
        return node_id in self._row

    def text_hash(self, node_id: str) -> str | None:
        return self._hash.get(node_id)

    def ids(self) -> list[str]:
        with self._lock:
            return list(self._ids)

    def upsert(self, ids: Sequence[str], vectors: npt.ArrayLike, hashes: Sequence[str] | None = None) -> None:
        rows = normalise_rows(vectors)
        if rows.shape[0] != len(ids):
            raise ValueError(f"{len(ids)} ids but {rows.shape[0]} vectors")
        if len(ids) and rows.shape[1] != self.dim:
            raise ValueError(f"vectors of dimension {rows.shape[1]}, index holds {self.dim}")
        with self._lock:
            self.version += 1
            fresh: list[int] = []
            for i, node_id in enumerate(ids):
                row = self._row.get(node_id)
                if row is None:
                    fresh.append(i)
                else:
                    self._matrix[row] = rows[i]
                if hashes is not None:
                    self._hash[node_id] = hashes[i]
            if fresh:
                base = len(self._ids)
                self._grow(base + len(fresh))
                self._matrix[base : base + len(fresh)] = rows[fresh]
                for offset, i in enumerate(fresh):
                    self._row[ids[i]] = base + offset
                    self._ids.append(ids[i])

    def remove(self, ids: Iterable[str]) -> int:
        removed = 0
        with self._lock:
            self.version += 1
            for node_id in ids:
                row = self._row.pop(node_id, None)
                self._hash.pop(node_id, None)
                if row is None:
                    continue
                last = len(self._ids) - 1
                if row != last:
                    moved = self._ids[last]
                    self._matrix[row] = self._matrix[last]
                    self._ids[row] = moved
                    self._row[moved] = row
                self._ids.pop()
                removed += 1
        return removed

    def vectors_of(self, ids: Sequence[str]) -> tuple[list[str], Matrix]:
        """The ids among ``ids`` that have a vector, and their rows (copies)."""
        with self._lock:
            found = [i for i in ids if i in self._row]
            rows = (
                self._matrix[[self._row[i] for i in found]].copy()
                if found
                else np.zeros((0, self.dim), np.float32)
            )
        return found, rows

    def scores(self, query: npt.ArrayLike) -> tuple[list[str], npt.NDArray[np.float32]]:
        """Cosine of every row with the normalised ``query``: (ids, scores)."""
        q = normalise_rows(query)[0]
        if q.shape[0] != self.dim:
            raise ValueError(f"query of dimension {q.shape[0]}, index holds {self.dim}")
        with self._lock:
            n = len(self._ids)
            sims: npt.NDArray[np.float32] = self._matrix[:n] @ q
            return list(self._ids), sims

    def top_k(self, query: npt.ArrayLike, k: int) -> list[tuple[str, float]]:
        ids, sims = self.scores(query)
        if k <= 0 or not ids:
            return []
        k = min(k, len(ids))
        part = np.argpartition(-sims, k - 1)[:k] if k < len(ids) else np.arange(len(ids))
        order = part[np.lexsort((part, -sims[part]))]
        return [(ids[i], float(sims[i])) for i in order]

    def _grow(self, size: int) -> None:
        if size <= self._matrix.shape[0]:
            return
        capacity = max(size, int(self._matrix.shape[0] * 1.5) + 16)
        grown = np.zeros((capacity, self.dim), dtype=np.float32)
        grown[: len(self._ids)] = self._matrix[: len(self._ids)]
        self._matrix = grown
