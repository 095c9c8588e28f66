"""Render the app icon (resources/icons/bme-desktop.svg) for the Windows and macOS bundles:
build/icons/bme-desktop.ico (256 px) and build/icons/bme-desktop.png (1024 px; PyInstaller turns it
into the .app's .icns when Pillow is installed). Run before PyInstaller on those systems:
``python packaging/pyinstaller/make_icons.py``. Linux needs none: the desktop entry uses the SVG."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

ROOT = Path(__file__).resolve().parents[2]


def render(size: int) -> QImage:
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    QSvgRenderer(str(ROOT / "resources" / "icons" / "bme-desktop.svg")).render(painter)
    painter.end()
    return image


def main() -> int:
    _app = QGuiApplication(sys.argv[:1])
    out = ROOT / "build" / "icons"
    out.mkdir(parents=True, exist_ok=True)
    for name, size, fmt in (("bme-desktop.ico", 256, "ICO"), ("bme-desktop.png", 1024, "PNG")):
        if not render(size).save(str(out / name), fmt):
            print(f"could not write {out / name} (no {fmt} image writer in this Qt)", file=sys.stderr)
            return 1
        print(out / name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
