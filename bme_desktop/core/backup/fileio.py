"""Whole-file reads and atomic writes of backup files (no dependency on the rest of the
backup package, so the streaming reader and the chain code can use them)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from .crypto import GZIP_MAGIC, decrypt, gunzip_bounded, is_encrypted
from .format import MAX_FILE_BYTES, BackupError


def write_atomically(path: Path, data: bytes) -> None:
    """Write to a private temporary file next to ``path`` and rename it into place."""
    with atomic_output(path) as out:
        out.write(data)


@contextmanager
def atomic_output(path: Path) -> Iterator[BinaryIO]:
    """A private temporary file next to ``path``, synced and renamed into place when the block
    ends, removed when it raises (a reader never sees half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "wb") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def decode_backup(data: bytes, passphrase: str | None) -> bytes:
    """The JSON text inside an encrypted backup, a gzip backup or a plain document."""
    if len(data) > MAX_FILE_BYTES:
        raise BackupError("", f"the file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB")
    if is_encrypted(data):
        if passphrase is None:
            raise BackupError("", "this backup is encrypted; a passphrase is needed")
        data = decrypt(data, passphrase)
    elif data.startswith(GZIP_MAGIC):
        data = gunzip_bounded(data, MAX_FILE_BYTES)
    return data


def read_file(path: Path) -> bytes:
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise BackupError("", f"{path} is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB")
        return path.read_bytes()
    except OSError as exc:
        raise BackupError("", f"cannot read {path}: {exc.strerror or exc}") from None
