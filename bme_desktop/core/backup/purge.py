"""Purge everything: every chat and all it holds deleted for good in one transaction (no
recycle bin, no undo), then the database compacted — ``VACUUM`` on SQLite (and its
write-ahead log truncated), ``VACUUM ANALYZE`` on PostgreSQL — so the space is given back.
Settings, the bridge token and backup files are kept."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import func, select

from ..events import ChatDeleted
from ..store import chat_rows
from ..store.unit_of_work import UnitOfWork
from .importer import extraction_paused

if TYPE_CHECKING:
    from ..ports import Purging
    from ..store.store import Store


@dataclass
class PurgeResult:
    chats: list[str]
    rows: int  # rows deleted, all tables together
    database_before: int  # bytes the database took (SQLite: its files; PostgreSQL: pg_database_size)
    database_after: int


def folder_size(folder: Path) -> int:
    """Bytes of every file under ``folder`` (links not followed)."""
    total = 0
    if not folder.exists():
        return 0
    for path in folder.rglob("*"):
        try:
            if path.is_file() and not path.is_symlink():
                total += path.stat().st_size
        except OSError:
            continue
    return total


def database_size(store: Store) -> int:
    if store.backend == "postgresql":
        with store.engine.connect() as conn:
            return int(conn.execute(select(func.pg_database_size(func.current_database()))).scalar_one())
    database = store.engine.url.database
    if not database:
        return 0
    base = Path(database)
    return sum(p.stat().st_size for p in (base, Path(f"{base}-wal"), Path(f"{base}-shm")) if p.exists())


def compact(store: Store) -> None:
    """VACUUM (SQLite, then the WAL truncated) or VACUUM ANALYZE (PostgreSQL), outside a transaction."""
    with store.engine.connect() as conn:
        conn = conn.execution_options(isolation_level="AUTOCOMMIT")
        if store.backend == "postgresql":
            conn.exec_driver_sql("VACUUM ANALYZE")
        else:
            conn.exec_driver_sql("VACUUM")
            conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")


def purge_all(service: Purging) -> PurgeResult:
    """Delete every chat for good, then compact the database."""
    before = database_size(service.store)

    def op(uow: UnitOfWork) -> tuple[list[str], int]:
        chats = uow.read.chat_ids()
        rows = chat_rows.delete_every_chat(uow)
        uow.deleted.extend(chats)
        return chats, rows

    with extraction_paused(service):
        chats, rows = service.write(op)
    for chat_id in chats:
        service.events.publish(ChatDeleted(chat_id))
    compact(service.store)
    return PurgeResult(chats, rows, before, database_size(service.store))
