"""export / import / backup / restore run as a user runs them: real subprocesses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from backup_sample import fill_chat

from bme_desktop.core.service import MemoryService


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bme_desktop", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    service = MemoryService.open(tmp_path / "data", attach=False)
    fill_chat(service)
    service.close()
    return tmp_path / "data"


def chat_ids(data_dir: Path) -> list[str]:
    service = MemoryService.open(data_dir, attach=False)
    try:
        return sorted(c.chat_id for c in service.list_chats())
    finally:
        service.close()


def test_export_then_import_as_a_new_chat_and_graphml(data_dir: Path, tmp_path: Path) -> None:
    out = cli("export", "--data-dir", str(data_dir), "--chat", "story-1", "-o", str(tmp_path / "e.json"))
    assert out.returncode == 0, out.stderr
    assert json.loads((tmp_path / "e.json").read_text("utf-8"))["format"] == "bme-desktop-export"
    out = cli("import", str(tmp_path / "e.json"), "--data-dir", str(data_dir), "--as", "copy")
    assert out.returncode == 0, out.stderr
    assert "5 memories, 3 edges, 3 messages" in out.stdout
    assert chat_ids(data_dir) == ["copy", "story-1"]
    out = cli("export", "--data-dir", str(data_dir), "--format", "graphml")
    assert out.returncode == 0, out.stderr
    assert len(ET.fromstring(out.stdout.encode()).findall(".//{*}node")) == 8


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"{oops", "not valid JSON"),
        (
            json.dumps(
                {"format": "bme-desktop-export", "format_version": 1, "chats": [{"chat_id": 5}]}
            ).encode(),
            "chats[0].chat_id: must be text",
        ),
    ],
)
def test_bad_import_file_is_one_line_exit_2_and_changes_nothing(
    data_dir: Path, tmp_path: Path, content: bytes, words: str
) -> None:
    (tmp_path / "bad.json").write_bytes(content)
    out = cli("import", str(tmp_path / "bad.json"), "--data-dir", str(data_dir), "--replace")
    assert out.returncode == 2
    assert len(out.stderr.strip().splitlines()) == 1 and words in out.stderr
    assert chat_ids(data_dir) == ["story-1"]


def test_an_import_file_with_a_lone_surrogate_is_imported_with_the_replacement(
    data_dir: Path, tmp_path: Path
) -> None:
    out = cli("export", "--data-dir", str(data_dir), "--chat", "story-1", "-o", str(tmp_path / "e.json"))
    assert out.returncode == 0, out.stderr
    text = (
        (tmp_path / "e.json")
        .read_text("utf-8")
        .replace("The castle gate is shut.", "The gate\\ud800 is shut.")
    )
    assert "\\ud800" in text
    (tmp_path / "e.json").write_text(text, "utf-8")
    out = cli("import", str(tmp_path / "e.json"), "--data-dir", str(data_dir), "--as", "copy")
    assert out.returncode == 0, out.stderr
    service = MemoryService.open(data_dir, attach=False)
    try:
        assert service.messages("copy", 1, 1)[0].text == "The gate\ufffd is shut."
    finally:
        service.close()


def test_encrypted_backup_and_restore(data_dir: Path, tmp_path: Path) -> None:
    env = {"BME_PASS": "a long passphrase", "WRONG": "another passphrase"}
    out = cli("backup", "--data-dir", str(data_dir), "--passphrase-env", "BME_PASS", env=env)
    assert out.returncode == 0, out.stderr
    path = Path(out.stdout.strip())
    assert path.parent == data_dir / "backups" and path.suffix == ".bmebak"
    assert b"story-1" not in path.read_bytes()
    fresh = tmp_path / "fresh"
    out = cli("restore", str(path), "--data-dir", str(fresh), "--passphrase-env", "WRONG", env=env)
    assert out.returncode == 2 and "wrong passphrase" in out.stderr
    out = cli("restore", str(path), "--data-dir", str(fresh), "--passphrase-env", "UNSET_VAR", env=env)
    assert out.returncode == 2 and "UNSET_VAR" in out.stderr
    assert not fresh.exists()  # nothing written, not even an empty database
    out = cli("restore", str(path), "--data-dir", str(fresh), "--passphrase-env", "BME_PASS", env=env)
    assert out.returncode == 0, out.stderr
    assert chat_ids(fresh) == ["story-1"]


def test_incremental_backups_on_the_command_line_restore_as_a_chain(data_dir: Path, tmp_path: Path) -> None:
    out = cli("backup", "--incremental", "--data-dir", str(data_dir))
    assert out.returncode == 2 and "no full backup to build on" in out.stderr
    full = cli("backup", "--data-dir", str(data_dir))
    assert full.returncode == 0, full.stderr
    service = MemoryService.open(data_dir, attach=False)
    fill_chat(service, "story-2")
    service.delete_chat("story-1")
    service.close()
    inc = cli("backup", "--incremental", "--data-dir", str(data_dir))
    assert inc.returncode == 0, inc.stderr
    assert "link 1:" in inc.stdout and Path(inc.stdout.split(" (")[0]).name.startswith("bme-incr-")
    files = [full.stdout.strip(), inc.stdout.split(" (")[0]]
    fresh = tmp_path / "fresh"
    out = cli("restore", files[1], files[0], "--data-dir", str(fresh))
    assert out.returncode == 2 and "a chain starts with a full backup" in out.stderr
    assert not fresh.exists()
    out = cli("restore", *files, "--data-dir", str(fresh))
    assert out.returncode == 0, out.stderr
    assert chat_ids(fresh) == ["story-2"]


def test_purge_needs_its_confirmation_then_prints_the_sizes(data_dir: Path) -> None:
    out = cli("purge", "--all", "--data-dir", str(data_dir))
    assert out.returncode == 2 and "--yes-purge" in out.stderr
    assert chat_ids(data_dir) == ["story-1"]
    out = cli("purge", "--all", "--yes-purge", "--data-dir", str(data_dir))
    assert out.returncode == 0, out.stderr
    assert "purged 1 chats" in out.stdout and "before," in out.stdout and "after" in out.stdout
    assert chat_ids(data_dir) == []


def test_import_previews_then_writes_and_replace_needs_its_confirmation(
    data_dir: Path, tmp_path: Path
) -> None:
    out = cli("export", "--data-dir", str(data_dir), "-o", str(tmp_path / "e.json"))
    assert out.returncode == 0, out.stderr
    out = cli("import", str(tmp_path / "e.json"), "--data-dir", str(data_dir), "--mode", "new", "--dry-run")
    assert out.returncode == 0, out.stderr
    assert "preview (new): 5 new, 0 updated" in out.stdout and "nothing was written" in out.stdout
    out = cli("import", str(tmp_path / "e.json"), "--data-dir", str(data_dir))  # skip: all here already
    assert out.returncode == 0, out.stderr
    assert "0 new, 0 updated, 5 skipped" in out.stdout and "nothing to import" in out.stdout
    out = cli("import", str(tmp_path / "e.json"), "--data-dir", str(data_dir), "--mode", "replace")
    assert out.returncode == 2 and "--yes-replace" in out.stderr
    out = cli(
        "import", str(tmp_path / "e.json"), "--data-dir", str(data_dir), "--mode", "replace", "--yes-replace"
    )
    assert out.returncode == 0, out.stderr
    assert chat_ids(data_dir) == ["story-1"]
