"""Purge everything: every chat deleted for good, then the database compacted."""

from __future__ import annotations

from pathlib import Path

from backup_sample import fill_chat
from sqlalchemy import func, select

from bme_desktop.core.backup.purge import purge_all
from bme_desktop.core.model import MessageIn
from bme_desktop.core.service import MemoryService
from bme_desktop.core.store import tables

# every table that holds memory (all but the settings and the schema's own record)
MEMORY_TABLES = [t for t in tables.metadata.sorted_tables if t.name not in ("meta", "settings")]


def test_purge_deletes_every_row_of_every_chat(service: MemoryService) -> None:
    fill_chat(service)
    fill_chat(service, "story-2")
    service.delete_node("story-2", service.all_nodes("story-2")[0].id)  # the recycle bin goes too
    result = purge_all(service)
    assert sorted(result.chats) == ["story-1", "story-2"] and result.rows > 20
    assert service.list_chats() == []
    counts = service.read(
        lambda r: [r.conn.execute(select(func.count()).select_from(t)).scalar_one() for t in MEMORY_TABLES]
    )
    assert counts == [0] * len(MEMORY_TABLES)
    fill_chat(service)  # the store still works
    assert [c.chat_id for c in service.list_chats()] == ["story-1"]


def test_purge_gives_the_space_back_on_sqlite(tmp_path: Path) -> None:
    service = MemoryService.open(tmp_path, attach=False)
    try:
        service.sync("long", [MessageIn(i, "user", f"{i} " + "words " * 200) for i in range(600)])
        result = purge_all(service)
        assert result.database_before > 500_000
        assert result.database_after < result.database_before / 4
    finally:
        service.close()
