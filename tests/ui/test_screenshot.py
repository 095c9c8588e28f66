"""``--screenshot`` renders the real window over a demo story to a PNG and exits 0."""

from __future__ import annotations

import argparse
from pathlib import Path

from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from bme_desktop.ui.app import gui_main


def _args(shot: Path, **extra: object) -> argparse.Namespace:
    values: dict[str, object] = {
        "database_url": None,
        "screenshot": str(shot),
        "theme": "violet-haze",
        "panel": "review",
        "lang": "en",
        "demo": True,
        "no_bridge": True,
        "demo_scale": 1,
    }
    values.update(extra)
    return argparse.Namespace(**values)


def test_screenshot_writes_a_png_that_is_not_one_colour(
    qapp: QApplication, data_dir: Path, tmp_path: Path
) -> None:
    shot = tmp_path / "shot.png"
    assert gui_main(data_dir, _args(shot)) == 0
    image = QImage(str(shot))
    assert not image.isNull() and image.width() > 800
    colours = {image.pixel(x, y) for x in range(0, image.width(), 37) for y in range(0, image.height(), 29)}
    assert len(colours) > 10


def test_a_second_window_on_the_same_data_folder_is_refused(
    qapp: QApplication, data_dir: Path, tmp_path: Path
) -> None:
    from PySide6.QtCore import QLockFile

    lock = QLockFile(str(data_dir / "bme-desktop.lock"))
    assert lock.tryLock(0)
    try:
        assert gui_main(data_dir, _args(tmp_path / "x.png", demo=False)) == 2
    finally:
        lock.unlock()
