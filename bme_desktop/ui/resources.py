"""Where the UI's data files live: themes, translations and icons beside the package."""

from __future__ import annotations

import os
from pathlib import Path


def project_root() -> Path:
    """The folder holding ``themes/`` and ``resources/`` (``BME_RESOURCE_ROOT`` overrides it)."""
    env = os.environ.get("BME_RESOURCE_ROOT")
    return Path(env) if env else Path(__file__).resolve().parents[2]


def themes_dir() -> Path:
    return project_root() / "themes"


def translations_dir() -> Path:
    return project_root() / "resources" / "translations"


def icon_path(name: str = "bme-desktop.svg") -> Path:
    return project_root() / "resources" / "icons" / name
