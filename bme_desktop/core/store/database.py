"""Opening the database: a SQLite file in WAL mode by default, or any SQLAlchemy URL."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError
from sqlalchemy.pool import NullPool

from ..errors import StoreError as StoreError  # re-exported: raised here, caught by callers
from ..paths import create_private_file, ensure_private_dir

DB_FILENAME = "memory.db"


def sqlite_url(data_dir: Path) -> str:
    return f"sqlite:///{(data_dir / DB_FILENAME).resolve()}"


def _check_sqlite_file(path: Path) -> None:
    parent = path.parent
    if not parent.exists():
        try:
            ensure_private_dir(parent)
        except OSError as exc:
            raise StoreError(f"cannot create the data folder {parent}: {exc.strerror}") from exc
    if not os.access(parent, os.W_OK | os.X_OK):
        raise StoreError(f"the data folder {parent} is not writable; choose another with --data-dir")
    if path.exists():
        if not os.access(path, os.R_OK | os.W_OK):
            raise StoreError(f"the database {path} is not readable and writable by this user")
        with path.open("rb") as fh:
            head = fh.read(16)
        if not head:
            raise StoreError(
                f"the database {path} is empty (0 bytes): it was probably truncated (a crash, a full "
                "disk or an interrupted copy); it was left untouched. Restore it from a backup, "
                "or move it away to start an empty memory"
            )
        if head != b"SQLite format 3\x00":
            raise StoreError(f"{path} is not a SQLite database; it was left untouched")


def check_existing_sqlite(database: str, check: Callable[[Connection], None]) -> None:
    """Run ``check`` on an existing SQLite file opened read-only, so a file we must refuse
    is never modified (not even its header)."""
    path = Path(database)
    if not path.is_file():
        return
    _check_sqlite_file(path)
    engine = create_engine(f"sqlite:///file:{path.resolve()}?mode=ro&uri=true", poolclass=NullPool)
    try:
        with engine.connect() as conn:
            check(conn)
    except DBAPIError as exc:
        raise StoreError(f"cannot read the database {path}: {exc.orig}") from exc
    finally:
        engine.dispose()


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.close()


def create_store_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite files get WAL, foreign keys and a busy timeout."""
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise StoreError(f"not a database URL: {url!r}") from exc
    try:
        if parsed.get_backend_name() == "sqlite":
            database = parsed.database or ""
            if database in ("", ":memory:"):
                raise StoreError("an in-memory SQLite database cannot be shared between threads; use a file")
            _check_sqlite_file(Path(database))
            try:  # 0600 before SQLite opens it: its -wal and -shm files take the same mode
                create_private_file(Path(database))
            except OSError as exc:
                raise StoreError(f"cannot create the database {database}: {exc.strerror or exc}") from exc
            # A pool keeps connections open: closing the last connection to a WAL database
            # checkpoints and deletes the WAL file, which made every write cost ~20 ms.
            engine = create_engine(
                url, pool_size=4, max_overflow=8, connect_args={"check_same_thread": False, "timeout": 10.0}
            )
            event.listen(engine, "connect", _sqlite_pragmas)
        else:
            engine = create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=5)
    except NoSuchModuleError as exc:
        raise StoreError(f"no database driver for {parsed.drivername!r} is installed") from exc
    try:
        with engine.connect():
            pass
    except (DBAPIError, sqlite3.DatabaseError) as exc:
        engine.dispose()
        where = parsed.database if parsed.get_backend_name() == "sqlite" else parsed.render_as_string()
        raise StoreError(
            f"cannot open the database {where}: {exc.orig if isinstance(exc, DBAPIError) else exc}"
        ) from exc
    return engine
