"""Backups written and read as a stream, one chat at a time: the bound is per chat, not per
file, and hostile files are still refused before anything is written."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from backup_sample import fill_chat
from chain_helpers import state

from bme_desktop.core import editing
from bme_desktop.core.backup.crypto import KdfParams
from bme_desktop.core.backup.export import dumps, export_document, write_document
from bme_desktop.core.backup.files import (
    read_backup,
    seal,
    write_backup_file,
    write_full_backup,
    write_incremental_backup,
)
from bme_desktop.core.backup.format import BackupError
from bme_desktop.core.backup.importer import import_chats
from bme_desktop.core.backup.stream import iter_document, open_backup, open_chain
from bme_desktop.core.clock import ManualClock
from bme_desktop.core.service import MemoryService

FAST = KdfParams(log2_n=12)
SECRET = "correct horse battery"


def snapshot(service: MemoryService) -> str:
    return dumps(service.read(lambda r: export_document(r, now=0.0)))


def restored(service: MemoryService) -> str:
    """The snapshot as an import gives it back: undo history does not travel (manual
    batches come back discarded)."""
    doc = service.read(lambda r: export_document(r, now=0.0))
    for chat in doc["chats"]:
        for batch in chat["batches"]:
            if batch["kind"] == "manual" and batch["status"] in ("applied", "undone"):
                batch["status"] = "discarded"
    return dumps(doc)


@pytest.fixture
def three(filled: MemoryService) -> MemoryService:
    """The sample chat three times over (story-1, story-2, story-3)."""
    fill_chat(filled, "story-2")
    fill_chat(filled, "story-3")
    return filled


@pytest.fixture
def empty(tmp_path: Path, clock: ManualClock) -> MemoryService:
    svc = MemoryService.open(tmp_path / "empty", clock=clock, attach=False)
    yield svc  # type: ignore[misc]
    svc.close()


def largest_chat(service: MemoryService) -> int:
    doc = service.read(lambda r: export_document(r, now=0.0))
    texts = [json.dumps(c, ensure_ascii=False, sort_keys=True, indent=1) for c in doc["chats"]]
    return max(len(text) + 2 * text.count("\n") for text in texts)  # indented two more in the file


def test_the_streamed_export_is_the_same_bytes_as_the_whole_document(three: MemoryService) -> None:
    out: list[bytes] = []
    three.read(lambda r: write_document(r, out.append, now=5.0))
    assert b"".join(out) == dumps(three.read(lambda r: export_document(r, now=5.0))).encode()


@pytest.mark.parametrize("passphrase", [None, SECRET])
def test_a_backup_larger_than_the_bound_restores_exactly_chat_by_chat(
    three: MemoryService, empty: MemoryService, tmp_path: Path, passphrase: str | None
) -> None:
    path = tmp_path / "all.bak"
    written = write_backup_file(three, path, passphrase, params=FAST)
    bound = largest_chat(three) + 16
    unpacked = len(snapshot(three).encode())
    assert unpacked > 2 * bound  # the whole document is over the bound; no chat is
    backup = open_backup(path, passphrase, bound=bound, keep=0)  # kept nothing: the import reads it again
    assert (
        backup.kept is None
        and backup.chat_ids == ["story-1", "story-2", "story-3"]
        and written.size == path.stat().st_size
    )
    import_chats(empty, backup, mode="new")
    assert snapshot(empty) == restored(three)


def test_a_chat_over_the_bound_is_refused_by_name_and_nothing_is_written(
    three: MemoryService, empty: MemoryService, tmp_path: Path
) -> None:
    path = tmp_path / "all.json.gz"
    write_backup_file(three, path, None)
    before = snapshot(empty)
    with pytest.raises(BackupError, match=r"^chats\[0\]: is larger than"):
        import_chats(empty, open_backup(path, None, bound=largest_chat(three) // 2), mode="new")
    assert snapshot(empty) == before


@pytest.mark.parametrize("cut", [0.3, 0.9])
def test_a_truncated_backup_is_refused(three: MemoryService, tmp_path: Path, cut: float) -> None:
    path = tmp_path / "all.json.gz"
    write_backup_file(three, path, None)
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * cut)])
    with pytest.raises(BackupError, match=r"cut short|not valid JSON|not valid gzip"):
        open_backup(path, None)


def test_a_flipped_byte_in_an_encrypted_backup_is_refused_before_the_import(
    three: MemoryService, empty: MemoryService, tmp_path: Path
) -> None:
    path = tmp_path / "all.bmebak"
    write_backup_file(three, path, SECRET, params=FAST)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))
    with pytest.raises(BackupError, match="altered"):
        open_backup(path, SECRET)


def test_a_file_altered_after_validation_rolls_the_import_back(
    three: MemoryService, empty: MemoryService, tmp_path: Path
) -> None:
    """Decrypted text is used before the GCM tag (at the end) is checked: the import's own
    pass fails at the end and its one transaction leaves nothing."""
    path = tmp_path / "all.bmebak"
    write_backup_file(three, path, SECRET, params=FAST)
    backup = open_backup(path, SECRET, keep=0)
    data = bytearray(path.read_bytes())
    data[-1] ^= 0x01  # the tag: every chat decrypts, the check at the end fails
    path.write_bytes(bytes(data))
    before = snapshot(empty)
    with pytest.raises(BackupError, match="altered"):
        import_chats(empty, backup, mode="new")
    assert snapshot(empty) == before


def test_malformed_json_in_the_middle_is_refused_with_its_line(three: MemoryService, tmp_path: Path) -> None:
    text = snapshot(three)
    lines = text.split("\n")
    middle = next(i for i in range(len(lines) // 2, len(lines)) if lines[i].strip().startswith('"title"'))
    lines[middle] = lines[middle].replace('"title":', '"title"', 1)
    path = tmp_path / "broken.json"
    path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(BackupError, match=rf"not valid JSON: line {middle + 1} column"):
        open_backup(path, None)


@pytest.mark.parametrize("size", [1, 3, 7, 64])
def test_any_chunking_gives_the_same_members(size: int) -> None:
    doc = {
        "app_version": "0.1",
        "chats": [{"a": [1.5, -20, "北\\ud800"]}, {"b": {"c": 12345678}}],
        "exported_at": 1234567.25,
        "format": "x",
        "format_version": 1,
    }
    raw = json.dumps(doc, ensure_ascii=False, indent=1).encode()
    events = list(iter_document(iter([raw[i : i + size] for i in range(0, len(raw), size)])))
    assert events == [
        ("app_version", "0.1"),
        ("chats[", None),
        ("chat", {"a": [1.5, -20, "北\\ud800"]}),
        ("chat", {"b": {"c": 12345678}}),
        ("exported_at", 1234567.25),
        ("format", "x"),
        ("format_version", 1),
    ]


def test_a_backup_written_whole_by_an_older_version_still_restores(
    three: MemoryService, empty: MemoryService, tmp_path: Path
) -> None:
    path = tmp_path / "old.bmebak"
    path.write_bytes(seal(snapshot(three).encode(), SECRET, FAST))  # one AES-GCM call over the whole text
    import_chats(empty, open_backup(path, SECRET, keep=0), mode="new")
    assert snapshot(empty) == restored(three)


def test_a_streamed_backup_reads_back_whole_too(three: MemoryService, tmp_path: Path) -> None:
    path = tmp_path / "new.json.gz"
    write_backup_file(three, path, None)
    assert [c.chat_id for c in read_backup(path.read_bytes(), None)] == ["story-1", "story-2", "story-3"]
    assert gzip.decompress(path.read_bytes()).decode().startswith('{\n "app_version"')


def test_a_chain_whose_full_backup_is_larger_than_the_bound_restores_exactly(
    three: MemoryService, empty: MemoryService, tmp_path: Path, clock: ManualClock
) -> None:
    data_dir = three.data_dir
    assert data_dir is not None
    files = [write_full_backup(three, tmp_path / "full.json.gz", None, data_dir=data_dir)]
    clock.advance(60)
    three.delete_chat("story-2")
    fill_chat(three, "story-4")  # added by the increment, after the full backup's chats
    three.create_node("story-3", editing.NodeDraft("location", {"name": "Harbour"}))
    files.append(write_incremental_backup(three, None, data_dir=data_dir, path=tmp_path / "i1.json.gz").path)
    fill_chat(empty, "story-2")
    bound = largest_chat(three) + 16
    assert len(gzip.decompress(files[0].read_bytes())) > 2 * bound
    chain = open_chain(files, None, bound=bound)
    assert chain.chat_ids == ["story-1", "story-3", "story-4"] and chain.deleted_chats == ["story-2"]
    import_chats(empty, chain, mode="replace", delete=chain.deleted_chats)
    assert state(empty) == state(three)


def test_a_small_backup_is_validated_once_and_kept(three: MemoryService, tmp_path: Path) -> None:
    path = tmp_path / "all.json.gz"
    write_backup_file(three, path, None)
    backup = open_backup(path, None)
    path.unlink()  # not read again
    assert [c.chat_id for c in backup] == ["story-1", "story-2", "story-3"]
