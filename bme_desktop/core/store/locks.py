"""Serialising writers across processes that share one PostgreSQL database.

Several app instances may run on one PostgreSQL database (one memory shared between
machines). Within one instance every write already runs on the single writer thread; across
instances these advisory locks keep writes to one chat in order:

- **the chat lock** (transaction-level, ``pg_advisory_xact_lock``): a write transaction takes
  it the first time it names a chat (``UnitOfWork.lock_chat``, called by the unit of work's
  reader before any chat lookup), so it reads only what the previous writer of that chat
  committed, and holds it until it commits or rolls back;
- **the extraction claim** (session-level, on a connection of its own): one instance at a
  time reads, plans and commits a chat's extraction batches; the others wait for it and then
  find the batch already done;
- **the schema lock**: instances starting at once on an empty database create it once.

SQLite has one writer per file already: there all of these do nothing.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Connection, Engine, text
from sqlalchemy.exc import DBAPIError

log = logging.getLogger(__name__)

CLAIM_POLL_S = 0.05


def lock_key(namespace: str, name: str) -> int:
    """A signed 64-bit advisory-lock key for ``name`` within ``namespace``."""
    digest = hashlib.blake2b(
        name.encode("utf-8", "surrogatepass"), digest_size=8, person=namespace.encode()[:16]
    ).digest()
    return int.from_bytes(digest, "big", signed=True)


def chat_key(chat_id: str) -> int:
    return lock_key("bme-chat", chat_id)


SCHEMA_KEY = lock_key("bme-schema", "bme-desktop")


def is_postgres(conn: Connection) -> bool:
    return conn.dialect.name == "postgresql"


def lock_in_transaction(conn: Connection, key: int) -> None:
    """Wait for the advisory lock ``key``; it is released when the transaction ends."""
    if is_postgres(conn):
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})


@contextmanager
def extraction_claim(engine: Engine, chat_id: str, cancel: threading.Event | None = None) -> Iterator[bool]:
    """Hold the chat's extraction claim for the block (yields True); on SQLite, at once.

    Waits while another instance holds it; yields False without the claim if ``cancel`` is
    set meanwhile. The claim lives on a connection of its own, so it is released when the
    block ends, or when the process dies and its connection closes."""
    if engine.dialect.name != "postgresql":
        yield True
        return
    key = lock_key("bme-extract", chat_id)
    stopped = cancel or threading.Event()
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        while not conn.execute(text("SELECT pg_try_advisory_lock(:key)"), {"key": key}).scalar_one():
            if stopped.wait(CLAIM_POLL_S):  # another instance extracts this chat: wait for it
                yield False
                return
        try:
            yield True
        finally:
            try:
                conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": key})
            except DBAPIError:  # the connection is gone, and the claim with it
                log.warning("releasing the extraction claim of %r failed", chat_id, exc_info=True)
