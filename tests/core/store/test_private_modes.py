"""The memory is readable only by its user: with a permissive umask the data folder is created
0700 and the database files 0600 (POSIX), and ``doctor`` warns about looser modes."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from bme_desktop.core.model import MessageIn
from bme_desktop.core.paths import ensure_private_dir, loose_modes
from bme_desktop.core.secrets import write_private_file
from bme_desktop.core.service import MemoryService
from bme_desktop.core.store.database import DB_FILENAME
from bme_desktop.doctor import _permissions_line

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
DB_FILES = (DB_FILENAME, f"{DB_FILENAME}-wal", f"{DB_FILENAME}-shm")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(autouse=True)
def _permissive_umask() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def test_a_new_data_folder_and_database_are_private(tmp_path: Path) -> None:
    data = tmp_path / "parent" / "data"
    service = MemoryService.open(data, attach=False)
    try:
        service.sync("c", [MessageIn(0, "user", "my secret diary")], complete=True)
        assert all((data / name).exists() for name in DB_FILES)  # the pool keeps the WAL open
        assert mode(data) == 0o700
        assert {name: oct(mode(data / name)) for name in DB_FILES} == {name: "0o600" for name in DB_FILES}
    finally:
        service.close()
    assert mode(tmp_path / "parent") == 0o755  # only the data folder itself is ours
    assert loose_modes(data, DB_FILES) == []


def test_the_token_file_folder_is_private_too(tmp_path: Path) -> None:
    write_private_file(tmp_path / "data" / "bridge-token", "t")
    assert mode(tmp_path / "data") == 0o700 and mode(tmp_path / "data" / "bridge-token") == 0o600


def test_an_existing_folder_keeps_its_mode(tmp_path: Path) -> None:
    (tmp_path / "shared").mkdir(mode=0o750)
    os.chmod(tmp_path / "shared", 0o750)
    ensure_private_dir(tmp_path / "shared")
    assert mode(tmp_path / "shared") == 0o750


def test_doctor_warns_about_a_readable_folder_and_database(tmp_path: Path) -> None:
    data = tmp_path / "data"
    MemoryService.open(data, attach=False).close()
    assert _permissions_line(data) == "permissions:     private (data folder 0700, database files 0600)"
    os.chmod(data, 0o755)
    os.chmod(data / DB_FILENAME, 0o644)
    line = _permissions_line(data)
    assert line.startswith("permissions:     WARNING: other users can read your memory: ")
    assert (
        f"{data} is 0755 (should be 0700)" in line
        and f"{data / DB_FILENAME} is 0644 (should be 0600)" in line
    )
    assert f"chmod 700 {data}" in line
    assert _permissions_line(tmp_path / "nowhere").endswith("created readable only by you (0700)")
