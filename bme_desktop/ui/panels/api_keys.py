"""API keys for the model endpoints: in the OS keyring (service ``bme-desktop``, entries
``llm-api-key`` / ``embedding-api-key``), never in settings.json. Where no keyring works the
user may choose a file in the data folder that only they can read, as the bridge token does.
Qt-free and blocking (a keyring may talk to D-Bus): call from a worker."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...bridge.tokens import KEYRING_SERVICE, usable_keyring

KEY_NAMES = ("llm-api-key", "embedding-api-key")


class ApiKeyError(Exception):
    """A key cannot be stored or read; the message says where."""


@dataclass(frozen=True)
class StoredKey:
    value: str | None
    source: str  # "keyring" | "file" | "none"


class ApiKeyStore:
    def __init__(self, data_dir: Path, *, keyring_backend: Any | None = None) -> None:
        self.data_dir = data_dir
        self._backend = keyring_backend

    def keyring(self) -> Any | None:
        return usable_keyring(self._backend)

    def file(self, name: str) -> Path:
        return self.data_dir / name

    def load(self, name: str) -> StoredKey:
        backend = self.keyring()
        if backend is not None:
            try:
                value = backend.get_password(KEYRING_SERVICE, name)
            except Exception:
                value = None
            if value:
                return StoredKey(value, "keyring")
        path = self.file(name)
        if path.exists():
            try:
                return StoredKey(path.read_text(encoding="utf-8").strip() or None, "file")
            except (OSError, UnicodeDecodeError) as exc:
                raise ApiKeyError(f"cannot read {path}: {exc}") from exc
        return StoredKey(None, "none")

    def store(self, name: str, value: str, *, allow_file: bool) -> str:
        """Keep ``value`` (empty: forget it); returns where it went ("keyring" or "file")."""
        backend = self.keyring()
        if backend is not None:
            try:
                if value:
                    backend.set_password(KEYRING_SERVICE, name, value)
                elif backend.get_password(KEYRING_SERVICE, name):
                    backend.delete_password(KEYRING_SERVICE, name)
                self.file(name).unlink(missing_ok=True)
                return "keyring"
            except Exception:
                pass  # present but locked or broken: fall back only if the user agreed
        if not allow_file:
            raise ApiKeyError("no system keyring works here")
        self._write_file(name, value)
        return "file"

    def _write_file(self, name: str, value: str) -> None:
        path = self.file(name)
        if not value:
            path.unlink(missing_ok=True)
            return
        tmp = path.with_name(f".{name}.{os.getpid()}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                if hasattr(os, "fchmod"):
                    os.fchmod(fd, 0o600)
                os.write(fd, (value + "\n").encode("utf-8"))
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(tmp, path)
        except OSError as exc:
            raise ApiKeyError(f"cannot write {path}: {exc.strerror or exc}") from exc
