"""Guards: the core and the layout engine never import Qt or OpenGL."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "bme_desktop"
FORBIDDEN = ("PySide6", "pyqtgraph", "OpenGL", "shiboken6")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_core_and_layout_sources_import_no_qt() -> None:
    offenders = []
    for folder in ("core", "layout"):
        for path in (PACKAGE / folder).rglob("*.py"):
            bad = {m for m in imported_modules(path) if m.split(".")[0] in FORBIDDEN}
            if bad:
                offenders.append(f"{path.relative_to(PACKAGE)}: {sorted(bad)}")
    assert offenders == []


def test_importing_the_core_loads_no_qt_module() -> None:
    code = (
        "import sys, pkgutil, importlib, bme_desktop.core as c, bme_desktop.layout as l\n"
        "for pkg in (c, l):\n"
        "    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
        "        importlib.import_module(m.name)\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
