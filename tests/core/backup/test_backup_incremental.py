"""Incremental backups: a full backup and its increments restore the exact source state,
deletions included; a broken chain is refused with nothing written."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from backup_sample import CHAT, fill_chat
from chain_helpers import state

from bme_desktop.core import editing
from bme_desktop.core.backup.crypto import KdfParams
from bme_desktop.core.backup.files import restore_chain, write_full_backup, write_incremental_backup
from bme_desktop.core.backup.format import BackupError
from bme_desktop.core.backup.incremental import WATERMARK_FILE
from bme_desktop.core.clock import ManualClock
from bme_desktop.core.model import MessageIn
from bme_desktop.core.service import MemoryService

FAST = KdfParams(log2_n=10)


def edit_a_lot(service: MemoryService) -> None:
    """New, changed, recycled and hard-deleted records, a new chat and a deleted one."""
    nodes = {n.title: n for n in service.all_nodes(CHAT)}
    service.update_node(CHAT, nodes["Ann"].id, {"importance": 9.0})
    service.delete_node(CHAT, nodes["North castle"].id)  # to the recycle bin
    service.create_node(CHAT, editing.NodeDraft("location", {"name": "塔楼"}))
    service.delete_recall_record(CHAT, 2)  # a hard delete
    service.sync(CHAT, [MessageIn(3, "assistant", "The gate opens.")])
    fill_chat(service, "story-2")
    service.delete_chat("story-2")
    fill_chat(service, "story-3")


def test_a_chain_restores_the_source_exactly_with_deletions(
    tmp_path: Path, clock: ManualClock, database_url: str
) -> None:
    source = MemoryService.open(tmp_path / "src", clock=clock, attach=False)
    target = MemoryService.open(tmp_path / "dst", database_url=database_url, clock=clock, attach=False)
    try:
        fill_chat(source)
        fill_chat(source, "doomed")
        files = [
            write_full_backup(
                source, tmp_path / "full.bmebak", "passphrase!", data_dir=source.data_dir, params=FAST
            )
        ]
        clock.advance(60)
        edit_a_lot(source)
        source.delete_chat("doomed")
        files.append(
            write_incremental_backup(
                source, "passphrase!", data_dir=tmp_path / "src", path=tmp_path / "i1.bmebak", params=FAST
            ).path
        )
        clock.advance(60)
        unchanged = write_incremental_backup(
            source, "passphrase!", data_dir=tmp_path / "src", path=tmp_path / "i2.bmebak", params=FAST
        )
        assert (unchanged.changed, unchanged.deleted) == (0, 0)
        files.append(unchanged.path)
        fill_chat(target, "doomed")  # restoring the chain with replace deletes what the source deleted
        result = restore_chain(target, files, "passphrase!", mode="replace")
        assert result.deleted == ["doomed"]
        assert state(target) == state(source)
    finally:
        source.close()
        target.close()


def test_an_increment_holds_only_what_changed(filled: MemoryService, tmp_path: Path) -> None:
    data_dir = filled.data_dir
    assert data_dir is not None
    write_full_backup(filled, tmp_path / "full.json.gz", None, data_dir=data_dir)
    node = next(n for n in filled.all_nodes(CHAT) if n.title == "Ann")
    filled.update_node(CHAT, node.id, {"importance": 2.0})
    run = write_incremental_backup(filled, None, data_dir=data_dir, path=tmp_path / "i1.json.gz")
    doc = json.loads(gzip.decompress(run.path.read_bytes()))
    (chat,) = doc["chats"]
    assert [n["id"] for n in chat["upsert"]["nodes"]] == [node.id]
    assert set(chat["upsert"]) <= {"nodes", "batches"} and chat["delete"] == {}
    assert run.seq == 1 and doc["seq"] == 1


@pytest.fixture
def chain(filled: MemoryService, tmp_path: Path) -> list[Path]:
    data_dir = filled.data_dir
    assert data_dir is not None
    files = [write_full_backup(filled, tmp_path / "full.json.gz", None, data_dir=data_dir)]
    for i in range(1, 4):
        filled.create_node(CHAT, editing.NodeDraft("location", {"name": f"Room {i}"}))
        files.append(
            write_incremental_backup(filled, None, data_dir=data_dir, path=tmp_path / f"i{i}.json.gz").path
        )
    return files


@pytest.mark.parametrize(
    ("pick", "words"),
    [
        ([0, 1, 3], "link 3 of the chain, but link 2 is missing"),
        ([0, 2, 1, 3], "link 2 of the chain, but link 1 is missing"),
        ([0, 1, 1], "does not follow the file before it"),
        ([1, 2], "a chain starts with a full backup"),
    ],
)
def test_a_missing_or_reordered_link_is_refused_and_nothing_is_written(
    chain: list[Path], tmp_path: Path, pick: list[int], words: str
) -> None:
    target = MemoryService.open(tmp_path / "dst", attach=False)
    try:
        with pytest.raises(BackupError, match=words):
            restore_chain(target, [chain[i] for i in pick], None)
        assert target.list_chats() == []
    finally:
        target.close()


def test_a_link_of_another_chain_or_a_newer_version_is_refused(
    chain: list[Path], filled: MemoryService, tmp_path: Path
) -> None:
    assert filled.data_dir is not None
    other = write_full_backup(filled, tmp_path / "other.json.gz", None, data_dir=filled.data_dir)
    with pytest.raises(BackupError, match="belongs to another chain"):
        restore_chain(filled, [other, chain[1]], None)
    doc = json.loads(gzip.decompress(chain[1].read_bytes()))
    doc["format_version"] = 99
    newer = tmp_path / "newer.json.gz"
    newer.write_bytes(gzip.compress(json.dumps(doc).encode()))
    with pytest.raises(BackupError, match="newer BME Desktop"):
        restore_chain(filled, [chain[0], newer], None)


def test_an_incremental_backup_needs_a_full_one_first(filled: MemoryService) -> None:
    assert filled.data_dir is not None
    assert not (filled.data_dir / WATERMARK_FILE).exists()
    with pytest.raises(BackupError, match="no full backup to build on"):
        write_incremental_backup(filled, None, data_dir=filled.data_dir)
    assert not (filled.data_dir / "backups").exists()
