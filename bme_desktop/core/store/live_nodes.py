"""The live memories (not deleted, not archived) a search narrows to, by type, id, title,
words, name and first source message: the queries extraction's matching and context ask.

A plain SQL ``LIMIT`` over ties keeps whichever rows the backend's scan met first, so callers
that cut a list read the ordering keys (:func:`live_node_keys`) and choose in Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import String, cast, or_, select

from ..model import Node
from . import tables as t
from .reader import Reader
from .rows import row_to_node

NodeKey = tuple[Any, ...]  # id, importance, updated_at, src_min, type, title


@dataclass(frozen=True)
class LiveFilter:
    types: Sequence[str] = ()  # any of these types (all types when empty)
    ids: Sequence[str] | None = None
    titles: Sequence[str] | None = None  # exactly one of these titles
    words: Sequence[str] = ()  # the search text contains at least one of these (lower-case)
    name: str | None = None  # the search text starts with this lower-cased title, then a space
    since: int | None = None  # first source message at or after this index


def _where(pk: int, f: LiveFilter) -> list[Any]:
    n = t.nodes.c
    cond: list[Any] = [n.chat_pk == pk, n.deleted_at.is_(None), n.tier != "archived"]
    if f.types:
        cond.append(n.type.in_(list(f.types)))
    if f.ids is not None:
        cond.append(n.id.in_(list(f.ids)))
    if f.titles is not None:
        cond.append(n.title.in_(list(f.titles)))
    if f.words:
        cond.append(or_(*(n.search_text.like(f"%{w}%") for w in f.words)))
    if f.name is not None:
        # search_text starts with the title lower-cased by Python: SQL lower() folds only ASCII on
        # SQLite and by the server's locale on PostgreSQL ("Élodie" would match on one only).
        prefix = f.name.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        cond.append(n.search_text.like(prefix + " %", escape="\\"))
    if f.since is not None:
        cond.append(n.src_min >= f.since)
    return cond


def live_nodes(
    reader: Reader, chat_id: str, pk: int, f: LiveFilter, *, limit: int | None = None
) -> list[Node]:
    """The matching memories (``limit``: any that many of them; see the module's note)."""
    query = select(t.nodes).where(*_where(pk, f))
    if limit is not None:
        query = query.limit(limit)
    return [row_to_node(r, chat_id) for r in reader.conn.execute(query).mappings()]


def live_node_keys(reader: Reader, pk: int, f: LiveFilter) -> list[NodeKey]:
    """(id, importance, updated_at, src_min, type, title) of every matching memory."""
    n = t.nodes.c
    rows = reader.conn.execute(
        select(n.id, n.importance, n.updated_at, n.src_min, n.type, n.title).where(*_where(pk, f))
    )
    return [tuple(row) for row in rows]


def newest_by_source(reader: Reader, chat_id: str, pk: int, f: LiveFilter, limit: int) -> list[Node]:
    """The ``limit`` matching memories drawn from the latest messages (title descending among equals)."""
    n = t.nodes.c
    rows = reader.conn.execute(
        select(t.nodes).where(*_where(pk, f)).order_by(n.src_min.desc(), n.title.desc()).limit(limit)
    ).mappings()
    return [row_to_node(r, chat_id) for r in rows]


def has_lorebook_fact(reader: Reader, pk: int) -> bool:
    """Whether SillyTavern's lorebook gave the chat any (live) memory."""
    n = t.nodes.c
    return (
        reader.conn.execute(
            select(n.id)
            .where(
                n.chat_pk == pk,
                n.deleted_at.is_(None),
                n.type == "fact",
                cast(n.flags, String).like('%"lorebook"%sillytavern%'),
            )
            .limit(1)
        ).first()
        is not None
    )
