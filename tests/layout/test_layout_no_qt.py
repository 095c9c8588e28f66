"""The layout package is pure numpy/scipy: importing it must not pull in Qt or OpenGL."""

from __future__ import annotations

import subprocess
import sys


def test_layout_imports_no_qt() -> None:
    code = (
        "import sys, bme_desktop.layout as L\n"
        "L.ForceLayout(10, [[0, 1]]).run(5)\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph', "
        "'OpenGL')]\n"
        "print(bad)\n"
        "sys.exit(1 if bad else 0)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
