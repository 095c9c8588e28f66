"""Where data lives: the platform's user data folder unless told otherwise."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "bme-desktop"


def shipped_root() -> Path:
    """The folder holding the ``themes/`` and ``resources/`` that ship with the program:
    ``BME_RESOURCE_ROOT`` when set; the source tree beside the package (a checkout, an editable
    install); else the copy installed inside the package (``bme_desktop/_shipped``, from a wheel)."""
    env = os.environ.get("BME_RESOURCE_ROOT")
    if env:
        return Path(env)
    package = Path(__file__).resolve().parents[1]
    source = package.parent
    if (source / "themes").is_dir() and (source / "resources").is_dir():
        return source
    return package / "_shipped"


def default_data_dir() -> Path:
    """``BME_DATA_DIR`` if set, else the platform's user data folder (e.g. ~/.local/share/bme-desktop)."""
    env = os.environ.get("BME_DATA_DIR")
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def cache_dir() -> Path:
    """``BME_CACHE_DIR`` if set, else the platform's user cache folder (e.g. ~/.cache/bme-desktop):
    what can be made again (a built model graph), never data."""
    env = os.environ.get("BME_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False))


def resolve_data_dir(given: str | os.PathLike[str] | None) -> Path:
    return Path(given).expanduser().resolve() if given else default_data_dir().resolve()


PRIVATE_DIR_MODE = 0o700
PRIVATE_FILE_MODE = 0o600
POSIX = os.name == "posix"


def ensure_private_dir(path: Path) -> None:
    """Create the folder ``path`` (and missing parents) unless it exists; on POSIX the folder
    itself is made 0700, readable only by the user, whatever the umask. An existing folder
    keeps its mode (``loose_modes`` reports one that others can read)."""
    if path.is_dir():
        return
    path.mkdir(parents=True, exist_ok=True, mode=PRIVATE_DIR_MODE)
    if POSIX:
        os.chmod(path, PRIVATE_DIR_MODE)


def data_dir_problem(data_dir: Path) -> str | None:
    """Create ``data_dir`` (private) if needed; what is wrong with it for a long-running command, if
    anything (a one-line message naming the folder), else None."""
    try:
        ensure_private_dir(data_dir)
    except OSError as exc:
        return f"cannot create the data folder {data_dir}: {exc.strerror or exc}"
    if not data_dir.is_dir() or not os.access(data_dir, os.W_OK | os.X_OK):
        return f"the data folder {data_dir} is not a writable folder; choose another with --data-dir"
    return None


def create_private_file(path: Path) -> None:
    """Create ``path`` empty and readable only by the user (0600 on POSIX) unless it exists.
    SQLite then gives the ``-wal`` and ``-shm`` files it creates beside it the same mode."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE_MODE)
    except FileExistsError:
        return
    try:
        if POSIX:
            os.fchmod(fd, PRIVATE_FILE_MODE)
    finally:
        os.close(fd)


def loose_modes(folder: Path, names: tuple[str, ...]) -> list[str]:
    """``folder`` and its files ``names`` that other users may read or write (POSIX), each as
    ``PATH is 0755 (should be 0700)``; empty when all are private, missing or not on POSIX."""
    if not POSIX:
        return []
    found = []
    for path, private in (
        (folder, PRIVATE_DIR_MODE),
        *((folder / name, PRIVATE_FILE_MODE) for name in names),
    ):
        try:
            mode = path.stat().st_mode & 0o777
        except OSError:
            continue
        if mode & 0o077:
            found.append(f"{path} is {mode:04o} (should be {private:04o})")
    return found
