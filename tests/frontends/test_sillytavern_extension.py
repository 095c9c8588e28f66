"""The SillyTavern companion extension's own Node tests, and its end-to-end tests against a
real ``bme-desktop serve`` started here, run as part of the suite."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

EXTENSION = Path(__file__).resolve().parents[2] / "resources" / "sillytavern-extension"
TOKEN = "e2e-token-" + "x" * 40


def node_binary() -> str:
    node = shutil.which("node")
    assert node is not None, "Node.js is needed for the SillyTavern extension tests (CI installs it)"
    return node


@pytest.fixture
def served_bridge(tmp_path: Path) -> Iterator[str]:
    env = {**os.environ, "BME_BRIDGE_TOKEN": TOKEN}
    proc = subprocess.Popen([sys.executable, "-m", "bme_desktop", "serve", "--port", "0", "--data-dir",
                             str(tmp_path / "data")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
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


def run_node_tests(*files: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([node_binary(), "--test", *files], cwd=EXTENSION, capture_output=True, text=True,
                          timeout=300, env={**os.environ, **(env or {})})


def test_extension_unit_tests_pass() -> None:
    units = sorted(str(p.relative_to(EXTENSION)) for p in (EXTENSION / "test").glob("*.test.js")
                   if p.name != "e2e.test.js")
    result = run_node_tests(*units)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "# fail 0" in result.stdout


def test_extension_end_to_end_against_the_real_bridge(served_bridge: str) -> None:
    result = run_node_tests("test/e2e.test.js", env={"BME_E2E_URL": served_bridge, "BME_E2E_TOKEN": TOKEN})
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "# fail 0" in result.stdout and "# skipped 0" in result.stdout
