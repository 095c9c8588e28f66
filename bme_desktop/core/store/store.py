"""The store: an engine with a migrated schema, handing out readers and units of work."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Engine
from sqlalchemy.engine import make_url

from .database import check_existing_sqlite, create_store_engine
from .migrations import migrate, refuse_unknown_version
from .notify import payloads, send
from .reader import Reader
from .unit_of_work import UnitOfWork


class Store:
    def __init__(self, url: str) -> None:
        self.url = url
        parsed = make_url(url)
        self.backend = parsed.get_backend_name()
        self.display_url = parsed.render_as_string(hide_password=True)
        # Names this process's writes in the notifications other instances receive (notify.py).
        self.instance_id = uuid.uuid4().hex
        where = parsed.database if self.backend == "sqlite" else self.display_url
        if self.backend == "sqlite":
            # Look before touching: opening in WAL mode rewrites the file header.
            check_existing_sqlite(str(parsed.database), lambda conn: refuse_unknown_version(conn, str(where)))
        self.engine: Engine = create_store_engine(url)
        try:
            self.schema_version = migrate(self.engine, str(where))
        except Exception:
            self.engine.dispose()
            raise

    @contextmanager
    def read(self) -> Iterator[Reader]:
        with self.engine.connect() as conn:
            yield Reader(conn)

    @contextmanager
    def write(self, now: float) -> Iterator[UnitOfWork]:
        """One transaction: committed when the block ends, rolled back if it raises. On
        PostgreSQL its last statements tell the other instances what it changed."""
        with self.engine.begin() as conn:
            uow = UnitOfWork(conn, now)
            yield uow
            if self.backend == "postgresql":
                send(
                    conn,
                    payloads(
                        self.instance_id,
                        [c for c in uow.changes.values() if not c.empty],
                        uow.synced,
                        uow.deleted,
                        uow.vectors_saved,
                    ),
                )

    def close(self) -> None:
        self.engine.dispose()
