"""Copy the SillyTavern extension into a SillyTavern folder and pair it with the bridge.

SillyTavern serves a user's third-party extensions from ``<ST>/data/<user>/extensions/<name>/``
(``default-user`` unless accounts are on); see ``resources/sillytavern-extension/README.md``.
Pairing: the bridge's URL and token go into ``bme-connection.json`` beside the installed
extension, which adopts them on its next load (``lib/pairing.js``), so no token is typed.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from ..core.paths import shipped_root
from ..core.secrets import write_private_file

EXTENSION_NAME = "bme-desktop"
CONNECTION_FILE = "bme-connection.json"
OLDEST_SUPPORTED = (1, 12, 0)
_SKIP = ("test", "node_modules", ".*", "__pycache__", CONNECTION_FILE)


class InstallError(Exception):
    """The extension cannot be installed there; the message says why."""


@dataclass(frozen=True)
class SillyTavern:
    root: Path
    version: str


def extension_source() -> Path:
    return shipped_root() / "resources" / "sillytavern-extension"


def _version_tuple(version: str) -> tuple[int, ...] | None:
    match = re.match(r"^(\d+)\.(\d+)(?:\.(\d+))?", version.strip())
    return tuple(int(p or 0) for p in match.groups()) if match else None


def check_sillytavern(st_root: Path) -> SillyTavern:
    """``st_root`` as a SillyTavern installation this extension supports, or InstallError saying
    why not (not a folder, not SillyTavern, too old)."""
    if not st_root.is_dir():
        raise InstallError(f"{st_root} is not a folder")
    try:
        package = json.loads((st_root / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise InstallError(f"{st_root} is not a SillyTavern folder (no readable package.json)") from None
    if not isinstance(package, dict) or str(package.get("name", "")).lower() != "sillytavern":
        raise InstallError(f"{st_root} is not a SillyTavern folder (its package.json names another program)")
    version = str(package.get("version", ""))
    parsed = _version_tuple(version)
    if parsed is None or parsed < OLDEST_SUPPORTED:
        oldest = ".".join(map(str, OLDEST_SUPPORTED))
        raise InstallError(
            f"SillyTavern {version or '(no version)'} in {st_root} is too old: "
            f"BME Desktop Memory needs {oldest} or newer"
        )
    return SillyTavern(st_root, version)


def candidate_folders(home: Path | None = None) -> list[Path]:
    """Where SillyTavern is usually cloned or unpacked."""
    home = home or Path.home()
    names = (
        "SillyTavern",
        "sillytavern",
        "SillyTavern-Launcher/SillyTavern",
        "Documents/SillyTavern",
        "Desktop/SillyTavern",
        "ST/SillyTavern",
        "apps/SillyTavern",
    )
    return [home / n for n in names]


def find_sillytavern(home: Path | None = None) -> list[SillyTavern]:
    """The supported SillyTavern installations found in the usual places."""
    found: list[SillyTavern] = []
    for folder in candidate_folders(home):
        try:
            found.append(check_sillytavern(folder))
        except InstallError:
            continue
    return found


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


def connection_json(url: str, token: str, written_at: float | None = None) -> str:
    return json.dumps(
        {"url": url, "token": token, "written_at": written_at if written_at is not None else time.time()}
    )


def install_extension(
    st_root: Path, user: str, source: Path | None = None, *, connection: tuple[str, str] | None = None
) -> Path:
    """Copy the extension to ``<ST>/data/<user>/extensions/bme-desktop/``, replacing an older
    copy only once the new one is complete; with ``connection`` (bridge URL, token) the copy is
    paired. Returns the folder written."""
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
        if connection is not None:
            write_private_file(staging / CONNECTION_FILE, connection_json(*connection))
        if target.exists():
            target.rename(old)
        staging.rename(target)
        if old.exists():
            shutil.rmtree(old)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise InstallError(f"cannot write {target}: {exc.strerror or exc}") from exc
    return target
