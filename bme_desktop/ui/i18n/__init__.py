"""Interface language: pick it (setting, ``--lang``, system locale) and install the translator."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLocale, QTranslator

LANGUAGES = ("en", "zh")
QM_NAMES = {"zh": "bme_zh_CN"}  # English is the source language: no file


def resolve_language(cli: str | None, setting: str, system: QLocale | None = None) -> str:
    """``--lang`` wins, then the saved setting, then the system locale ("auto")."""
    if cli in LANGUAGES:
        return cli
    if setting in LANGUAGES:
        return setting
    locale = system or QLocale.system()
    return "zh" if locale.language() == QLocale.Language.Chinese else "en"


def install_translator(app: QCoreApplication, language: str, folder: Path,
                       previous: QTranslator | None = None) -> QTranslator | None:
    """Remove ``previous`` and install the translator for ``language``; None for English."""
    if previous is not None:
        app.removeTranslator(previous)
    name = QM_NAMES.get(language)
    if name is None:
        return None
    translator = QTranslator(app)
    if not translator.load(str(folder / f"{name}.qm")):
        raise FileNotFoundError(f"{folder / (name + '.qm')}: translation missing or unreadable")
    app.installTranslator(translator)
    return translator
