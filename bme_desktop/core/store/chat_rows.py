"""Whole-chat rows: what export reads, import inserts in bulk and purge deletes.

Backups move chats as documents; here is the SQL they need, so the backup code speaks in
records and row dicts and never in tables. Inserts go 500 rows a statement; every id passed
to an insert is known to be free (the importer checks with :func:`taken_ids` first).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Literal

from sqlalchemy import func, select

from ..model import Edge
from . import tables as t
from .reader import Reader
from .rows import row_to_edge
from .unit_of_work import UnitOfWork

IdTable = Literal["nodes", "edges", "summaries"]
BulkTable = Literal["nodes", "edges", "summaries", "messages", "recall_records"]

_ID_TABLES = {"nodes": t.nodes, "edges": t.edges, "summaries": t.summaries}
_BULK_TABLES = {**_ID_TABLES, "messages": t.messages, "recall_records": t.recall_records}
# children first: every table that holds memory of one chat, then the chat row itself
_CHAT_TABLES = (
    t.vectors,
    t.recall_records,
    t.summaries,
    t.edges,
    t.nodes,
    t.batches,
    t.messages,
    t.audit_log,
)
_CHUNK = 500


def chunks(rows: Sequence[Any], size: int = _CHUNK) -> Iterator[Sequence[Any]]:
    for start in range(0, len(rows), size):
        yield rows[start : start + size]


def all_edges(reader: Reader, chat_id: str) -> list[Edge]:
    """Every edge of the chat, deleted and invalid ones too, oldest first."""
    pk = reader.require_chat_pk(chat_id)
    rows = reader.conn.execute(
        select(t.edges).where(t.edges.c.chat_pk == pk).order_by(t.edges.c.created_at, t.edges.c.id)
    ).mappings()
    return [row_to_edge(r, chat_id) for r in rows]


def edge_ids(reader: Reader, chat_id: str) -> set[str]:
    pk = reader.require_chat_pk(chat_id)
    return set(reader.conn.execute(select(t.edges.c.id).where(t.edges.c.chat_pk == pk)).scalars())


def batch_headers(reader: Reader, chat_pk: int) -> list[dict[str, Any]]:
    """The chat's batches without their journals, in order."""
    b = t.batches.c
    rows = reader.conn.execute(
        select(
            b.id,
            b.kind,
            b.status,
            b.read_from,
            b.read_to,
            b.created_at,
            b.actor,
            b.description,
        )
        .where(b.chat_pk == chat_pk)
        .order_by(b.id)
    ).mappings()
    return [dict(r) for r in rows]


def taken_ids(reader: Reader, table: IdTable, ids: Sequence[str]) -> set[str]:
    """Which of ``ids`` are already used in ``table``, in any chat."""
    tab = _ID_TABLES[table]
    out: set[str] = set()
    for chunk in chunks(ids):
        out.update(reader.conn.execute(select(tab.c.id).where(tab.c.id.in_(chunk))).scalars())
    return out


def any_id_taken(reader: Reader, table: IdTable, ids: Sequence[str]) -> bool:
    tab = _ID_TABLES[table]
    return any(
        reader.conn.execute(select(tab.c.id).where(tab.c.id.in_(chunk)).limit(1)).first()
        for chunk in chunks(ids)
    )


def insert_rows(uow: UnitOfWork, table: BulkTable, rows: Sequence[dict[str, Any]]) -> None:
    """Plain bulk inserts, 500 rows a statement (no journal, no change record: the caller's)."""
    tab = _BULK_TABLES[table]
    for chunk in chunks(rows):
        uow.conn.execute(tab.insert(), list(chunk))


def insert_chat(uow: UnitOfWork, **values: Any) -> int:
    """A new chat row; its primary key."""
    return int(uow.conn.execute(t.chats.insert().values(**values)).inserted_primary_key[0])  # type: ignore[index]


def insert_batch(uow: UnitOfWork, **values: Any) -> int:
    """A new batch row; its id."""
    return int(uow.conn.execute(t.batches.insert().values(**values)).inserted_primary_key[0])  # type: ignore[index]


def set_batch_journal(uow: UnitOfWork, batch_id: int, entries: list[dict[str, Any]]) -> None:
    uow.conn.execute(t.batches.update().where(t.batches.c.id == batch_id).values(journal=entries))


def delete_chat_rows(uow: UnitOfWork, chat_id: str) -> None:
    """The chat and everything it holds, for good; its nodes and edges are recorded as removed."""
    pk = uow.read.require_chat_pk(chat_id)
    record = uow.change(chat_id)
    for node_id in uow.conn.execute(select(t.nodes.c.id).where(t.nodes.c.chat_pk == pk)).scalars():
        record.node_removed(node_id)
    for edge_id in uow.conn.execute(select(t.edges.c.id).where(t.edges.c.chat_pk == pk)).scalars():
        record.edge_removed(edge_id)
    for table in _CHAT_TABLES:
        uow.conn.execute(table.delete().where(table.c.chat_pk == pk))
    uow.conn.execute(t.chats.delete().where(t.chats.c.pk == pk))


def delete_every_chat(uow: UnitOfWork) -> int:
    """Every chat and all it holds, for good; the number of rows deleted, all tables together."""
    rows = 0
    for table in (*_CHAT_TABLES, t.chats):
        rows += int(uow.conn.execute(select(func.count()).select_from(table)).scalar_one())
        uow.conn.execute(table.delete())
    return rows
