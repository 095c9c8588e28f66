"""Journaled bulk updates of node columns, for upkeep passes over many memories.

``UnitOfWork.put_node`` reads and writes one row at a time; an upkeep pass over 100k
memories cannot afford that. Here the before-images are read 500 rows per query, the
updates run as ``executemany`` grouped by the set of changed columns, and every row still
goes into the open batch's journal with its full before- and after-image, so
``journal.undo_batch`` and history rollback treat the batch like any other.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from sqlalchemy import bindparam, select

from ..cancel import CancelToken, checkpoint
from . import tables as t
from .unit_of_work import UnitOfWork

CHUNK = 500
# Columns a life-cycle pass may change through this path (the rest go through put_node).
BULK_COLUMNS = frozenset(
    {
        "tier",
        "review_status",
        "srs",
        "retrievability",
        "recall_count",
        "last_recalled_at",
        "updated_at",
        "flags",
        "importance",
    }
)


def bulk_update_nodes(
    uow: UnitOfWork,
    chat_id: str,
    updates: Mapping[str, Mapping[str, Any]],
    *,
    merge_flags: Mapping[str, Mapping[str, Any]] | None = None,
    cancel: CancelToken | None = None,
) -> list[str]:
    """Apply ``{node_id: {column: value}}`` (and merge ``merge_flags[node_id]`` into the row's
    flags) and journal each changed row in the open batch. Rows whose values are already
    equal are skipped. Returns the ids actually changed. ``cancel`` is checked per chunk."""
    if not updates:
        return []
    bad = {c for cols in updates.values() for c in cols} - BULK_COLUMNS
    if bad:
        raise ValueError(f"bulk updates cannot change {sorted(bad)}")
    pk = uow.read.require_chat_pk(chat_id)
    ids = list(updates)
    changed: list[str] = []
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = defaultdict(list)
    record = uow.change(chat_id)
    for start in range(0, len(ids), CHUNK):
        checkpoint(cancel)
        chunk = ids[start : start + CHUNK]
        rows = uow.conn.execute(
            select(t.nodes).where(t.nodes.c.chat_pk == pk, t.nodes.c.id.in_(chunk))
        ).mappings()
        for row in rows:
            before = dict(row)
            want = dict(updates[before["id"]])
            if merge_flags and before["id"] in merge_flags:
                want["flags"] = {**before["flags"], **merge_flags[before["id"]]}
            diff = {k: v for k, v in want.items() if before[k] != v}
            if not diff:
                continue
            after = {**before, **diff}
            uow.journal_row("nodes", before["id"], before, after)
            key = tuple(sorted(diff))
            groups[key].append({"b_id": before["id"], **{f"v_{k}": diff[k] for k in key}})
            changed.append(before["id"])
            record.node_changed(before["id"])
    for key, params in groups.items():
        stmt = (
            t.nodes.update()
            .where(t.nodes.c.id == bindparam("b_id"))
            .values({t.nodes.c[k]: bindparam(f"v_{k}", type_=t.nodes.c[k].type) for k in key})
        )
        uow.conn.execute(stmt, params)
    return changed


def write_retrievability(uow: UnitOfWork, chat_id: str, values: Mapping[str, float]) -> list[str]:
    """Store fresh retrievability estimates without journaling them.

    Retrievability is a cache of a function of the card and the clock; undoing a batch
    restores cards and tiers, and the next pass recomputes the estimate from them. Keeping
    these writes out of the journal is what makes a daily pass over 100k memories cheap
    (a full before/after row image per memory would dominate the cost)."""
    if not values:
        return []
    pk = uow.read.require_chat_pk(chat_id)
    stmt = (
        t.nodes.update()
        .where(t.nodes.c.id == bindparam("b_id"), t.nodes.c.chat_pk == pk)
        .values(retrievability=bindparam("v_r"))
    )
    uow.conn.execute(stmt, [{"b_id": k, "v_r": float(v)} for k, v in values.items()])
    record = uow.change(chat_id)
    for node_id in values:
        record.node_changed(node_id)
    return list(values)
