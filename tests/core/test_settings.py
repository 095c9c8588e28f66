"""Typed settings: defaults, validation naming the file and key, atomic saves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bme_desktop.core.settings import (
    Settings,
    SettingsError,
    load_settings,
    save_settings,
    settings_from_json,
)


def test_missing_file_gives_defaults(tmp_path: Path) -> None:
    settings = load_settings(tmp_path)
    assert settings == Settings() and settings.bridge.port == 7317


def test_saved_settings_load_back_equal(tmp_path: Path) -> None:
    settings = Settings()
    settings.recall.top_k = 12
    settings.bridge.allowed_origins = ["https://my.frontend"]
    settings.extraction.cleaning_patterns = []
    settings.lifecycle.retention_max_age_days = {"event": 90.0}
    settings.lifecycle.retention_max_count = {"fact": 500}
    save_settings(tmp_path, settings)
    assert load_settings(tmp_path) == settings


def test_an_explicitly_empty_cleaning_list_stays_empty(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text(json.dumps({"extraction": {"cleaning_patterns": []}}))
    assert load_settings(tmp_path).extraction.cleaning_patterns == []


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"recall": {"top_k": 0}}, "recall.top_k must be at least 1"),
        ({"recall": {"top_k": "eight"}}, "recall.top_k must be a whole number"),
        ({"appearance": {"theme": "pink"}}, "appearance.theme must be one of"),
        ({"bridge": {"allowed_origins": [1]}}, "bridge.allowed_origins must be a list of str"),
        ({"llm": {"enabled": "yes"}}, "llm.enabled must be true or false"),
        ({"nonsense": 1}, "unknown setting nonsense"),
        ({"llm": []}, "llm. must be an object"),
        (
            {"lifecycle": {"retention_max_age_days": {"character": 30}}},
            "lifecycle.retention_max_age_days.character cannot be set: character memories are core",
        ),
        (
            {"lifecycle": {"retention_max_count": {"dragon": 5}}},
            "lifecycle.retention_max_count.dragon is not a memory type",
        ),
        (
            {"lifecycle": {"retention_max_count": {"event": 0}}},
            "lifecycle.retention_max_count.event must be at least 1",
        ),
        (
            {"lifecycle": {"retention_max_count": {"event": 2.5}}},
            "lifecycle.retention_max_count.event must be a whole",
        ),
        (
            {"lifecycle": {"retention_max_age_days": ["event"]}},
            "lifecycle.retention_max_age_days must be an object",
        ),
        ({"lifecycle": {"max_memories_per_chat": -1}}, "lifecycle.max_memories_per_chat must be at least 0"),
    ],
)
def test_invalid_values_are_named(data: dict[str, object], message: str) -> None:
    with pytest.raises(SettingsError, match=message.replace(".", r"\.")):
        settings_from_json(data)


def test_an_invalid_file_is_named_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"recall": {"top_k": -3}}')
    with pytest.raises(SettingsError) as err:
        load_settings(tmp_path)
    assert str(path) in str(err.value) and "recall.top_k" in str(err.value)
    assert path.read_text() == '{"recall": {"top_k": -3}}'


def test_unreadable_json_is_named(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text("{not json")
    with pytest.raises(SettingsError, match="cannot be read as JSON"):
        load_settings(tmp_path)


def test_a_lone_surrogate_in_settings_json_becomes_the_replacement_character(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text(
        '{"llm": {"model": "qwen\\ud800"}, "bridge": {"allowed_origins": ["https://a\\udfff.example"]}}'
    )
    settings = load_settings(tmp_path)
    assert settings.llm.model == "qwen\ufffd"
    assert settings.bridge.allowed_origins == ["https://a\ufffd.example"]
    save_settings(tmp_path, settings)  # and it can be written back as UTF-8
    assert load_settings(tmp_path) == settings


def test_settings_nested_5000_deep_are_refused_with_a_sentence(tmp_path: Path) -> None:
    text = '{"llm": ' + "[" * 5000 + "]" * 5000 + "}"
    (tmp_path / "settings.json").write_text(text)
    with pytest.raises(SettingsError, match="nested too deeply") as err:
        load_settings(tmp_path)
    assert str(tmp_path / "settings.json") in str(err.value) and "\n" not in str(err.value)
    assert (tmp_path / "settings.json").read_text() == text


def test_settings_from_a_newer_version_are_refused() -> None:
    with pytest.raises(SettingsError, match="newer"):
        settings_from_json({"version": 99})


def test_saving_invalid_settings_writes_nothing(tmp_path: Path) -> None:
    settings = Settings()
    settings.recall.top_k = 1000
    with pytest.raises(SettingsError):
        save_settings(tmp_path, settings)
    assert not (tmp_path / "settings.json").exists()
