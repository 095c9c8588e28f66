"""Copy the SillyTavern extension into a SillyTavern folder (Qt-free; the Settings panel asks
for the folder and the user, this module does the copying).

SillyTavern serves a user's third-party extensions from ``<ST>/data/<user>/extensions/<name>/``
(``default-user`` unless accounts are on); see ``resources/sillytavern-extension/README.md``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from .resources import project_root

EXTENSION_NAME = "bme-desktop"
_SKIP = ("test", "node_modules", ".*", "__pycache__")


class InstallError(Exception):
    """The extension cannot be installed there; the message says why."""


def extension_source() -> Path:
    return project_root() / "resources" / "sillytavern-extension"


def find_users(st_root: Path) -> list[str]:
    """The SillyTavern user folders under ``<ST>/data`` (``default-user`` first)."""
    data = st_root / "data"
    if not data.is_dir():
        return []
    users = sorted(p.name for p in data.iterdir() if p.is_dir() and not p.name.startswith(("_", ".")))
    if "default-user" in users:
        users.remove("default-user")
        users.insert(0, "default-user")
    return users


def target_dir(st_root: Path, user: str) -> Path:
    return st_root / "data" / user / "extensions" / EXTENSION_NAME


def install_extension(st_root: Path, user: str, source: Path | None = None) -> Path:
    """Copy the extension to ``<ST>/data/<user>/extensions/bme-desktop/``, replacing an older
    copy only once the new one is complete; returns the folder written."""
    source = source or extension_source()
    if not (source / "manifest.json").is_file():
        raise InstallError(f"the extension is missing from this installation ({source})")
    if user not in find_users(st_root):
        raise InstallError(f"{st_root} has no SillyTavern user folder data/{user}")
    target = target_dir(st_root, user)
    staging = target.with_name(f".{EXTENSION_NAME}.installing")
    old = target.with_name(f".{EXTENSION_NAME}.old")
    try:
        for leftover in (staging, old):
            if leftover.exists():
                shutil.rmtree(leftover)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(source, staging, ignore=shutil.ignore_patterns(*_SKIP))
        if target.exists():
            target.rename(old)
        staging.rename(target)
        if old.exists():
            shutil.rmtree(old)
    except OSError as exc:
        raise InstallError(f"cannot write {target}: {exc.strerror or exc}") from exc
    return target
