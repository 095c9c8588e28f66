"""The wheel carries the whole program: every package, and the themes, translations, prompts,
icons and SillyTavern extension the program loads at run time (as ``bme_desktop/_shipped``)."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from bme_desktop.core import paths

ROOT = Path(__file__).resolve().parents[2]
LEFT_OUT = ("node_modules", "/test/")  # the extension's own tests and packages are not shipped


def shipped_sources() -> set[str]:
    out = set()
    for folder in ("themes", "resources"):
        for path in (ROOT / folder).rglob("*"):
            rel = path.relative_to(ROOT).as_posix()
            if path.is_file() and not path.name.endswith(".ts") and not any(x in f"/{rel}" for x in LEFT_OUT):
                out.add(f"bme_desktop/_shipped/{rel}")
    return out


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    (wheel,) = out.glob("bme_desktop-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


def test_the_wheel_holds_every_file_the_program_loads(wheel_names: set[str]) -> None:
    missing = shipped_sources() - wheel_names
    assert not missing, sorted(missing)[:10]
    for qm in ("bme_zh_CN.qm", "bme_en.qm"):  # English's holds its plural forms
        assert f"bme_desktop/_shipped/resources/translations/{qm}" in wheel_names


def test_the_wheel_holds_every_module(wheel_names: set[str]) -> None:
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "bme_desktop").rglob("*.py")}
    assert not modules - wheel_names, sorted(modules - wheel_names)[:10]
    assert not {n for n in wheel_names if n.startswith("tests/")}


def test_an_installed_package_finds_its_shipped_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "site-packages" / "bme_desktop"
    (package / "core").mkdir(parents=True)
    monkeypatch.delenv("BME_RESOURCE_ROOT", raising=False)
    monkeypatch.setattr(paths, "__file__", str(package / "core" / "paths.py"))
    assert paths.shipped_root() == package / "_shipped"


def test_a_source_checkout_uses_its_own_folders(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BME_RESOURCE_ROOT", raising=False)
    assert paths.shipped_root() == ROOT
    monkeypatch.setenv("BME_RESOURCE_ROOT", "/somewhere/else")
    assert paths.shipped_root() == Path("/somewhere/else")
