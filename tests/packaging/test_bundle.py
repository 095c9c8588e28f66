"""The PyInstaller bundle (``make bundle``): what its spec ships, and the bundled program itself.

The smoke test runs packaging/smoke-bundle.sh on a built bundle: the one at dist-bundle/bme-desktop
when it exists, or the folder named by ``BME_TEST_BUNDLE`` (then a missing bundle fails rather than
skips). Building one takes minutes, so the suite never builds it: CI runs ``make bundle-check``
after ``make test``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bme_desktop import doctor
from bme_desktop.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "packaging" / "pyinstaller"))

from bundle_parts import shipped_files  # noqa: E402
from test_wheel import shipped_sources  # noqa: E402


def test_the_bundle_ships_the_resources_the_wheel_ships_in_the_same_place() -> None:
    shipped = {f"{dest}/{Path(source).name}" for source, dest in shipped_files(ROOT)}
    assert shipped == shipped_sources()


def test_a_bundled_doctor_probes_opengl_through_its_own_program(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", "/opt/bme-desktop/bme-desktop")
    command = doctor._gl_probe_command()
    assert command == ["/opt/bme-desktop/bme-desktop", "doctor", "--gl-probe"]
    args = build_parser().parse_args(command[1:])
    assert args.command == "doctor" and args.gl_probe


def test_from_a_venv_the_probe_runs_in_the_interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(sys, "frozen", raising=False)
    command = doctor._gl_probe_command()
    assert command[:2] == [sys.executable, "-c"]
    assert "gl_probe()" in command[2]


def _bundle() -> Path | None:
    asked = os.environ.get("BME_TEST_BUNDLE")
    if asked:
        return Path(asked)
    default = ROOT / "dist-bundle" / "bme-desktop"
    return default if (default / "bme-desktop").is_file() else None


@pytest.mark.skipif(_bundle() is None, reason="no bundle built (make bundle), and BME_TEST_BUNDLE names none")
@pytest.mark.timeout(600)
def test_the_bundled_program_runs_without_the_venv(tmp_path: Path) -> None:
    bundle = _bundle()
    assert bundle is not None
    shot = tmp_path / "demo.png"
    run = subprocess.run(
        ["bash", str(ROOT / "packaging" / "smoke-bundle.sh"), str(bundle), str(shot)],
        capture_output=True,
        text=True,
        timeout=590,
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert "bundle smoke test passed" in run.stdout
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
