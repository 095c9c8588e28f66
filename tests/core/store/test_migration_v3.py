"""Schema v3 (memory beyond one chat): a v2 database, on SQLite and PostgreSQL, gains scope
kinds and chat identities; its memories stay the chat's own and its chats are keyed by name."""

from __future__ import annotations

from sqlalchemy import create_engine, inspect, text

from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.model import MessageIn
from bme_desktop.core.service import MemoryService
from bme_desktop.core.store.migrations import SCHEMA_VERSION
from bme_desktop.core.store.store import Store

V3_INDEXES = ("ix_chats_character_key", "ix_chats_persona_key", "ix_nodes_scope_kind")
V3_COLUMNS = {
    "chats": ("character_id", "persona_id", "character_key", "persona_key", "world", "isolated"),
    "nodes": ("scope_kind",),
}


def _back_to_v2(url: str) -> None:
    """What a v2 app wrote: the same tables without v3's columns and indexes."""
    engine = create_engine(url)
    with engine.begin() as conn:
        for name in V3_INDEXES:
            conn.execute(text(f"DROP INDEX {name}"))
        for table, columns in V3_COLUMNS.items():
            for column in columns:
                conn.execute(text(f"ALTER TABLE {table} DROP COLUMN {column}"))
        conn.execute(text("UPDATE meta SET value = '2' WHERE key = 'schema_version'"))
    engine.dispose()


def _shape(url: str) -> tuple[dict[str, set[str]], set[str]]:
    engine = create_engine(url)
    try:
        insp = inspect(engine)
        names = insp.get_table_names()
        return (
            {n: {c["name"] for c in insp.get_columns(n)} for n in names},
            {i["name"] for n in names for i in insp.get_indexes(n) if i["name"]},
        )
    finally:
        engine.dispose()


def test_a_v2_database_upgrades_keeping_every_memory_to_its_chat(database_url: str) -> None:
    service = MemoryService(Store(database_url))
    service.sync("old", [MessageIn(0, "user", "hello", name="Alex")], character="Mira", user="Alex")
    service.close()
    fresh_shape = _shape(database_url)
    _back_to_v2(database_url)
    assert _shape(database_url) != fresh_shape

    service = MemoryService(Store(database_url))
    try:
        assert service.store.schema_version == SCHEMA_VERSION == 3
        scope = service.read(lambda r: r.chat_scope("old"))
        assert (scope.character_key, scope.persona_key, scope.isolated) == ("name:mira", "name:alex", False)
        node = service.create_node(
            "old", NodeDraft(type="fact", fields={"statement": "Alex was born in May"})
        ).value
        assert node.scope.kind == "chat"
    finally:
        service.close()
    assert _shape(database_url) == fresh_shape
