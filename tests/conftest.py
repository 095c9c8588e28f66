"""Suite-wide isolation: tests never touch the user's real keyring, data or settings."""

from __future__ import annotations

import os
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

# Set before anything imports keyring or Qt.
os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# the built e5 graph is cached once for the session (module-scoped fixtures run before the
# per-test environment below), never in the user's cache folder
os.environ["BME_CACHE_DIR"] = tempfile.mkdtemp(prefix="bme-test-cache-")

POSTGRES_URL = os.environ.get("BME_TEST_POSTGRES_URL")


@pytest.fixture(autouse=True)
def _isolated_environment(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("BME_DATA_DIR", str(home / "bme-data"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.delenv("BME_BRIDGE_TOKEN", raising=False)


def _postgres_database() -> Iterator[str]:
    """A fresh PostgreSQL database for one test, dropped afterwards."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    assert POSTGRES_URL is not None
    admin = create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
    name = f"bme_test_{uuid.uuid4().hex[:12]}"
    with admin.connect() as conn:  # fails loudly when the server named by the URL is down
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(POSTGRES_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Each store test runs on SQLite and, where BME_TEST_POSTGRES_URL is set (CI), PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'memory.db'}"
        return
    if POSTGRES_URL is None:
        pytest.skip("BME_TEST_POSTGRES_URL is not set (CI sets it and starts PostgreSQL)")
    yield from _postgres_database()


@pytest.fixture
def hashed_recaller(service: object) -> Iterator[object]:
    """The hybrid recaller attached to the test's ``service``, embedding with the
    dependency-free hashed n-gram embedder (64 dimensions) as the app makes it (queries are
    embedded too: the bare ``HashedNgramEmbedder`` has no ``embed_query``, so every recall
    skipped its vector stage); its vector worker stops after."""
    from bme_desktop.core.providers.local_embedder import make_local_embedder
    from bme_desktop.core.recall.pipeline import attach

    attached = attach(service, lambda: make_local_embedder("hashed-ngram-64"))  # type: ignore[arg-type]
    yield attached
    assert attached.vectors is not None
    attached.vectors.stop()
