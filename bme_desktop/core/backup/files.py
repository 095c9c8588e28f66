"""Backup files: write (encrypted or plain gzip), read back, restore, and scheduled runs
into ``<data_dir>/backups/`` with retention."""

from __future__ import annotations

import gzip
import hashlib
import json
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from cryptography.hazmat.primitives.ciphers import AEADEncryptionContext

from ..cancel import CancelToken, checkpoint
from .crypto import KdfParams, encrypt, encryptor
from .export import write_document
from .fileio import atomic_output, decode_backup, write_atomically
from .format import BackupError
from .importer import ImportMode, ImportResult, import_chats
from .incremental import (
    Watermark,
    chat_digests,
    diff_chat,
    file_id,
    increment_document,
    load_watermark,
    save_watermark,
)
from .retention import RetentionPolicy, backup_name, backup_time, files_to_delete, incremental_name
from .stream import open_backup, open_chain
from .validate import ChatDoc, load_document

if TYPE_CHECKING:
    from ..ports import Backups


def seal(text: bytes, passphrase: str | None, params: KdfParams | None = None) -> bytes:
    if passphrase is None:
        return gzip.compress(text, mtime=0)
    return encrypt(text, passphrase, params)


class _Sealer:
    """A backup file's bytes written as a stream: gzip, then (with a passphrase) AES-256-GCM;
    the SHA-256 of the bytes written is the file's id in a chain."""

    def __init__(self, out: BinaryIO, passphrase: str | None, params: KdfParams | None) -> None:
        self.out = out
        self.deflate = zlib.compressobj(9, zlib.DEFLATED, 31)
        self.sha = hashlib.sha256()
        self.size = 0
        self.cipher: AEADEncryptionContext | None = None
        if passphrase is not None:
            header, self.cipher = encryptor(passphrase, params)
            self._out(header)

    def _out(self, data: bytes) -> None:
        self.sha.update(data)
        self.size += len(data)
        self.out.write(data)

    def _sealed(self, data: bytes) -> None:
        self._out(data if self.cipher is None else self.cipher.update(data))

    def write(self, text: bytes) -> None:
        self._sealed(self.deflate.compress(text))

    def close(self) -> str:
        self._sealed(self.deflate.flush())
        if self.cipher is not None:
            self._out(self.cipher.finalize())
            self._out(self.cipher.tag)
        return self.sha.hexdigest()


@dataclass
class BackupWritten:
    path: Path
    size: int  # bytes of the file
    ident: str  # SHA-256 of the file
    at: float  # the export's time
    digests: dict[str, dict[str, dict[str, str]]]  # chat id → the digests of its records


def write_backup_file(
    service: Backups,
    path: Path,
    passphrase: str | None,
    *,
    params: KdfParams | None = None,
    cancel: CancelToken | None = None,
) -> BackupWritten:
    """Every chat as one export document, encrypted with the passphrase (else plain gzip),
    written chat by chat (one chat in memory at a time) to a private temporary file renamed
    into place."""
    now = service.now()
    digests: dict[str, dict[str, dict[str, str]]] = {}

    def keep(chat: dict[str, Any]) -> None:
        checkpoint(cancel)  # a cancelled backup leaves no file
        digests[chat["chat_id"]] = chat_digests(chat)

    with atomic_output(path) as out:
        sealer = _Sealer(out, passphrase, params)
        service.read(lambda r: write_document(r, sealer.write, now=now, each=keep))
        ident = sealer.close()
    return BackupWritten(path, sealer.size, ident, now, digests)


def write_full_backup(
    service: Backups, path: Path, passphrase: str | None, *, data_dir: Path, params: KdfParams | None = None
) -> Path:
    """A full backup at ``path``; it starts a new chain of increments (the watermark)."""
    done = write_backup_file(service, path, passphrase, params=params)
    save_watermark(
        data_dir, Watermark(chain=done.ident, last=done.ident, seq=0, at=done.at, digests=done.digests)
    )
    return path


@dataclass
class IncrementalRun:
    path: Path
    seq: int
    changed: int  # records written (new or changed)
    deleted: int  # records and chats marked deleted


def write_incremental_backup(
    service: Backups,
    passphrase: str | None,
    *,
    data_dir: Path,
    path: Path | None = None,
    params: KdfParams | None = None,
) -> IncrementalRun:
    """What changed since the watermark, as the next link of its chain (default: in the
    data folder's ``backups/``). Without a watermark there is nothing to build on."""
    mark = load_watermark(data_dir)
    if mark is None:
        raise BackupError("", "there is no full backup to build on: make one first (bme-desktop backup)")
    now = service.now()
    entries: list[dict[str, Any]] = []
    digests: dict[str, dict[str, dict[str, str]]] = {}

    def diff(chat: dict[str, Any]) -> None:  # one chat in memory at a time
        digests[chat["chat_id"]] = chat_digests(chat)
        if (entry := diff_chat(chat, mark)) is not None:
            entries.append(entry)

    service.read(lambda r: write_document(r, lambda _text: None, now=now, each=diff))
    increment = increment_document(entries, set(digests), mark, parent=mark.last, exported_at=now)
    data = seal(json.dumps(increment, ensure_ascii=False, sort_keys=True).encode("utf-8"), passphrase, params)
    when = datetime.fromtimestamp(now, tz=UTC)
    if path is None:
        path = backup_dir(data_dir) / incremental_name(
            when, increment["seq"], encrypted=passphrase is not None
        )
    write_atomically(path, data)
    save_watermark(
        data_dir,
        Watermark(chain=mark.chain, last=file_id(data), seq=increment["seq"], at=now, digests=digests),
    )
    changed = sum(len(v) for c in increment["chats"] for v in c["upsert"].values())
    deleted = sum(len(v) for c in increment["chats"] for v in c["delete"].values()) + len(
        increment["deleted_chats"]
    )
    return IncrementalRun(path=path, seq=increment["seq"], changed=changed, deleted=deleted)


def restore_chain(
    service: Backups, paths: Sequence[Path], passphrase: str | None, *, mode: ImportMode = "merge"
) -> ImportResult:
    """A full backup and its increments: every link checked, decrypted and the final state
    validated (one chat at a time) before one import transaction. With ``replace``, chats the chain deleted
    are
    deleted here too, so the store ends as the source was."""
    chain = open_chain(paths, passphrase)
    return import_chats(service, chain, mode=mode, delete=chain.deleted_chats if mode == "replace" else ())


def read_backup(data: bytes, passphrase: str | None) -> list[ChatDoc]:
    """Validated chats of an encrypted backup, a gzip backup or a plain export document held
    whole in memory (up to ``MAX_FILE_BYTES``; files are read with ``stream.open_backup``)."""
    return load_document(decode_backup(data, passphrase))


def restore(
    service: Backups, path: Path, passphrase: str | None, *, mode: ImportMode = "merge"
) -> ImportResult:
    """Decrypt (if needed) and validate the whole file chat by chat, then import it in one
    transaction, reading it again one chat at a time (memory: the largest chat)."""
    return import_chats(service, open_backup(path, passphrase), mode=mode)


@dataclass
class BackupRun:
    path: Path | None  # None: skipped (not due)
    deleted: list[Path] = field(default_factory=list)


def backup_dir(data_dir: Path) -> Path:
    return data_dir / "backups"


def last_backup(folder: Path) -> datetime | None:
    times = [when for p in folder.glob("bme-backup-*") if (when := backup_time(p.name)) is not None]
    return max(times, default=None)


def scheduled_backup(
    service: Backups,
    data_dir: Path,
    *,
    passphrase: str | None,
    policy: RetentionPolicy | None = None,
    interval: timedelta | None = None,
    params: KdfParams | None = None,
    folder: Path | None = None,
) -> BackupRun:
    """Write a backup into ``folder`` (default ``<data_dir>/backups/``) when one is due, then
    apply retention. Only files named ``bme-backup-*`` and ``bme-incr-*`` are ever deleted."""
    folder = folder or backup_dir(data_dir)
    now = datetime.fromtimestamp(service.now(), tz=UTC)
    previous = last_backup(folder) if folder.exists() else None
    if interval is not None and previous is not None and now - previous < interval:
        return BackupRun(path=None)
    path = folder / backup_name(now, encrypted=passphrase is not None)
    write_full_backup(service, path, passphrase, data_dir=data_dir, params=params)
    return BackupRun(path=path, deleted=prune(folder, policy or RetentionPolicy()))


def prune(folder: Path, policy: RetentionPolicy) -> list[Path]:
    """Delete the backups of ours that ``policy`` lets go (never a file of another name)."""
    deleted = []
    for name in files_to_delete([p.name for p in folder.iterdir() if p.is_file()], policy):
        (folder / name).unlink(missing_ok=True)
        deleted.append(folder / name)
    return deleted
