"""Token creation, storage (keyring or a user-only file), the env override, rotation, `token`."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import keyring.backends.fail
import keyring.backends.null
import pytest
from keyring.backend import KeyringBackend

from bme_desktop.bridge.tokens import (
    ENV_VAR,
    KEYRING_SERVICE,
    TokenError,
    TokenSource,
    TokenStore,
    token_main,
    usable_keyring,
)


def NullKeyring() -> Any:
    return keyring.backends.null.Keyring()  # type: ignore[no-untyped-call]


def FailKeyring() -> Any:
    return keyring.backends.fail.Keyring()  # type: ignore[no-untyped-call]


class MemoryKeyring(KeyringBackend):
    priority = 5

    def __init__(self) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.items: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.items.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.items[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.items.pop((service, username), None)


class LockedKeyring(MemoryKeyring):
    def set_password(self, service: str, username: str, password: str) -> None:
        raise keyring.errors.KeyringLocked("locked")


def test_null_and_fail_backends_count_as_no_keyring() -> None:
    assert usable_keyring(NullKeyring()) is None
    assert usable_keyring(FailKeyring()) is None
    backend = MemoryKeyring()
    assert usable_keyring(backend) is backend


def test_a_new_token_is_long_and_url_safe(tmp_path: Path) -> None:
    token = TokenStore(tmp_path, keyring_backend=MemoryKeyring(), environ={}).get_or_create().value
    assert len(token) >= 43  # 32 random bytes
    assert all(c.isalnum() or c in "-_" for c in token)


def test_with_a_keyring_the_token_lives_there_keyed_by_data_dir(tmp_path: Path) -> None:
    backend = MemoryKeyring()
    token = TokenStore(tmp_path / "a", keyring_backend=backend, environ={}).get_or_create()
    assert token.source == "keyring"
    assert backend.items[(KEYRING_SERVICE, f"bridge-token:{(tmp_path / 'a').resolve()}")] == token.value
    assert not (tmp_path / "a" / "bridge-token").exists()
    other = TokenStore(tmp_path / "b", keyring_backend=backend, environ={}).get_or_create()
    assert other.value != token.value
    again = TokenStore(tmp_path / "a", keyring_backend=backend, environ={}).get_or_create()
    assert again.value == token.value


@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")
def test_without_a_keyring_the_token_is_a_user_only_file(tmp_path: Path) -> None:
    store = TokenStore(tmp_path, keyring_backend=NullKeyring(), environ={})
    token = store.get_or_create()
    assert token.source == "file"
    assert stat.S_IMODE((tmp_path / "bridge-token").stat().st_mode) == 0o600
    assert store.get_or_create().value == token.value


def test_a_locked_keyring_falls_back_to_the_file(tmp_path: Path) -> None:
    token = TokenStore(tmp_path, keyring_backend=LockedKeyring(), environ={}).get_or_create()
    assert token.source == "file" and (tmp_path / "bridge-token").exists()


@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")
def test_a_loosened_token_file_is_made_private_again(tmp_path: Path) -> None:
    store = TokenStore(tmp_path, keyring_backend=NullKeyring(), environ={})
    store.get_or_create()
    os.chmod(tmp_path / "bridge-token", 0o644)
    store.load()
    assert stat.S_IMODE((tmp_path / "bridge-token").stat().st_mode) == 0o600


def test_the_environment_overrides_and_cannot_be_rotated(tmp_path: Path) -> None:
    store = TokenStore(tmp_path, keyring_backend=MemoryKeyring(), environ={ENV_VAR: " from-env "})
    assert store.get_or_create().value == "from-env"
    with pytest.raises(TokenError, match=ENV_VAR):
        store.rotate()


def test_rotation_replaces_the_token_and_a_source_picks_it_up(tmp_path: Path) -> None:
    backend = MemoryKeyring()
    source = TokenSource(TokenStore(tmp_path, keyring_backend=backend, environ={}))
    old = source.current()
    new = TokenStore(tmp_path, keyring_backend=backend, environ={}).rotate().value
    assert new != old and source.current() == old
    source.refresh()
    assert source.current() == new


def test_token_main_prints_only_the_token_and_keeps_it(tmp_path: Path, capsys: Any) -> None:
    assert token_main(tmp_path, rotate=False) == 0
    first = capsys.readouterr()
    assert first.out.strip() and "\n" not in first.out.strip()
    assert "keyring" in first.err  # it says honestly where the token went
    assert token_main(tmp_path, rotate=False) == 0
    assert capsys.readouterr().out == first.out
    assert token_main(tmp_path, rotate=True) == 0
    assert capsys.readouterr().out != first.out


def test_token_main_with_the_env_var_prints_it(tmp_path: Path, capsys: Any, monkeypatch: Any) -> None:
    monkeypatch.setenv(ENV_VAR, "env-token")
    assert token_main(tmp_path, rotate=False) == 0
    assert capsys.readouterr().out == "env-token\n"
    assert token_main(tmp_path, rotate=True) == 2
