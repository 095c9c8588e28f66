"""The bridge token: created on first start, kept in the OS keyring or, where no keyring
works, in a file only the user can read; ``BME_BRIDGE_TOKEN`` overrides both."""

from __future__ import annotations

import os
import secrets
import stat
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.secrets import KEYRING_SERVICE as KEYRING_SERVICE
from ..core.secrets import usable_keyring as usable_keyring
from ..core.secrets import write_private_file

ENV_VAR = "BME_BRIDGE_TOKEN"
TOKEN_FILENAME = "bridge-token"
TOKEN_BYTES = 32


class TokenError(Exception):
    """The token cannot be read or stored; the message says where and why."""


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


@dataclass(frozen=True)
class Token:
    value: str
    source: str  # "env" | "keyring" | "file"
    where: str  # what to tell a user: the variable, the keyring entry, or the file


class TokenStore:
    """Token storage for one data dir. ``keyring_backend``: a backend object (tests pass an
    in-memory one); None asks ``keyring`` for the system's."""

    def __init__(
        self, data_dir: Path, *, keyring_backend: Any | None = None, environ: dict[str, str] | None = None
    ) -> None:
        self.data_dir = data_dir
        self.file = data_dir / TOKEN_FILENAME
        self.environ = environ if environ is not None else dict(os.environ)
        self._backend = keyring_backend
        self.key = f"bridge-token:{data_dir.expanduser().resolve()}"

    def keyring(self) -> Any | None:
        return usable_keyring(self._backend)

    def env_token(self) -> str | None:
        value = self.environ.get(ENV_VAR, "").strip()
        return value or None

    def load(self) -> Token | None:
        """The current token without creating one."""
        env = self.env_token()
        if env:
            return Token(env, "env", ENV_VAR)
        backend = self.keyring()
        if backend is not None:
            try:
                value = backend.get_password(KEYRING_SERVICE, self.key)
            except Exception:
                value = None
            if value:
                return Token(value, "keyring", f"{KEYRING_SERVICE} / {self.key}")
        if self.file.exists():
            return Token(self._read_file(), "file", str(self.file))
        return None

    def get_or_create(self) -> Token:
        return self.load() or self._store(new_token())

    def rotate(self) -> Token:
        if self.env_token():
            raise TokenError(f"{ENV_VAR} is set, so it is the token; change or unset it instead of rotating")
        return self._store(new_token())

    def _store(self, value: str) -> Token:
        backend = self.keyring()
        if backend is not None:
            try:
                backend.set_password(KEYRING_SERVICE, self.key, value)
                if backend.get_password(KEYRING_SERVICE, self.key) == value:
                    self.file.unlink(missing_ok=True)
                    return Token(value, "keyring", f"{KEYRING_SERVICE} / {self.key}")
            except Exception:
                pass  # a keyring that is present but locked or broken: fall back honestly
        self._write_file(value)
        return Token(value, "file", str(self.file))

    def _read_file(self) -> str:
        try:
            mode = stat.S_IMODE(self.file.stat().st_mode)
            if os.name == "posix" and mode & 0o077:
                os.chmod(self.file, 0o600)  # someone loosened it: make it the user's alone again
            value = self.file.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as exc:
            raise TokenError(f"cannot read the bridge token from {self.file}: {exc}") from exc
        if not value:
            raise TokenError(f"the bridge token file {self.file} is empty; run `bme-desktop token --rotate`")
        return value

    def _write_file(self, value: str) -> None:
        try:
            write_private_file(self.file, value)
        except OSError as exc:
            raise TokenError(f"cannot store the bridge token in {self.file}: {exc.strerror or exc}") from exc


class TokenSource:
    """The token a running bridge checks against. Re-reads the store every few seconds so a
    rotation from another process (``bme-desktop token --rotate``) takes effect."""

    def __init__(
        self, store: TokenStore | None = None, *, fixed: str | None = None, refresh_s: float = 5.0
    ) -> None:
        if store is None and not fixed:
            raise ValueError("a TokenSource needs a store or a fixed token")
        self.store = store
        self.refresh_s = refresh_s
        self._lock = threading.Lock()
        self._value = fixed or ""
        self._loaded_at = time.monotonic()
        if store is not None:
            self._value = store.get_or_create().value

    def current(self) -> str:
        return self._value

    def set(self, value: str) -> None:
        with self._lock:
            self._value = value

    def refresh(self) -> None:
        """Blocking (may touch the keyring): call from a worker thread."""
        if self.store is None:
            return
        try:
            token = self.store.load()
        except TokenError:
            return
        if token is not None:
            with self._lock:
                self._value = token.value
                self._loaded_at = time.monotonic()

    def rotate(self) -> str:
        if self.store is None:
            raise TokenError("this bridge runs with a fixed token")
        value = self.store.rotate().value
        self.set(value)
        return value


def token_main(data_dir: Path, *, rotate: bool) -> int:
    """``bme-desktop token [--rotate]``: print the token (only the token) on stdout."""
    store = TokenStore(data_dir)
    try:
        existed = store.load() is not None
        token = store.rotate() if rotate else store.get_or_create()
    except TokenError as exc:
        print(f"bme-desktop: {exc}", file=sys.stderr)
        return 2
    if token.source == "file" and (rotate or not existed):
        print(
            f"bme-desktop: no OS keyring is available; the token is kept in {token.where} "
            "(readable only by you)",
            file=sys.stderr,
        )
    if rotate:
        print(
            "bme-desktop: the token was replaced; a running bridge accepts only the new one within "
            "a few seconds",
            file=sys.stderr,
        )
    print(token.value)
    sys.stdout.flush()
    return 0
