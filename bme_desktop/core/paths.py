"""Where data lives: the platform's user data folder unless told otherwise."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "bme-desktop"


def default_data_dir() -> Path:
    """``BME_DATA_DIR`` if set, else the platform's user data folder (e.g. ~/.local/share/bme-desktop)."""
    env = os.environ.get("BME_DATA_DIR")
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def resolve_data_dir(given: str | os.PathLike[str] | None) -> Path:
    return Path(given).expanduser().resolve() if given else default_data_dir().resolve()
