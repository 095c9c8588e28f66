"""Refresh the translation files: ``python -m bme_desktop.ui.i18n.update``.

Runs ``pyside6-lupdate`` over the UI sources (new strings are added to the ``.ts`` as
unfinished, translations kept) and ``pyside6-lrelease`` to compile the ``.qm`` the app loads.
English, the source language, gets only the messages with plural forms (``-pluralonly``): fill
their ``<numerusform>`` entries (one, other).
Both tools ship with PySide6-Essentials.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from ..resources import project_root, translations_dir
from . import PLURAL_ONLY, QM_NAMES


def _tool(name: str) -> str:
    beside = Path(sys.executable).with_name(name)
    found = str(beside) if beside.exists() else shutil.which(name)
    if not found:
        raise SystemExit(f"{name} not found; install PySide6-Essentials")
    return found


def main() -> int:
    sources = sorted(str(p) for p in (project_root() / "bme_desktop" / "ui").rglob("*.py"))
    for language, name in QM_NAMES.items():
        ts = translations_dir() / f"{name}.ts"
        target = "zh_CN" if language == "zh" else language
        only = ["-pluralonly"] if language in PLURAL_ONLY else []
        subprocess.run(
            [
                _tool("pyside6-lupdate"),
                *sources,
                "-ts",
                str(ts),
                "-source-language",
                "en",
                "-target-language",
                target,
                "-no-obsolete",
                *only,
            ],
            check=True,
        )
        subprocess.run([_tool("pyside6-lrelease"), str(ts), "-qm", str(ts.with_suffix(".qm"))], check=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
