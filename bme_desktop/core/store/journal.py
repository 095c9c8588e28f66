"""Undoing and redoing journaled batches.

History rollback (the chat was edited) undoes extraction batches newest first and keeps
memories that a user edited by hand since, flagged for review. Manual undo refuses when a
row changed after the batch, so it never overwrites later work silently.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, select

from . import tables as t
from .unit_of_work import UnitOfWork

# Batch kinds that write only their own chat-state key and that no other kind builds on
# (kind -> key): the working-memory scan of user messages.
INDEPENDENT_STATE = {"working": "working_memory"}
# Chat-state keys a sync writes, not a batch (a group's members as the frontend reports them):
# rolling a batch back or undoing a rewrite leaves them as they are now.
SYNC_STATE = ("members",)


class JournalConflict(Exception):
    """The rows changed since the batch; undoing it would overwrite later work."""


def apply_image(
    uow: UnitOfWork, chat_id: str, table_name: str, row_id: str, image: dict[str, Any] | None
) -> None:
    table = t.JOURNALED[table_name]
    current = uow.current_row(table, row_id)
    record = uow.change(chat_id)
    if image is None:
        if current is not None:
            uow.conn.execute(table.delete().where(table.c.id == row_id))
            _note(record, table_name, row_id, "removed")
        return
    if current is None:
        if {c.name for c in table.columns if not c.nullable} - set(image):
            return  # a partial (update) image of a row that is gone: nothing to restore onto
        uow.conn.execute(table.insert().values(**image))
        _note(record, table_name, row_id, "removed" if image.get("deleted_at") is not None else "added")
    else:
        uow.conn.execute(table.update().where(table.c.id == row_id).values(**image))
        was_deleted = current.get("deleted_at") is not None
        is_deleted = image.get("deleted_at", current.get("deleted_at")) is not None
        kind = "changed" if was_deleted == is_deleted else ("removed" if is_deleted else "added")
        _note(record, table_name, row_id, kind)


def _matches(current: dict[str, Any] | None, image: dict[str, Any] | None) -> bool:
    """Does the row equal the image, on the image's columns (images may be partial)?"""
    if current is None or image is None:
        return current is None and image is None
    return all(current.get(k) == v for k, v in image.items())


def _note(record: Any, table_name: str, row_id: str, kind: str) -> None:
    if table_name == "nodes":
        {"added": record.node_added, "changed": record.node_changed, "removed": record.node_removed}[kind](
            row_id
        )
    elif table_name == "edges":
        {"added": record.edge_added, "changed": record.edge_changed, "removed": record.edge_removed}[kind](
            row_id
        )


def batch_row(uow: UnitOfWork, batch_id: int) -> dict[str, Any]:
    """The batch's whole row, journal included."""
    row = uow.conn.execute(select(t.batches).where(t.batches.c.id == batch_id)).mappings().first()
    if row is None:
        raise LookupError(f"no batch {batch_id}")
    return dict(row)


def set_batch_status(uow: UnitOfWork, batch_id: int, status: str) -> None:
    uow.conn.execute(t.batches.update().where(t.batches.c.id == batch_id).values(status=status))


def later_automatic_batches(uow: UnitOfWork, batch: dict[str, Any]) -> list[tuple[int, str]]:
    """(id, kind) of the applied automatic batches of the chat after ``batch``, in order."""
    b = t.batches.c
    return [
        (int(i), str(k))
        for i, k in uow.conn.execute(
            select(b.id, b.kind)
            .where(
                b.chat_pk == batch["chat_pk"], b.id > batch["id"], b.kind != "manual", b.status == "applied"
            )
            .order_by(b.id)
        ).all()
    ]


def chat_images(
    conn: Connection, chat_pk: int, tables: Sequence[str]
) -> dict[str, dict[str, dict[str, Any]]]:
    """Every row of the chat in the journaled ``tables``: table -> id -> full row."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for name in tables:
        table = t.JOURNALED[name]
        out[name] = {
            r["id"]: dict(r) for r in conn.execute(select(table).where(table.c.chat_pk == chat_pk)).mappings()
        }
    return out


def batch_statuses(conn: Connection, chat_pk: int) -> dict[int, str]:
    return {
        int(i): str(s)
        for i, s in conn.execute(
            select(t.batches.c.id, t.batches.c.status).where(t.batches.c.chat_pk == chat_pk)
        ).all()
    }


def _flag_kept(uow: UnitOfWork, table_name: str, current: dict[str, Any], reason: str) -> None:
    if table_name != "nodes":
        return
    flags = dict(current["flags"])
    flags["kept_after_rollback"] = reason
    uow.conn.execute(
        t.nodes.update()
        .where(t.nodes.c.id == current["id"])
        .values(flags=flags, review_status="pending", updated_at=uow.now)
    )


def _check_unchanged(uow: UnitOfWork, journal: list[dict[str, Any]], image: str, why: str) -> None:
    """Every row the journal touched must still equal its final (``after``) or first
    (``before``) image."""
    expected: dict[tuple[str, str], dict[str, Any] | None] = {}
    entries = journal if image == "after" else list(reversed(journal))
    for entry in entries:  # merge partial images in order: the row's expected final state
        key, value = (entry["table"], entry["id"]), entry[image]
        known = expected.get(key)
        expected[key] = None if value is None else ({**known, **value} if known else dict(value))
    for (table_name, row_id), want in expected.items():
        if not _matches(uow.current_row(t.JOURNALED[table_name], row_id), want):
            raise JournalConflict(f"{table_name[:-1]} {row_id} {why}")


def rollback_history(uow: UnitOfWork, batch_id: int) -> int:
    """Undo an extraction batch because the messages it read changed. Rows edited by hand
    since the batch are kept and flagged for review. Returns the number of entries undone."""
    batch = batch_row(uow, batch_id)
    chat_id = uow.chat_id_of(batch["chat_pk"])
    undone = 0
    for entry in reversed(batch["journal"]):
        table = t.JOURNALED[entry["table"]]
        current = uow.current_row(table, entry["id"])
        if (
            current is not None
            and current.get("manually_edited")
            and not (entry["after"] or {}).get("manually_edited")
        ):
            _flag_kept(uow, entry["table"], current, f"its source messages changed (batch {batch_id})")
            _note(uow.change(chat_id), entry["table"], entry["id"], "changed")
            continue
        apply_image(uow, chat_id, entry["table"], entry["id"], entry["before"])
        undone += 1
    uow.conn.execute(t.batches.update().where(t.batches.c.id == batch_id).values(status="rolled_back"))
    if batch["state_before"] is not None:
        uow.set_chat_state(
            batch["chat_pk"],
            _state_without(uow.chat_state(batch["chat_pk"]), batch["kind"], dict(batch["state_before"])),
        )
    return undone


def _state_without(current: dict[str, Any], kind: str, before: dict[str, Any]) -> dict[str, Any]:
    """The chat state once a ``kind`` batch is rolled back: a batch of an independent kind
    gives back only its own key; any other batch the state from before it, except the keys of
    independent kinds, which follow their own batches (see ``ingest.history``)."""
    own = INDEPENDENT_STATE.get(kind)
    if own is not None:
        restored = dict(current)
        keys = [own]
        source = before
    else:
        restored = dict(before)
        keys = list(INDEPENDENT_STATE.values())
        source = current
    for key in keys:
        _copy_key(source, restored, key)
    return keep_sync_state(current, restored)


def keep_sync_state(current: dict[str, Any], restored: dict[str, Any]) -> dict[str, Any]:
    """``restored`` with the keys a sync writes (``SYNC_STATE``) as they are in ``current``."""
    for key in SYNC_STATE:
        _copy_key(current, restored, key)
    return restored


def _copy_key(source: dict[str, Any], target: dict[str, Any], key: str) -> None:
    if key in source:
        target[key] = source[key]
    else:
        target.pop(key, None)


def undo_batch(uow: UnitOfWork, batch_id: int) -> None:
    """Undo a batch exactly, refusing if anything it wrote has changed since."""
    batch = batch_row(uow, batch_id)
    if batch["status"] != "applied":
        raise JournalConflict(f"batch {batch_id} is {batch['status']}, not applied")
    chat_id = uow.chat_id_of(batch["chat_pk"])
    _check_unchanged(uow, batch["journal"], "after", "changed after this edit")
    for entry in reversed(batch["journal"]):
        apply_image(uow, chat_id, entry["table"], entry["id"], entry["before"])
    uow.conn.execute(t.batches.update().where(t.batches.c.id == batch_id).values(status="undone"))


def redo_batch(uow: UnitOfWork, batch_id: int) -> None:
    """Re-apply an undone batch, refusing if the rows moved on since the undo."""
    batch = batch_row(uow, batch_id)
    if batch["status"] != "undone":
        raise JournalConflict(f"batch {batch_id} is {batch['status']}, not undone")
    chat_id = uow.chat_id_of(batch["chat_pk"])
    _check_unchanged(uow, batch["journal"], "before", "changed after the undo")
    for entry in batch["journal"]:
        apply_image(uow, chat_id, entry["table"], entry["id"], entry["after"])
    uow.conn.execute(t.batches.update().where(t.batches.c.id == batch_id).values(status="applied"))
