"""Schema versions: fresh databases, upgrades from v1, and refusals that change nothing."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text

from bme_desktop.core.service import MemoryService
from bme_desktop.core.store import tables
from bme_desktop.core.store.database import StoreError
from bme_desktop.core.store.migrations import SCHEMA_VERSION
from bme_desktop.core.store.store import Store

FIXTURES = Path(__file__).parent / "fixtures"


def columns_by_table(url: str) -> dict[str, set[str]]:
    engine = create_engine(url)
    try:
        insp = inspect(engine)
        return {name: {c["name"] for c in insp.get_columns(name)} for name in insp.get_table_names()}
    finally:
        engine.dispose()


def make_v1_database(path: Path) -> None:
    con = sqlite3.connect(path)
    con.executescript((FIXTURES / "schema_v1.sql").read_text())
    con.close()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_fresh_database_is_stamped_with_the_latest_version(database_url: str) -> None:
    store = Store(database_url)
    try:
        assert store.schema_version == SCHEMA_VERSION
        with store.engine.connect() as conn:
            version = conn.execute(text("SELECT value FROM meta WHERE key = 'schema_version'")).scalar()
        assert version == str(SCHEMA_VERSION)
    finally:
        store.close()


def test_fresh_database_has_exactly_the_declared_tables(database_url: str) -> None:
    Store(database_url).close()
    declared = {name: {c.name for c in table.columns} for name, table in tables.metadata.tables.items()}
    assert columns_by_table(database_url) == declared


def test_v1_database_upgrades_to_the_current_shape_keeping_its_data(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    make_v1_database(db)
    url = f"sqlite:///{db}"
    service = MemoryService(Store(url))
    try:
        assert service.store.schema_version == SCHEMA_VERSION
        assert service.get_node("old-chat", "n1").title == "Sera"
        assert [m.text for m in service.messages("old-chat")] == ["hello"]
    finally:
        service.close()
    fresh = tmp_path / "fresh.db"
    Store(f"sqlite:///{fresh}").close()
    assert columns_by_table(url) == columns_by_table(f"sqlite:///{fresh}")


def test_database_from_a_newer_app_is_refused_and_untouched(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    make_v1_database(db)
    con = sqlite3.connect(db)
    con.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    con.commit()
    con.close()
    before = digest(db)
    with pytest.raises(StoreError, match="newer BME Desktop"):
        Store(f"sqlite:///{db}")
    assert digest(db) == before


def test_a_file_that_is_not_a_database_is_refused_and_untouched(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    db.write_bytes(b"this is my diary, not a database" * 10)
    before = digest(db)
    with pytest.raises(StoreError, match="not a SQLite database"):
        Store(f"sqlite:///{db}")
    assert digest(db) == before


def test_an_empty_database_file_is_refused_as_probably_truncated(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    db.write_bytes(b"")
    with pytest.raises(StoreError, match=r"is empty \(0 bytes\): it was probably truncated"):
        Store(f"sqlite:///{db}")
    assert db.read_bytes() == b"" and sorted(p.name for p in tmp_path.iterdir()) == ["memory.db"]


def test_a_foreign_sqlite_database_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE recipes (name TEXT)")
    con.commit()
    con.close()
    with pytest.raises(StoreError, match="not a BME Desktop database"):
        Store(f"sqlite:///{db}")


def test_a_read_only_data_folder_gives_a_clear_error(tmp_path: Path) -> None:
    import os

    if os.geteuid() == 0:
        pytest.skip("root can write anywhere; the permission check cannot be observed")
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(StoreError, match="not writable"):
            Store(f"sqlite:///{folder / 'memory.db'}")
    finally:
        folder.chmod(0o700)


def test_a_data_folder_that_cannot_be_created_gives_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError, match="cannot create the data folder"):
        Store(f"sqlite:///{blocker / 'sub' / 'memory.db'}")


def test_sqlite_runs_in_wal_mode(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'memory.db'}")
    try:
        with store.engine.connect() as conn:
            assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
    finally:
        store.close()


def test_an_unknown_url_scheme_is_a_clear_error() -> None:
    with pytest.raises(StoreError):
        Store("nosuchdb://x/y")
