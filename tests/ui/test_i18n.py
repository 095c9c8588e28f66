"""Every visible string goes through Qt's translation system: the zh build shows no English."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from PySide6.QtCore import QCoreApplication, QLocale, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QComboBox,
    QDockWidget,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QTabBar,
    QTableView,
    QWidget,
)

from bme_desktop.core.model import Node
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.i18n import install_translator, resolve_language
from bme_desktop.ui.main_window import MainWindow
from bme_desktop.ui.resources import translations_dir

# Proper names and technical words that stay in Latin letters in Chinese too.
WHITELIST = {
    "BME",
    "Desktop",
    "SQLite",
    "English",
    "Crimson",
    "Synth",
    "Neon",
    "Cyan",
    "Amber",
    "Console",
    "Violet",
    "Haze",
    "Ctrl",
    "Lyra",
    "OpenGL",
    "offscreen",
    "SillyTavern",
}  # product, platform names
WORD = re.compile(r"[A-Za-z]{3,}")
MARKUP = re.compile(r"<[^>]*>|&\w+;")  # rich text's tags and entities are not shown


def shown_text(widget: QLabel, text: str) -> str:
    rich = widget.textFormat() == Qt.TextFormat.RichText or (
        widget.textFormat() == Qt.TextFormat.AutoText and text.lstrip().startswith("<")
    )
    return MARKUP.sub(" ", text) if rich else text


def visible_texts(window: MainWindow) -> Iterator[tuple[str, str]]:
    for widget in window.findChildren(QWidget):
        if isinstance(widget, QLabel):
            yield "QLabel", shown_text(widget, widget.text())
        elif isinstance(widget, QAbstractButton):
            yield type(widget).__name__, widget.text()
        if isinstance(widget, QLineEdit | QPlainTextEdit):
            yield "placeholder", widget.placeholderText()
        if isinstance(widget, QComboBox):
            yield from (("combo", widget.itemText(i)) for i in range(widget.count()))
        if isinstance(widget, QDockWidget):
            yield "dock", widget.windowTitle()
        if isinstance(widget, QTabBar):
            yield from (("tab", widget.tabText(i)) for i in range(widget.count()))
        if isinstance(widget, QTableView) and widget.model() is not None:
            model = widget.model()
            yield from (
                ("header", str(model.headerData(c, Qt.Orientation.Horizontal)))
                for c in range(model.columnCount())
            )
        if isinstance(widget, QMenu):
            yield "menu", widget.title()
            yield from (("action", a.text()) for a in widget.actions())


@pytest.fixture
def chinese(qapp: QApplication) -> Iterator[None]:
    translator = install_translator(qapp, "zh", translations_dir())
    yield
    english = install_translator(qapp, "en", translations_dir(), translator)
    if english is not None:  # the tests after run without a translator, as before
        qapp.removeTranslator(english)


def test_the_zh_build_has_no_untranslated_visible_strings(
    qtbot, chinese: None, context: AppContext, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    node = seed("character", {"name": "Lyra", "state": "守灯人"})
    context.language = "zh"
    window = MainWindow(context)
    qtbot.addWidget(window)
    window.show()
    settled()
    context.sigNodeSelected.emit(node.id)
    settled()
    data_paths = str(context.data_dir)
    untranslated = [
        (kind, text)
        for kind, text in visible_texts(window)
        if any(w not in WHITELIST for w in WORD.findall(text.replace(data_paths, "")))
    ]
    assert untranslated == []


def test_the_english_source_shows_english(qapp: QApplication) -> None:
    assert QCoreApplication.translate("Panels", "Memories") == "Memories"


def test_language_comes_from_the_flag_then_the_setting_then_the_locale() -> None:
    chinese_locale = QLocale(QLocale.Language.Chinese, QLocale.Country.China)
    assert resolve_language("en", "zh", chinese_locale) == "en"
    assert resolve_language(None, "zh", QLocale(QLocale.Language.English)) == "zh"
    assert resolve_language(None, "auto", chinese_locale) == "zh"
    assert resolve_language(None, "auto", QLocale(QLocale.Language.German)) == "en"


def test_english_reads_its_plurals_right(qapp: QApplication) -> None:
    """'1 time(s)' reads '1 time': English's translation holds the plural forms."""
    from PySide6.QtCore import QCoreApplication

    from bme_desktop.ui.panels.actions import progress_text
    from bme_desktop.ui.panels.review import Review

    translator = install_translator(qapp, "en", translations_dir())
    assert translator is not None
    try:
        assert Review().promoted(1) == "Promoted to long-term memory after being recalled 1 time."
        assert Review().promoted(3) == "Promoted to long-term memory after being recalled 3 times."
        assert QCoreApplication.translate("GraphToolbar", "%n step(s) around", "", 1) == "1 step around"
        assert QCoreApplication.translate("GraphToolbar", "%n step(s) around", "", 2) == "2 steps around"
        assert progress_text("extract", 1, 1) == "1 of 1 message read"
        assert progress_text("rebuild_vectors", 5, 20) == "5 of 20 memories embedded"
    finally:
        qapp.removeTranslator(translator)


def test_every_plural_of_the_interface_has_its_english_forms() -> None:
    """A message with plural forms (``self.tr(text, "", n)``) is in bme_en.ts, both forms filled,
    neither with '(s)': the update script adds new ones there as unfinished."""
    import xml.etree.ElementTree as ET

    root = ET.parse(translations_dir() / "bme_en.ts").getroot()
    messages = root.findall(".//message")
    assert len(messages) >= 10
    for message in messages:
        source = message.findtext("source") or ""
        translation = message.find("translation")
        assert message.get("numerus") == "yes" and translation is not None, source
        forms = [f.text or "" for f in translation.findall("numerusform")]
        assert translation.get("type") is None and len(forms) == 2 and all(forms), source
        assert not any("(s)" in f for f in forms), source
    assert (translations_dir() / "bme_en.qm").is_file()
