"""Installing the SillyTavern extension: into the chosen user's extensions folder, paired with the
bridge, refused (with nothing written) where it cannot go; and packaged as a zip."""

from __future__ import annotations

import json
import os
import stat
import zipfile
from pathlib import Path

import pytest

from bme_desktop.cli import main
from bme_desktop.sillytavern.install import (
    CONNECTION_FILE,
    InstallError,
    check_sillytavern,
    extension_source,
    find_sillytavern,
    find_users,
    install_extension,
)
from bme_desktop.sillytavern.package import package_extension

TOKEN = "sillytavern-test-token-0123456789abcdef"


def fake_sillytavern(root: Path, version: str = "1.12.6") -> Path:
    for name in ("default-user", "alice", "_storage"):
        (root / "data" / name).mkdir(parents=True)
    (root / "server.js").write_text("// SillyTavern\n")
    (root / "package.json").write_text(json.dumps({"name": "sillytavern", "version": version}))
    return root


def test_the_extension_lands_in_the_users_extensions_folder(tmp_path: Path) -> None:
    st = fake_sillytavern(tmp_path / "SillyTavern")
    assert find_users(st) == ["default-user", "alice"]
    target = install_extension(st, "alice")
    assert target == st / "data" / "alice" / "extensions" / "bme-desktop"
    assert (target / "manifest.json").read_bytes() == (extension_source() / "manifest.json").read_bytes()
    assert (target / "index.js").is_file() and (target / "lib" / "pairing.js").is_file()
    assert not (target / "test").exists()  # the node test suites are not needed at run time
    assert not (target / CONNECTION_FILE).exists()  # not paired unless asked


def test_reinstalling_replaces_the_old_copy(tmp_path: Path) -> None:
    st = fake_sillytavern(tmp_path / "st")
    target = install_extension(st, "default-user")
    (target / "stale.js").write_text("old")
    install_extension(st, "default-user")
    assert not (target / "stale.js").exists()
    assert (target / "manifest.json").is_file()
    assert sorted(p.name for p in target.parent.iterdir()) == ["bme-desktop"]


def test_a_folder_without_that_user_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InstallError, match="no SillyTavern user"):
        install_extension(tmp_path, "default-user")
    assert not (tmp_path / "data").exists()


def test_pairing_writes_the_bridge_address_and_token_for_the_user_only(tmp_path: Path) -> None:
    st = fake_sillytavern(tmp_path / "st")
    target = install_extension(st, "default-user", connection=("http://127.0.0.1:7317", TOKEN))
    written = json.loads((target / CONNECTION_FILE).read_text())
    assert written["url"] == "http://127.0.0.1:7317" and written["token"] == TOKEN
    assert isinstance(written["written_at"], float)
    if os.name == "posix":
        assert stat.S_IMODE((target / CONNECTION_FILE).stat().st_mode) == 0o600


@pytest.mark.parametrize(
    ("setup", "says"),
    [
        (lambda p: p, "is not a folder"),
        (lambda p: (p.mkdir(), p)[1], "no readable package.json"),
        (
            lambda p: (p.mkdir(), (p / "package.json").write_text('{"name": "express"}'), p)[2],
            "names another",
        ),
        (lambda p: fake_sillytavern(p, "1.11.8"), "1.11.8 in .* is too old"),
        (lambda p: fake_sillytavern(p, "nightly"), "too old"),
    ],
)
def test_what_is_not_a_supported_sillytavern_is_refused(tmp_path: Path, setup: object, says: str) -> None:
    folder = setup(tmp_path / "st")  # type: ignore[operator]
    with pytest.raises(InstallError, match=says):
        check_sillytavern(folder)


def test_sillytavern_is_found_in_the_usual_places(tmp_path: Path) -> None:
    fake_sillytavern(tmp_path / "SillyTavern")
    fake_sillytavern(tmp_path / "Documents" / "SillyTavern", "1.10.0")  # too old: not offered
    assert [(s.root, s.version) for s in find_sillytavern(tmp_path)] == [(tmp_path / "SillyTavern", "1.12.6")]


def test_the_cli_installs_and_pairs_with_the_configured_bridge(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    st = fake_sillytavern(tmp_path / "st")
    data = tmp_path / "data"
    data.mkdir()
    (data / "settings.json").write_text(json.dumps({"bridge": {"port": 7400}}))
    monkeypatch.setenv("BME_BRIDGE_TOKEN", TOKEN)
    assert main(["sillytavern", "install", "--st-dir", str(st), "--data-dir", str(data)]) == 0
    out = capsys.readouterr().out
    assert "SillyTavern 1.12.6, user default-user" in out and "connects by itself" in out
    written = json.loads(
        (st / "data" / "default-user" / "extensions" / "bme-desktop" / CONNECTION_FILE).read_text()
    )
    assert (written["url"], written["token"]) == ("http://127.0.0.1:7400", TOKEN)


def test_the_cli_refuses_a_missing_user_and_installs_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    st = fake_sillytavern(tmp_path / "st")
    code = main(
        [
            "sillytavern",
            "install",
            "--st-dir",
            str(st),
            "--user",
            "bob",
            "--no-pair",
            "--data-dir",
            str(tmp_path / "data"),
        ]
    )
    assert code == 2 and "has no SillyTavern user 'bob'" in capsys.readouterr().err
    assert not list((st / "data").glob("*/extensions"))


def test_an_unwritable_target_is_a_clear_error_and_leaves_nothing_half_installed(tmp_path: Path) -> None:
    st = fake_sillytavern(tmp_path / "st")
    (st / "data" / "default-user" / "extensions").write_text("a file where the folder should be")
    with pytest.raises(InstallError, match="cannot write"):
        install_extension(st, "default-user", connection=("http://127.0.0.1:7317", TOKEN))
    assert sorted(p.name for p in (st / "data" / "default-user").iterdir()) == ["extensions"]


def test_the_zip_has_the_extension_at_its_root_and_no_tests(tmp_path: Path) -> None:
    first = package_extension(tmp_path / "a.zip")
    second = package_extension(tmp_path / "b.zip")
    with zipfile.ZipFile(first) as archive:
        names = archive.namelist()
    assert "manifest.json" in names and "index.js" in names and "lib/pairing.js" in names
    assert not [n for n in names if n.startswith(("test/", "node_modules/")) or n == CONNECTION_FILE]
    assert first.read_bytes() == second.read_bytes()  # the same files give the same zip
