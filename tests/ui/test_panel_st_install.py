"""Installing the SillyTavern extension copies it into the chosen user's extensions folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from bme_desktop.ui.st_install import InstallError, extension_source, find_users, install_extension


def fake_sillytavern(root: Path) -> Path:
    for name in ("default-user", "alice", "_storage"):
        (root / "data" / name).mkdir(parents=True)
    (root / "server.js").write_text("// SillyTavern\n")
    return root


def test_the_extension_lands_in_the_users_extensions_folder(tmp_path: Path) -> None:
    st = fake_sillytavern(tmp_path / "SillyTavern")
    assert find_users(st) == ["default-user", "alice"]
    target = install_extension(st, "alice")
    assert target == st / "data" / "alice" / "extensions" / "bme-desktop"
    assert (target / "manifest.json").read_bytes() == (extension_source() / "manifest.json").read_bytes()
    assert (target / "index.js").is_file() and (target / "lib").is_dir()
    assert not (target / "test").exists()  # the node test suites are not needed at run time


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
