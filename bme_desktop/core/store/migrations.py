"""Schema versions. A fresh database is created from ``tables.py`` and stamped with the
latest version; an older one is brought forward step by step inside one transaction. A
database written by a newer version of the app is refused, never downgraded."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import Column, Connection, Engine, inspect, select, text

from ..errors import StoreError
from ..scopes import identity_key
from . import tables
from .locks import SCHEMA_KEY, lock_in_transaction

SCHEMA_VERSION = 3
APP_ID = "bme-desktop"


def _v2_audit_log(conn: Connection) -> None:
    """v2: a log of who changed what (review centre, manual edits, upkeep)."""
    tables.audit_log.create(conn)


def _v3_scopes(conn: Connection) -> None:
    """v3: memory beyond one chat. Each memory has a scope kind (every existing one stays
    ``chat``: nothing is shared that was not before); each chat says who is who."""
    for column in (
        tables.chats.c.character_id,
        tables.chats.c.persona_id,
        tables.chats.c.character_key,
        tables.chats.c.persona_key,
        tables.chats.c.world,
        tables.chats.c.isolated,
    ):
        _add_column(conn, "chats", column)
    _add_column(conn, "nodes", tables.nodes.c.scope_kind)
    for index in tables.chats.indexes | tables.nodes.indexes:
        if index.name in ("ix_chats_character_key", "ix_chats_persona_key", "ix_nodes_scope_kind"):
            index.create(conn)
    # Names only so far: the folded name is the key (the same rule as ``scopes.identity_key``).
    rows = conn.execute(select(tables.chats.c.pk, tables.chats.c.character, tables.chats.c.user_name)).all()
    for pk, character, user in rows:
        conn.execute(
            tables.chats.update()
            .where(tables.chats.c.pk == pk)
            .values(character_key=identity_key(None, character), persona_key=identity_key(None, user))
        )


def _add_column(conn: Connection, table: str, column: Column[Any]) -> None:
    kind = column.type.compile(dialect=conn.dialect)
    default = column.server_default
    clause = ""
    if default is not None:
        arg = default.arg  # type: ignore[attr-defined]
        value = arg if isinstance(arg, str) else str(arg.compile(dialect=conn.dialect))
        clause = f" DEFAULT {value if not isinstance(arg, str) else repr(arg)}"
    null = "" if column.nullable else " NOT NULL"
    conn.execute(text(f"ALTER TABLE {table} ADD COLUMN {column.name} {kind}{clause}{null}"))


# Step N takes a database from version N-1 to N. Never edit a step once released.
STEPS: dict[int, Callable[[Connection], None]] = {
    2: _v2_audit_log,
    3: _v3_scopes,
}


def read_version(conn: Connection) -> int | None:
    """The schema version stored in the database, or None for an empty database."""
    names = set(inspect(conn).get_table_names())
    if not names:
        return None
    if "meta" not in names:
        raise StoreError("the database holds tables but is not a BME Desktop database; it was left untouched")
    rows = dict(conn.execute(select(tables.meta.c.key, tables.meta.c.value)).all())
    if rows.get("app") != APP_ID:
        raise StoreError("the database is not a BME Desktop database; it was left untouched")
    try:
        return int(rows["schema_version"])
    except (KeyError, ValueError) as exc:
        raise StoreError("the database has no readable schema version; it was left untouched") from exc


def _stamp(conn: Connection, version: int) -> None:
    conn.execute(tables.meta.delete().where(tables.meta.c.key.in_(["app", "schema_version"])))
    conn.execute(
        tables.meta.insert(),
        [{"key": "app", "value": APP_ID}, {"key": "schema_version", "value": str(version)}],
    )


def refuse_unknown_version(conn: Connection, where: str) -> None:
    """Raise if the database is not ours or was written by a newer version of the app."""
    version = read_version(conn)
    if version is not None and version > SCHEMA_VERSION:
        raise StoreError(
            f"{where} was written by a newer BME Desktop (schema v{version}; this version knows up to "
            f"v{SCHEMA_VERSION}). It was left untouched: update the app to open it."
        )


def migrate(engine: Engine, where: str) -> int:
    """Create or upgrade the schema; returns the version now in force. Instances starting at
    once on one PostgreSQL database take turns: the first creates or upgrades, the others
    then find it done."""
    with engine.begin() as conn:
        lock_in_transaction(conn, SCHEMA_KEY)
        version = read_version(conn)
        if version is None:
            tables.metadata.create_all(conn)
            _stamp(conn, SCHEMA_VERSION)
            return SCHEMA_VERSION
        refuse_unknown_version(conn, where)
        for step in range(version + 1, SCHEMA_VERSION + 1):
            STEPS[step](conn)
        if version != SCHEMA_VERSION:
            _stamp(conn, SCHEMA_VERSION)
        return SCHEMA_VERSION
