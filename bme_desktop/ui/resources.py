"""Where the UI's data files live: themes, translations and icons beside the package."""

from __future__ import annotations

from pathlib import Path

from ..core.paths import shipped_root


def project_root() -> Path:
    """The folder holding ``themes/`` and ``resources/`` (``BME_RESOURCE_ROOT`` overrides it)."""
    return shipped_root()


def themes_dir() -> Path:
    return project_root() / "themes"


def translations_dir() -> Path:
    return project_root() / "resources" / "translations"


def icon_path(name: str = "bme-desktop.svg") -> Path:
    return project_root() / "resources" / "icons" / name
