"""Interface language: pick it (setting, ``--lang``, system locale) and install the translator."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QLocale, QTranslator

LANGUAGES = ("en", "zh")
# English is the source language; its file holds only the plural forms ("%n time(s)" reads
# "1 time", "2 times"), made with lupdate's -pluralonly.
QM_NAMES = {"en": "bme_en", "zh": "bme_zh_CN"}
PLURAL_ONLY = ("en",)


def resolve_language(cli: str | None, setting: str, system: QLocale | None = None) -> str:
    """``--lang`` wins, then the saved setting, then the system locale ("auto")."""
    if cli in LANGUAGES:
        return cli
    if setting in LANGUAGES:
        return setting
    locale = system or QLocale.system()
    return "zh" if locale.language() == QLocale.Language.Chinese else "en"


def install_translator(
    app: QCoreApplication, language: str, folder: Path, previous: QTranslator | None = None
) -> QTranslator | None:
    """Remove ``previous`` and install the translator for ``language`` (English's holds only
    the plural forms); None for a language without a file."""
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


class Retranslated:
    """Mixin (before the Qt class) for a widget whose strings follow the interface language.

    Installing or removing a translator makes Qt send every widget a ``LanguageChange`` event;
    ``retranslate()`` then sets the widget's own strings again in the new language (Qt
    Designer's ``retranslateUi``), each child widget doing its own. A language switch thus
    keeps the window, its views, their data and the user's place (issue 19)."""

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)  # type: ignore[misc]

    def retranslate(self) -> None:
        """Set this widget's own strings in the current language (called at the end of
        ``__init__`` and on every language change)."""


class Texts:
    """Strings of objects that get no ``LanguageChange`` of their own (a menu's actions): each
    is set now and again by :meth:`apply`, which the owning widget's ``retranslate`` calls."""

    def __init__(self) -> None:
        self._bound: list[tuple[Callable[[str], object], Callable[[], str]]] = []

    def bind(self, setter: Callable[[str], object], text: Callable[[], str]) -> None:
        setter(text())
        self._bound.append((setter, text))

    def apply(self) -> None:
        for setter, text in self._bound:
            setter(text())
