"""Scheduled backups: off by default, encrypted or skipped (never silently plain), inside the
data folder, keeping the newest N of ours and nothing else touched."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from backup_sample import fill_chat

from bme_desktop.core.backup.files import read_backup
from bme_desktop.core.backup.schedule import backup_status, run_scheduled_backup
from bme_desktop.core.clock import ManualClock
from bme_desktop.core.service import MemoryService
from bme_desktop.core.settings import BackupSettings, Settings, SettingsError


class FakeKeyring:
    priority = 5.0

    def __init__(self, secrets: dict[str, str]) -> None:
        self.secrets = secrets

    def get_password(self, service: str, name: str) -> str | None:
        return self.secrets.get(f"{service}/{name}")


NO_KEYRING = FakeKeyring({})


def open_service(tmp_path: Path, clock: ManualClock, **backup: object) -> MemoryService:
    settings = Settings(backup=dataclasses.replace(BackupSettings(), **backup))  # type: ignore[arg-type]
    service = MemoryService.open(tmp_path / "data", clock=clock, settings=settings, attach=False)
    fill_chat(service)
    return service


def test_off_by_default(tmp_path: Path, clock: ManualClock) -> None:
    service = open_service(tmp_path, clock)
    try:
        assert run_scheduled_backup(service, keyring_backend=NO_KEYRING) == "off"
        assert not (tmp_path / "data" / "backups").exists()
    finally:
        service.close()


def test_encryption_without_a_passphrase_skips_and_says_so(
    tmp_path: Path, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("BME_BACKUP_PASSPHRASE", raising=False)
    service = open_service(tmp_path, clock, scheduled=True)
    try:
        assert run_scheduled_backup(service, keyring_backend=NO_KEYRING) == "skipped"
        assert not (tmp_path / "data" / "backups").exists()
        status = backup_status(tmp_path / "data", service.settings.backup, service.now())
        assert status.outcome == "skipped" and "no passphrase" in status.message and status.last is None
    finally:
        service.close()


def test_the_passphrase_comes_from_the_keyring_and_the_newest_n_are_kept(
    tmp_path: Path, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("BME_BACKUP_PASSPHRASE", raising=False)
    keyring = FakeKeyring({"bme-desktop/backup-passphrase": "from the keyring"})
    service = open_service(tmp_path, clock, scheduled=True, keep=1, interval_hours=24.0)
    folder = tmp_path / "data" / "backups"
    folder.mkdir()
    (folder / "my-notes.txt").write_text("mine")
    try:
        for _ in range(2):
            assert run_scheduled_backup(service, keyring_backend=keyring) == "written"
            assert run_scheduled_backup(service, keyring_backend=keyring) == "not due"
            clock.advance(25 * 3600)
        names = sorted(p.name for p in folder.iterdir())
        assert len(names) == 2 and "my-notes.txt" in names
        newest = folder / max(n for n in names if n.endswith(".bmebak"))
        assert read_backup(newest.read_bytes(), "from the keyring")[0].chat_id == "story-1"
        status = backup_status(tmp_path / "data", service.settings.backup, service.now())
        assert status.outcome == "written" and status.last is not None
        assert status.next == pytest.approx(max(service.now(), status.last + 24 * 3600))
    finally:
        service.close()


def test_a_folder_that_links_outside_the_data_folder_is_refused(
    tmp_path: Path, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BME_BACKUP_PASSPHRASE", "env passphrase")
    service = open_service(tmp_path, clock, scheduled=True, folder="out")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "data" / "out").symlink_to(tmp_path / "elsewhere")
    try:
        assert run_scheduled_backup(service, keyring_backend=NO_KEYRING) == "failed"
        assert list((tmp_path / "elsewhere").iterdir()) == []
        assert (
            "not inside the data folder"
            in backup_status(tmp_path / "data", service.settings.backup, 0).message
        )
    finally:
        service.close()


@pytest.mark.parametrize("folder", ["../backups", "/tmp/backups", "a/../../b", "", "C:/x"])
def test_a_folder_setting_outside_the_data_folder_is_refused(folder: str) -> None:
    with pytest.raises(SettingsError, match="inside the data folder"):
        BackupSettings(folder=folder)


def test_the_life_cycle_worker_of_the_app_and_serve_runs_the_scheduled_backup(
    tmp_path: Path, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bme_desktop.core.lifecycle.worker import FIRST_UPKEEP_DELAY_S, LifecycleWorker

    monkeypatch.setenv("BME_BACKUP_PASSPHRASE", "env passphrase")
    service = open_service(tmp_path, clock, scheduled=True)
    service.settings.lifecycle.upkeep_interval_minutes = 0.0  # only the backup is under test
    now = [0.0]
    worker = LifecycleWorker(service, monotonic=lambda: now[0])  # not started: ticks by hand
    try:
        worker.run_scheduled()
        assert not (tmp_path / "data" / "backups").exists()  # not before the first delay
        now[0] = FIRST_UPKEEP_DELAY_S + 1
        worker.run_scheduled()
        (written,) = (tmp_path / "data" / "backups").iterdir()
        assert written.suffix == ".bmebak"
    finally:
        worker.stop(wait=False)
        service.close()
