"""Retention keeps the newest backup of recent days and weeks; scheduled runs apply it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from backup_sample import fill_chat

from bme_desktop.core.backup.crypto import KdfParams
from bme_desktop.core.backup.files import read_backup, scheduled_backup
from bme_desktop.core.backup.retention import RetentionPolicy, backup_name, files_to_delete
from bme_desktop.core.clock import ManualClock
from bme_desktop.core.service import MemoryService


def name(day: int, hour: int = 3) -> str:
    return backup_name(datetime(2024, 1, day, hour, tzinfo=UTC), encrypted=True)


def test_keeps_the_newest_of_each_recent_day_and_week() -> None:
    # 2024-01-01 is a Monday: days 1-7 are ISO week 1, 8-14 week 2, 15-21 week 3.
    names = [name(d) for d in range(1, 22)] + [name(21, 1), name(20, 1)]
    doomed = files_to_delete(names, RetentionPolicy(keep_daily=3, keep_weekly=3))
    kept = sorted(set(names) - set(doomed))
    assert kept == sorted([name(19), name(20), name(21), name(14), name(7)])


def test_foreign_files_are_never_deleted_and_the_newest_is_always_kept() -> None:
    names = ["notes.txt", "bme-backup-garbage.bmebak", name(1), name(2)]
    assert files_to_delete(names, RetentionPolicy(keep_daily=0, keep_weekly=0)) == [name(1)]


def test_scheduled_backup_writes_when_due_and_prunes(tmp_path: Path) -> None:
    clock = ManualClock(datetime(2024, 1, 1, tzinfo=UTC).timestamp())
    service = MemoryService.open(tmp_path, clock=clock, attach=False)
    try:
        fill_chat(service)
        policy = RetentionPolicy(keep_daily=2, keep_weekly=0)
        paths = []
        for _ in range(4):
            run = scheduled_backup(
                service,
                tmp_path,
                passphrase="passphrase!",
                policy=policy,
                interval=timedelta(hours=20),
                params=KdfParams(log2_n=12),
            )
            assert run.path is not None
            paths.append(run.path)
            assert (
                scheduled_backup(service, tmp_path, passphrase=None, interval=timedelta(hours=20)).path
                is None
            )
            clock.advance(86400)
        folder = tmp_path / "backups"
        assert sorted(p.name for p in folder.iterdir()) == sorted(p.name for p in paths[-2:])
        chats = read_backup(paths[-1].read_bytes(), "passphrase!")
        assert [c.chat_id for c in chats] == ["story-1"] and len(chats[0].nodes) == 5
    finally:
        service.close()
