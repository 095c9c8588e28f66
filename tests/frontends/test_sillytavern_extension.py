"""The SillyTavern companion extension's own Node tests, and its end-to-end tests against a
real ``bme-desktop serve`` started here (with default settings, and with the strict review
gate on), run as part of the suite."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

EXTENSION = Path(__file__).resolve().parents[2] / "resources" / "sillytavern-extension"
TOKEN = "e2e-token-" + "x" * 40


def node_binary() -> str:
    node = shutil.which("node")
    assert node is not None, "Node.js is needed for the SillyTavern extension tests (CI installs it)"
    return node


@contextmanager
def serve(data_dir: Path, settings: dict[str, Any] | None = None) -> Iterator[str]:
    """A ``bme-desktop serve`` on a free port over ``data_dir`` (with ``settings.json`` when
    given); yields its URL once it is ready."""
    data_dir.mkdir(parents=True, exist_ok=True)
    if settings is not None:
        (data_dir / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    env = {**os.environ, "BME_BRIDGE_TOKEN": TOKEN}
    proc = subprocess.Popen(
        [sys.executable, "-m", "bme_desktop", "serve", "--port", "0", "--data-dir", str(data_dir)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line, proc.stderr.read() if proc.stderr else "serve printed nothing"
        ready = json.loads(line)
        assert ready["event"] == "ready"
        yield str(ready["url"])
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.fixture
def served_bridge(tmp_path: Path) -> Iterator[str]:
    with serve(tmp_path / "data") as url:  # no settings.json: every default
        yield url


@pytest.fixture
def served_bridge_with_review_gate(tmp_path: Path) -> Iterator[str]:
    with serve(tmp_path / "data", {"lifecycle": {"review_gate": True}}) as url:
        yield url


def run_node_tests(*files: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [node_binary(), "--test", *files],
        cwd=EXTENSION,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **(env or {})},
    )


def test_extension_unit_tests_pass() -> None:
    units = sorted(
        str(p.relative_to(EXTENSION))
        for p in (EXTENSION / "test").glob("*.test.js")
        if not p.name.startswith("e2e")
    )
    result = run_node_tests(*units)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "# fail 0" in result.stdout


def test_extension_end_to_end_against_the_real_bridge(served_bridge: str) -> None:
    result = run_node_tests("test/e2e.test.js", env={"BME_E2E_URL": served_bridge, "BME_E2E_TOKEN": TOKEN})
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "# fail 0" in result.stdout and "# skipped 0" in result.stdout


def test_extension_end_to_end_with_the_strict_review_gate(served_bridge_with_review_gate: str) -> None:
    result = run_node_tests(
        "test/e2e-review-gate.test.js",
        env={"BME_E2E_REVIEW_GATE_URL": served_bridge_with_review_gate, "BME_E2E_TOKEN": TOKEN},
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "# fail 0" in result.stdout and "# skipped 0" in result.stdout


def test_extension_lends_sillytavern_model_to_the_real_bridge(tmp_path: Path) -> None:
    """SillyTavern's generateRaw faked; real serve, real WebSocket (Node 20 needs the flag).
    The bridge's budget of lent jobs is raised: these chats run faster than anyone types."""
    with serve(tmp_path / "data", {"llm": {"lent_jobs_per_minute": 120}}) as url:
        result = run_node_tests(
            "test/e2e-model.test.js",
            env={
                "BME_E2E_MODEL_URL": url,
                "BME_E2E_TOKEN": TOKEN,
                "NODE_OPTIONS": "--experimental-websocket",
            },
        )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "# fail 0" in result.stdout and "# skipped 0" in result.stdout
