"""Scheduled backups as the app and ``serve`` run them (settings section ``backup``).

Off by default. When on, a full backup is written into the backup folder (inside the data
folder, never outside it) once ``interval_hours`` have passed since the newest one there,
and then only the newest ``keep`` of ours are kept (files of other names are never
touched). The passphrase comes only from the environment variable the settings name or,
failing that, from the OS keyring (secret ``backup-passphrase``); with ``encrypt`` on and no
passphrase the backup is *skipped* and the status says so — never written as plain text.

The outcome of the last attempt is kept in ``backup-status.json`` in the data folder, so
the Actions panel and ``doctor`` can show the last backup and the next one.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..settings import BACKUP_PASSPHRASE_KEY, BackupSettings
from .fileio import write_atomically
from .files import last_backup, scheduled_backup
from .format import BackupError
from .retention import RetentionPolicy

if TYPE_CHECKING:
    from ..ports import Backups

log = logging.getLogger(__name__)
STATUS_FILE = "backup-status.json"


def backup_folder(data_dir: Path, settings: BackupSettings) -> Path:
    """The backup folder, refused when it resolves (through ``..`` or a link) outside the data folder."""
    root = data_dir.resolve()
    folder = (root / settings.folder).resolve()
    if folder == root or not folder.is_relative_to(root):
        raise BackupError("", f"the backup folder {settings.folder!r} is not inside the data folder {root}")
    return folder


def backup_passphrase(settings: BackupSettings, keyring_backend: Any | None = None) -> tuple[str | None, str]:
    """The passphrase and where it came from ("env", "keyring" or "none")."""
    if settings.passphrase_env and os.environ.get(settings.passphrase_env):
        return os.environ[settings.passphrase_env], "env"
    from ..secrets import KEYRING_SERVICE, usable_keyring

    backend = usable_keyring(keyring_backend)
    if backend is not None:
        try:
            value = backend.get_password(KEYRING_SERVICE, BACKUP_PASSPHRASE_KEY)
        except Exception:  # a locked or broken keyring: no passphrase
            value = None
        if value:
            return str(value), "keyring"
    return None, "none"


@dataclass
class BackupStatus:
    scheduled: bool
    last: float | None  # time of the newest full backup in the folder
    next: float | None  # when the next scheduled one is due (None: not scheduled)
    outcome: str  # "written" | "skipped" | "failed" | "" (never tried)
    message: str  # the last attempt's message (why it was skipped or failed)
    folder: str


def write_status(data_dir: Path, outcome: str, message: str, at: float) -> None:
    text = json.dumps({"outcome": outcome, "message": message, "at": at}, ensure_ascii=False)
    write_atomically(data_dir / STATUS_FILE, text.encode("utf-8"))


def backup_status(data_dir: Path, settings: BackupSettings, now: float) -> BackupStatus:
    try:
        folder: Path | None = backup_folder(data_dir, settings)
    except BackupError as exc:
        return BackupStatus(settings.scheduled, None, None, "failed", str(exc), settings.folder)
    assert folder is not None
    last = last_backup(folder) if folder.exists() else None
    last_ts = None if last is None else last.timestamp()
    outcome, message = "", ""
    try:
        raw = json.loads((data_dir / STATUS_FILE).read_text(encoding="utf-8"))
        outcome, message = str(raw.get("outcome", "")), str(raw.get("message", ""))
    except (OSError, ValueError, AttributeError):
        pass
    nxt = None
    if settings.scheduled:
        nxt = now if last_ts is None else max(now, last_ts + settings.interval_hours * 3600)
    return BackupStatus(settings.scheduled, last_ts, nxt, outcome, message, str(folder))


def run_scheduled_backup(service: Backups, *, keyring_backend: Any | None = None) -> str:
    """One scheduled-backup check: "off", "not due", "written", "skipped" or "failed"
    (the last three are also written to the status file)."""
    settings = service.settings.backup
    data_dir = service.data_dir
    if not settings.scheduled or data_dir is None:
        return "off"
    now = service.now()
    try:
        folder = backup_folder(data_dir, settings)
        previous = last_backup(folder) if folder.exists() else None
        interval = timedelta(hours=settings.interval_hours)
        if previous is not None and datetime.fromtimestamp(now, tz=UTC) - previous < interval:
            return "not due"
        passphrase: str | None = None
        if settings.encrypt:
            passphrase, _ = backup_passphrase(settings, keyring_backend)
            if passphrase is None:
                message = (
                    f"scheduled backup skipped: encryption is on but no passphrase is set "
                    f"(set ${settings.passphrase_env} or the keyring secret {BACKUP_PASSPHRASE_KEY!r})"
                )
                log.warning(message)
                write_status(data_dir, "skipped", message, now)
                return "skipped"
        run = scheduled_backup(
            service,
            data_dir,
            passphrase=passphrase,
            interval=interval,
            folder=folder,
            policy=RetentionPolicy(keep_last=settings.keep),
        )
    except (BackupError, OSError) as exc:
        log.warning("scheduled backup failed: %s", exc)
        write_status(data_dir, "failed", f"scheduled backup failed: {exc}", now)
        return "failed"
    if run.path is None:
        return "not due"
    note = "" if passphrase is not None else " (not encrypted: encryption is off in the settings)"
    write_status(data_dir, "written", f"{run.path.name}{note}", now)
    return "written"
