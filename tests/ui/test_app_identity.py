"""The app names itself "BME Desktop" with a desktop id, not after ``__main__.py`` (issue 19)."""

from __future__ import annotations

from pathlib import Path

from bme_desktop.ui.app import DESKTOP_ID, _application
from bme_desktop.ui.main_window import window_title


def test_the_application_has_a_desktop_id_and_name(qapp: object) -> None:
    app = _application()
    assert app.desktopFileName() == DESKTOP_ID == "bme-desktop"
    assert app.applicationDisplayName() == "BME Desktop"


def test_the_window_title_is_bme_desktop_for_the_default_folder(data_dir: Path, tmp_path: Path) -> None:
    assert window_title(data_dir) == "BME Desktop"  # the fixture makes data_dir the default folder
    assert window_title(tmp_path / "story-b") == "story-b — BME Desktop"


def test_the_main_window_uses_that_title(desktop: object) -> None:
    assert desktop.window.windowTitle() == "BME Desktop"  # type: ignore[attr-defined]
