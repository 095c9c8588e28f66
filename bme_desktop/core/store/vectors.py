"""Reading and writing the ``vectors`` table: one row per node, tagged with model and text hash.

A row whose model differs from the current embedder's, or whose text hash no longer matches
the node's text, is stale: the maintainer re-embeds that node.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from sqlalchemy import delete, select

from . import tables as t
from .reader import Reader
from .unit_of_work import UnitOfWork


@dataclass(frozen=True)
class StoredVector:
    node_id: str
    model: str
    dim: int
    text_hash: str
    vector: npt.NDArray[np.float32]


def text_hash(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "replace"), digest_size=16).hexdigest()


def load_vectors(
    reader: Reader, chat_id: str, model: str, ids: Sequence[str] | None = None
) -> list[StoredVector]:
    """The chat's stored vectors of ``model`` (only those of ``ids`` when given)."""
    pk = reader.chat_pk(chat_id)
    if pk is None or (ids is not None and not ids):
        return []
    v = t.vectors
    query = select(v.c.node_id, v.c.model, v.c.dim, v.c.text_hash, v.c.data).where(
        v.c.chat_pk == pk, v.c.model == model
    )
    rows = reader.conn.execute(query if ids is None else query.where(v.c.node_id.in_(list(ids))))
    out: list[StoredVector] = []
    for node_id, row_model, dim, hashed, data in rows:
        vector = np.frombuffer(bytes(data), dtype=np.float32)
        if vector.size == dim:
            out.append(StoredVector(node_id, row_model, int(dim), hashed, vector))
    return out


def load_vectors_by_ids(reader: Reader, ids: Sequence[str], model: str | None) -> list[StoredVector]:
    """Stored vectors of ``model`` (of every model with None) of these memories, whichever chat
    holds them (a chat's index takes the vectors of the memories other chats share with it from
    there; consolidation compares whatever vectors two memories have)."""
    v = t.vectors
    out: list[StoredVector] = []
    wanted = list(ids)
    for start in range(0, len(wanted), 500):
        query = select(v.c.node_id, v.c.model, v.c.dim, v.c.text_hash, v.c.data).where(
            v.c.node_id.in_(wanted[start : start + 500])
        )
        rows = reader.conn.execute(query if model is None else query.where(v.c.model == model))
        for node_id, row_model, dim, hashed, data in rows:
            vector = np.frombuffer(bytes(data), dtype=np.float32)
            if vector.size == dim:
                out.append(StoredVector(node_id, row_model, int(dim), hashed, vector))
    return out


def save_vectors(
    uow: UnitOfWork,
    chat_id: str,
    model: str,
    ids: Sequence[str],
    hashes: Sequence[str],
    vectors: npt.NDArray[np.float32],
) -> list[str]:
    """Replace the rows of ``ids``; skips nodes that no longer exist. Returns the ids saved."""
    pk = uow.read.chat_pk(chat_id)
    if pk is None or not ids:
        return []
    existing = {
        row[0]
        for row in uow.conn.execute(
            select(t.nodes.c.id).where(t.nodes.c.chat_pk == pk, t.nodes.c.id.in_(list(ids)))
        )
    }
    keep = [i for i, node_id in enumerate(ids) if node_id in existing]
    if not keep:
        return []
    saved = [ids[i] for i in keep]
    uow.conn.execute(delete(t.vectors).where(t.vectors.c.node_id.in_(saved)))
    dim = int(vectors.shape[1])
    uow.conn.execute(
        t.vectors.insert(),
        [
            {
                "node_id": ids[i],
                "chat_pk": pk,
                "model": model,
                "dim": dim,
                "text_hash": hashes[i],
                "data": np.ascontiguousarray(vectors[i], dtype=np.float32).tobytes(),
            }
            for i in keep
        ],
    )
    uow.vectors_saved.append((chat_id, saved))  # other instances on the database load them, not embed them
    return saved


def delete_vectors(uow: UnitOfWork, chat_id: str, ids: Sequence[str] | None = None) -> None:
    """Drop the rows of ``ids`` (all of the chat's rows when ``ids`` is None)."""
    pk = uow.read.chat_pk(chat_id)
    if pk is None:
        return
    cond = [t.vectors.c.chat_pk == pk]
    if ids is not None:
        if not ids:
            return
        cond.append(t.vectors.c.node_id.in_(list(ids)))
    uow.conn.execute(delete(t.vectors).where(*cond))
