"""Stored memory vectors: kept in the store (``core/store/vectors.py``), named here for the index."""

from __future__ import annotations

from ..store.vectors import (
    StoredVector,
    delete_vectors,
    load_vectors,
    load_vectors_by_ids,
    save_vectors,
    text_hash,
)

__all__ = [
    "StoredVector",
    "delete_vectors",
    "load_vectors",
    "load_vectors_by_ids",
    "save_vectors",
    "text_hash",
]
