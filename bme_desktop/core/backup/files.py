"""Backup files: write (encrypted or plain gzip), read back, restore, and scheduled runs
into ``<data_dir>/backups/`` with retention."""

from __future__ import annotations

import gzip
import os
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from .crypto import KdfParams, decrypt, encrypt, gunzip_bounded, is_encrypted
from .export import dumps, export_document
from .format import MAX_FILE_BYTES, BackupError
from .importer import ImportMode, ImportResult, import_chats
from .retention import RetentionPolicy, backup_name, backup_time, files_to_delete
from .validate import ChatDoc, load_document

if TYPE_CHECKING:
    from ..service import MemoryService

GZIP_MAGIC = b"\x1f\x8b"


def backup_bytes(service: MemoryService, passphrase: str | None, *, params: KdfParams | None = None) -> bytes:
    """All chats as one export document: encrypted with the passphrase, else plain gzip."""
    text = dumps(service.read(lambda r: export_document(r, now=service.now()))).encode("utf-8")
    if passphrase is None:
        return gzip.compress(text, mtime=0)
    return encrypt(text, passphrase, params)


def write_atomically(path: Path, data: bytes) -> None:
    """Write to a private temporary file next to ``path`` and rename it into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def read_backup(data: bytes, passphrase: str | None) -> list[ChatDoc]:
    """Validated chats of an encrypted backup, a gzip backup or a plain export document."""
    if len(data) > MAX_FILE_BYTES:
        raise BackupError("", f"the file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB")
    if is_encrypted(data):
        if passphrase is None:
            raise BackupError("", "this backup is encrypted; a passphrase is needed")
        data = decrypt(data, passphrase)
    elif data.startswith(GZIP_MAGIC):
        data = gunzip_bounded(data, MAX_FILE_BYTES)
    return load_document(data)


def read_file(path: Path) -> bytes:
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise BackupError("", f"{path} is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB")
        return path.read_bytes()
    except OSError as exc:
        raise BackupError("", f"cannot read {path}: {exc.strerror or exc}") from None


def restore(service: MemoryService, path: Path, passphrase: str | None, *,
            mode: ImportMode = "merge") -> ImportResult:
    """Decrypt (if needed), validate everything, then import in one transaction."""
    return import_chats(service, read_backup(read_file(path), passphrase), mode=mode)


@dataclass
class BackupRun:
    path: Path | None  # None: skipped (not due)
    deleted: list[Path] = field(default_factory=list)


def backup_dir(data_dir: Path) -> Path:
    return data_dir / "backups"


def last_backup(folder: Path) -> datetime | None:
    times = [when for p in folder.glob("bme-backup-*") if (when := backup_time(p.name)) is not None]
    return max(times, default=None)


def scheduled_backup(service: MemoryService, data_dir: Path, *, passphrase: str | None,
                     policy: RetentionPolicy | None = None, interval: timedelta | None = None,
                     params: KdfParams | None = None) -> BackupRun:
    """Write a backup into ``<data_dir>/backups/`` when one is due, then apply retention.
    Only files named ``bme-backup-*`` are ever deleted."""
    folder = backup_dir(data_dir)
    now = datetime.fromtimestamp(service.now(), tz=UTC)
    previous = last_backup(folder) if folder.exists() else None
    if interval is not None and previous is not None and now - previous < interval:
        return BackupRun(path=None)
    path = folder / backup_name(now, encrypted=passphrase is not None)
    write_atomically(path, backup_bytes(service, passphrase, params=params))
    run = BackupRun(path=path)
    for name in files_to_delete([p.name for p in folder.iterdir()], policy or RetentionPolicy()):
        (folder / name).unlink(missing_ok=True)
        run.deleted.append(folder / name)
    return run
