"""API keys: the environment wins, else the stored key; files are the user's alone."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from bme_desktop.core.secrets import LLM_KEY, ApiKeyError, ApiKeyStore, api_key


def test_without_a_keyring_a_key_needs_the_users_consent_for_a_file(tmp_path: Path) -> None:
    with pytest.raises(ApiKeyError):
        ApiKeyStore(tmp_path).store(LLM_KEY, "sk-secret", allow_file=False)
    assert not (tmp_path / LLM_KEY).exists()


def test_a_file_kept_key_is_private_and_read_back(tmp_path: Path) -> None:
    assert ApiKeyStore(tmp_path).store(LLM_KEY, "sk-secret", allow_file=True) == "file"
    assert stat.S_IMODE((tmp_path / LLM_KEY).stat().st_mode) == 0o600
    assert api_key(tmp_path, LLM_KEY) == "sk-secret"


def test_the_environment_variable_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ApiKeyStore(tmp_path).store(LLM_KEY, "sk-stored", allow_file=True)
    monkeypatch.setenv("BME_TEST_KEY", "sk-env")
    assert api_key(tmp_path, LLM_KEY, "BME_TEST_KEY") == "sk-env"


def test_an_empty_value_forgets_the_key(tmp_path: Path) -> None:
    store = ApiKeyStore(tmp_path)
    store.store(LLM_KEY, "sk-secret", allow_file=True)
    store.store(LLM_KEY, "", allow_file=True)
    assert api_key(tmp_path, LLM_KEY) is None
