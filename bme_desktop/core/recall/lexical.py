"""An incremental BM25 index over memories, with weighted fields and an exact-name boost.

Documents are added, replaced and removed one at a time by id. Scoring is vectorised over
``scipy.sparse`` CSC matrices: a *main* matrix built in bulk, plus a small *pending* matrix
of documents changed since, merged into the main one when it grows. Removed documents are
masked out of the main matrix until the next merge, so no change ever rebuilds everything
at once (merges are amortised).

Fields are combined BM25F-style: term frequency and document length are sums over fields
of ``weight * count``, so a term in the title counts ``title_weight`` times.

Scores returned by :meth:`BM25Index.search` lie in [0, 1] for blending with vector scores:
``"max"`` divides by the best score of the query, ``"bound"`` by the query's highest possible
BM25 score (an absolute scale that is comparable across queries).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal, TypeVar

import numpy as np
import numpy.typing as npt
from scipy import sparse

from bme_desktop.core.recall.tokenize import TextTokenizer

Normalisation = Literal["max", "bound"]
_Scalar = TypeVar("_Scalar", bound=np.generic)

DEFAULT_FIELD_WEIGHTS: Mapping[str, float] = {"title": 2.0, "body": 1.0}

_ASCII_WORD = re.compile(r"[a-z0-9]")
# Names are filed under their first (up to) 4 characters, so a query position looks up 3
# keys and checks only the names that share them (2-character buckets held 500 of 10k titles).
NAME_BUCKET_CHARS = 4


@dataclass(frozen=True)
class LexicalHit:
    """One search result: a document id and its score in [0, 1]."""

    doc_id: str
    score: float


def normalise_name(text: str) -> str:
    """The form in which names are compared verbatim: NFKC, lower case, single spaces."""
    return " ".join(unicodedata.normalize("NFKC", text).lower().split())


class _TermMatrix:
    """A CSC matrix of weighted term frequencies: rows are document slots, columns terms."""

    def __init__(
        self,
        slots: list[int],
        terms: list[npt.NDArray[np.int32]],
        freqs: list[npt.NDArray[np.float32]],
        n_rows: int,
        n_cols: int,
    ) -> None:
        if slots:
            cols = np.concatenate(terms)
            data = np.concatenate(freqs)
            rows = np.repeat(np.asarray(slots, dtype=np.int32), [len(t) for t in terms])
        else:
            cols = np.zeros(0, dtype=np.int32)
            data = np.zeros(0, dtype=np.float32)
            rows = np.zeros(0, dtype=np.int32)
        self.matrix = sparse.csc_matrix((data, (rows, cols)), shape=(n_rows, n_cols), dtype=np.float32)
        self.slots = set(slots)

    def postings(
        self, term_ids: npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.float32], npt.NDArray[np.int64]]:
        """Rows, frequencies and the position in ``term_ids`` of every posting of those terms."""
        known = term_ids[term_ids < self.matrix.shape[1]]
        position = np.flatnonzero(term_ids < self.matrix.shape[1])
        if known.size == 0 or not self.slots:
            return np.zeros(0, np.int32), np.zeros(0, np.float32), np.zeros(0, np.int64)
        sub = self.matrix[:, known]
        counts = np.diff(sub.indptr)
        return (
            sub.indices.astype(np.int32, copy=False),
            sub.data.astype(np.float32, copy=False),
            np.repeat(position, counts),
        )


class BM25Index:
    """BM25 over documents with named text fields, updated one document at a time.

    Not thread-safe: guard it with a lock, or keep all calls on one thread (the memory
    service's writer), as searching may fold pending changes into the main matrix.
    """

    def __init__(
        self,
        tokenizer: TextTokenizer | None = None,
        field_weights: Mapping[str, float] | None = None,
        name_field: str = "title",
        k1: float = 1.2,
        b: float = 0.75,
        normalisation: Normalisation = "max",
        min_name_length: int = 2,
    ) -> None:
        self.tokenizer = tokenizer if tokenizer is not None else TextTokenizer()
        self.field_weights: dict[str, float] = dict(
            DEFAULT_FIELD_WEIGHTS if field_weights is None else field_weights
        )
        self.name_field = name_field
        self.k1 = k1
        self.b = b
        self.normalisation: Normalisation = normalisation
        self.min_name_length = min_name_length

        self._term_ids: dict[str, int] = {}
        self._df = np.zeros(64, dtype=np.int64)
        self._slot_of: dict[str, int] = {}
        self._id_of_slot: list[str | None] = []
        self._free_slots: list[int] = []
        self._slot_terms: list[npt.NDArray[np.int32] | None] = []
        self._slot_freqs: list[npt.NDArray[np.float32] | None] = []
        self._length = np.zeros(64, dtype=np.float64)
        self._total_length = 0.0
        self._main = _TermMatrix([], [], [], 0, 0)
        self._main_valid = np.zeros(0, dtype=bool)
        self._stale_in_main = 0
        self._pending: set[int] = set()
        self._pending_matrix: _TermMatrix | None = None
        self._names: dict[str, set[str]] = {}
        self._name_of: dict[str, str] = {}
        self._name_buckets: dict[str, set[str]] = {}

    # ----------------------------------------------------------------- updates

    def __len__(self) -> int:
        return len(self._slot_of)

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._slot_of

    def add(self, doc_id: str, fields: Mapping[str, str] | str) -> None:
        """Index a document; a document with the same id is replaced. A plain string is its body."""
        if isinstance(fields, str):
            fields = {"body": fields}
        if doc_id in self._slot_of:
            self.remove(doc_id)
        counts: dict[int, float] = {}
        length = 0.0
        for field_name, text in fields.items():
            weight = self.field_weights.get(field_name, 1.0)
            if weight <= 0.0 or not text:
                continue
            for token in self.tokenizer.iter_tokens(text):
                term = self._term_ids.get(token)
                if term is None:
                    term = self._term_ids[token] = len(self._term_ids)
                counts[term] = counts.get(term, 0.0) + weight
                length += weight
        terms = np.fromiter(counts.keys(), dtype=np.int32, count=len(counts))
        freqs = np.fromiter(counts.values(), dtype=np.float32, count=len(counts))

        slot = self._take_slot(doc_id)
        self._slot_terms[slot] = terms
        self._slot_freqs[slot] = freqs
        self._length[slot] = length
        self._total_length += length
        if len(self._term_ids) > self._df.size:
            self._df = _grown(self._df, len(self._term_ids))
        np.add.at(self._df, terms, 1)
        self._pending.add(slot)
        self._pending_matrix = None

        name = fields.get(self.name_field, "")
        if name:
            self._add_name(doc_id, name)

    update = add

    def add_many(self, docs: Iterable[tuple[str, Mapping[str, str] | str]]) -> None:
        """Index many documents, then fold them into the main matrix at once."""
        for doc_id, fields in docs:
            self.add(doc_id, fields)
        self._merge()

    def remove(self, doc_id: str) -> bool:
        """Forget a document. Returns whether it was indexed."""
        slot = self._slot_of.pop(doc_id, None)
        if slot is None:
            return False
        terms = self._slot_terms[slot]
        if terms is not None:
            np.subtract.at(self._df, terms, 1)
        self._total_length -= float(self._length[slot])
        self._length[slot] = 0.0
        self._slot_terms[slot] = None
        self._slot_freqs[slot] = None
        self._id_of_slot[slot] = None
        self._free_slots.append(slot)
        if slot in self._pending:
            self._pending.discard(slot)
            self._pending_matrix = None
        if slot < self._main_valid.size and self._main_valid[slot]:
            self._main_valid[slot] = False
            self._stale_in_main += 1
        self._remove_name(doc_id)
        return True

    def clear(self) -> None:
        for doc_id in list(self._slot_of):
            self.remove(doc_id)
        self._merge()

    # ------------------------------------------------------------------ search

    def search(self, query: str, k: int = 10, name_boost: float = 0.0) -> list[LexicalHit]:
        """The ``k`` best documents for ``query``, best first, with scores in [0, 1].

        ``name_boost`` in [0, 1] blends in the exact-name signal: a document whose name
        appears verbatim in the query scores ``(1 - name_boost) * bm25 + name_boost``.
        """
        if not 0.0 <= name_boost <= 1.0:
            raise ValueError("name_boost must lie in [0, 1]")
        if k <= 0 or not self._slot_of:
            return []
        scores = self.score_all(query)
        if name_boost > 0.0:
            scores *= 1.0 - name_boost
            for doc_id in self.exact_name_hits(query):
                scores[self._slot_of[doc_id]] += name_boost
        candidates = np.flatnonzero(scores > 0.0)
        if candidates.size > k:
            top = np.argpartition(-scores[candidates], k - 1)[:k]
            candidates = candidates[top]
        # Best first; ties broken by slot for determinism.
        order = np.lexsort((candidates, -scores[candidates]))
        hits: list[LexicalHit] = []
        for slot in candidates[order]:
            hit_id = self._id_of_slot[int(slot)]
            if hit_id is not None:
                hits.append(LexicalHit(hit_id, min(1.0, float(scores[slot]))))
        return hits

    def score_all(self, query: str) -> npt.NDArray[np.float64]:
        """Normalised BM25 score of every slot (zero for empty slots and non-matching documents)."""
        self._maybe_merge()
        n_slots = len(self._id_of_slot)
        scores = np.zeros(n_slots, dtype=np.float64)
        term_ids = np.unique(
            np.fromiter(
                (
                    t
                    for t in (self._term_ids.get(tok) for tok in self.tokenizer.iter_tokens(query))
                    if t is not None
                ),
                dtype=np.int64,
            )
        )
        n_docs = len(self._slot_of)
        if term_ids.size == 0 or n_docs == 0:
            return scores
        df = self._df[term_ids].astype(np.float64)
        idf = np.log1p((n_docs - df + 0.5) / (df + 0.5))
        avg_length = max(self._total_length / n_docs, 1e-9)

        main_scores = self._accumulate(self._main, term_ids, idf, avg_length, n_slots)
        main_scores[: self._main_valid.size][~self._main_valid] = 0.0
        main_scores[self._main_valid.size :] = 0.0
        scores += main_scores
        if self._pending:
            if self._pending_matrix is None:
                self._pending_matrix = self._build(sorted(self._pending))
            scores += self._accumulate(self._pending_matrix, term_ids, idf, avg_length, n_slots)

        bound = float(idf.sum() * (self.k1 + 1.0))
        top = bound if self.normalisation == "bound" else float(scores.max())
        if top > 0.0:
            scores /= top
        return scores

    def ids_by_slot(self) -> list[str | None]:
        """Document id of each slot of :meth:`score_all` (``None`` for free slots)."""
        return list(self._id_of_slot)

    def exact_name_hits(self, query: str) -> list[str]:
        """Ids of documents whose name occurs verbatim in ``query`` (whole words for Latin names)."""
        text = normalise_name(query)
        found: set[str] = set()
        buckets = self._name_buckets
        for i in range(len(text) - 1):
            for length in range(2, NAME_BUCKET_CHARS + 1):
                bucket = buckets.get(text[i : i + length])
                if not bucket:
                    continue
                for name in bucket:
                    if text.startswith(name, i) and _whole_word(text, i, i + len(name)):
                        found.update(self._names[name])
        return sorted(found, key=lambda doc_id: self._slot_of[doc_id])

    # --------------------------------------------------------------- internals

    def _accumulate(
        self,
        matrix: _TermMatrix,
        term_ids: npt.NDArray[np.int64],
        idf: npt.NDArray[np.float64],
        avg_length: float,
        n_slots: int,
    ) -> npt.NDArray[np.float64]:
        rows, freqs, position = matrix.postings(term_ids)
        if rows.size == 0:
            return np.zeros(n_slots, dtype=np.float64)
        tf = freqs.astype(np.float64)
        norm = self.k1 * (1.0 - self.b + self.b * self._length[rows] / avg_length)
        contribution = idf[position] * tf * (self.k1 + 1.0) / (tf + norm)
        return np.bincount(rows, weights=contribution, minlength=n_slots).astype(np.float64, copy=False)

    def _take_slot(self, doc_id: str) -> int:
        if self._free_slots:
            slot = self._free_slots.pop()
            self._id_of_slot[slot] = doc_id
        else:
            slot = len(self._id_of_slot)
            self._id_of_slot.append(doc_id)
            self._slot_terms.append(None)
            self._slot_freqs.append(None)
            if slot >= self._length.size:
                self._length = _grown(self._length, slot + 1)
        self._slot_of[doc_id] = slot
        return slot

    def _build(self, slots: list[int]) -> _TermMatrix:
        terms: list[npt.NDArray[np.int32]] = []
        freqs: list[npt.NDArray[np.float32]] = []
        for slot in slots:
            slot_terms = self._slot_terms[slot]
            slot_freqs = self._slot_freqs[slot]
            assert slot_terms is not None and slot_freqs is not None
            terms.append(slot_terms)
            freqs.append(slot_freqs)
        return _TermMatrix(slots, terms, freqs, len(self._id_of_slot), len(self._term_ids))

    def _maybe_merge(self) -> None:
        main_size = len(self._main.slots)
        if len(self._pending) > max(512, main_size // 8) or self._stale_in_main > max(512, main_size // 4):
            self._merge()

    def _merge(self) -> None:
        live = sorted(self._slot_of.values())
        self._main = self._build(live)
        self._main_valid = np.zeros(len(self._id_of_slot), dtype=bool)
        self._main_valid[live] = True
        self._stale_in_main = 0
        self._pending.clear()
        self._pending_matrix = None

    def _add_name(self, doc_id: str, name: str) -> None:
        key = normalise_name(name)
        if len(key) < max(2, self.min_name_length):
            return
        self._names.setdefault(key, set()).add(doc_id)
        self._name_of[doc_id] = key
        self._name_buckets.setdefault(key[:NAME_BUCKET_CHARS], set()).add(key)

    def _remove_name(self, doc_id: str) -> None:
        key = self._name_of.pop(doc_id, None)
        if key is None:
            return
        holders = self._names[key]
        holders.discard(doc_id)
        if not holders:
            del self._names[key]
            bucket = self._name_buckets[key[:NAME_BUCKET_CHARS]]
            bucket.discard(key)
            if not bucket:
                del self._name_buckets[key[:NAME_BUCKET_CHARS]]


def _whole_word(text: str, start: int, end: int) -> bool:
    """Latin names must not start or end inside a word ("Al" is not in "also")."""
    if _ASCII_WORD.match(text[start]) and start > 0 and _ASCII_WORD.match(text[start - 1]):
        return False
    return not (_ASCII_WORD.match(text[end - 1]) and end < len(text) and _ASCII_WORD.match(text[end]))


def _grown(array: npt.NDArray[_Scalar], minimum: int) -> npt.NDArray[_Scalar]:
    size = max(minimum, math.ceil(array.size * 1.5), 64)
    grown = np.zeros(size, dtype=array.dtype)
    grown[: array.size] = array
    return grown
