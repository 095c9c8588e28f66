"""Secrets (API keys, the bridge token): in the OS keyring (service ``bme-desktop``) or, where
no keyring works, in a file in the data folder that only the user can read. Never in
settings.json. Blocking (a keyring may talk to D-Bus): call from a worker, not a GUI thread."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .paths import ensure_private_dir

KEYRING_SERVICE = "bme-desktop"
LLM_KEY = "llm-api-key"
EMBEDDING_KEY = "embedding-api-key"
PROXY_UPSTREAM_KEY = "proxy-upstream-key"  # the memory proxy's upstream (settings.PROXY_KEYRING_KEY)
KEY_NAMES = (LLM_KEY, EMBEDDING_KEY, PROXY_UPSTREAM_KEY)


def usable_keyring(backend: Any | None = None) -> Any | None:
    """The OS keyring backend, or None when there is none that works (headless Linux has
    only keyring's ``fail`` or ``null`` backends, both priority ≤ 0)."""
    if backend is None:
        try:
            import keyring

            backend = keyring.get_keyring()
        except Exception:
            return None
    module = type(backend).__module__
    if module in ("keyring.backends.fail", "keyring.backends.null"):
        return None
    try:
        priority = float(backend.priority)
    except Exception:
        return None
    return backend if priority > 0 else None


def write_private_file(path: Path, value: str) -> None:
    """Write ``value`` atomically to a file only the user can read (mode 0600). Raises OSError."""
    ensure_private_dir(path.parent)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(fd, 0o600)
        os.write(fd, (value + "\n").encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


class ApiKeyError(Exception):
    """A key cannot be stored or read; the message says where."""


@dataclass(frozen=True)
class StoredKey:
    value: str | None
    source: str  # "keyring" | "file" | "none"


class ApiKeyStore:
    """Named API keys for one data folder (``llm-api-key``, ``embedding-api-key``, …)."""

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
        path = self.file(name)
        try:
            if value:
                write_private_file(path, value)
            else:
                path.unlink(missing_ok=True)
        except OSError as exc:
            raise ApiKeyError(f"cannot write {path}: {exc.strerror or exc}") from exc
        return "file"


def api_key(data_dir: Path | None, name: str, env_var: str | None = None) -> str | None:
    """The key from ``env_var`` if set, else the stored one (None when there is none or it
    cannot be read)."""
    if env_var and os.environ.get(env_var):
        return os.environ[env_var]
    if data_dir is None:
        return None
    try:
        return ApiKeyStore(data_dir).load(name).value
    except ApiKeyError:
        return None
