"""Number fields keep visible, working up/down arrows in every theme: the style sheet styles the
buttons and draws the arrows from ``resources/icons/`` painted in the theme's colours."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QApplication, QSpinBox, QStyle, QStyleOptionSpinBox
from pytestqt.qtbot import QtBot

from bme_desktop.ui.resources import icon_path, themes_dir
from bme_desktop.ui.theming import ThemeManager, load_theme
from bme_desktop.ui.theming.icons import ColoredIcons
from bme_desktop.ui.theming.qt import stylesheet_for
from bme_desktop.ui.theming.template import TemplateError, render

NAMES = ("crimson-synth", "neon-cyan", "amber-console", "violet-haze")
SUBCONTROLS = ("up-button", "down-button", "up-arrow", "down-arrow")


@pytest.fixture
def themed(qapp: QApplication) -> Iterator[ThemeManager]:
    """A theme manager whose ``apply`` restyles the app; the app's look is put back afterwards."""
    sheet, palette = qapp.styleSheet(), qapp.palette()
    yield ThemeManager(themes_dir())
    qapp.setStyleSheet(sheet)
    qapp.setPalette(palette)


def _button_rect(box: QSpinBox, control: QStyle.SubControl) -> QRect:
    option = QStyleOptionSpinBox()
    box.initStyleOption(option)
    return box.style().subControlRect(QStyle.ComplexControl.CC_SpinBox, option, control, box)


def _pixels_near(image: QImage, rect: QRect, color: str, tolerance: int = 40) -> int:
    want = QColor(color)
    count = 0
    for y in range(rect.top(), rect.bottom() + 1):
        for x in range(rect.left(), rect.right() + 1):
            got = image.pixelColor(x, y)
            distance = (
                abs(got.red() - want.red()) + abs(got.green() - want.green()) + abs(got.blue() - want.blue())
            )
            count += distance <= tolerance
    return count


@pytest.mark.parametrize("name", NAMES)
def test_the_stylesheet_draws_spin_arrows_from_existing_images(qapp: QApplication, name: str) -> None:
    icons = ColoredIcons()  # its files live as long as it does
    qss = stylesheet_for(load_theme(themes_dir() / f"{name}.json"), themes_dir() / "base.qss", icons)
    for widget in ("QSpinBox", "QDoubleSpinBox"):
        for sub in SUBCONTROLS:
            assert f"{widget}::{sub}" in qss
    images = re.findall(r"::(up|down)-arrow[^{]*\{[^}]*image:\s*url\(\"([^\"]+)\"\)", qss)
    assert {side for side, _ in images} == {"up", "down"}
    for _, path in images:
        assert Path(path).is_file() and "#" in Path(path).read_text(encoding="utf-8")


@pytest.mark.parametrize("name", NAMES)
def test_spin_arrows_are_painted_and_the_buttons_step_the_value(
    qtbot: QtBot, themed: ThemeManager, name: str
) -> None:
    theme = themed.apply(name)
    box = QSpinBox()
    box.setRange(0, 65535)
    box.setValue(7317)
    box.resize(200, 30)
    qtbot.addWidget(box)
    box.show()
    qtbot.waitExposed(box)
    up, down = (
        _button_rect(box, c) for c in (QStyle.SubControl.SC_SpinBoxUp, QStyle.SubControl.SC_SpinBoxDown)
    )
    assert up.width() >= 12 and up.height() >= 8 and down.width() >= 12 and down.height() >= 8
    image = box.grab().toImage()
    for rect in (up, down):  # the arrow itself, in the theme's muted foreground
        assert _pixels_near(image, rect, theme.color("text_muted")) >= 4, f"{name}: no arrow drawn in {rect}"
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=up.center())
    assert box.value() == 7318
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=down.center())
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=down.center())
    assert box.value() == 7316
    qtbot.mouseMove(box, QPoint(up.center()))  # the arrow under the pointer takes the accent colour
    qtbot.waitUntil(lambda: _pixels_near(box.grab().toImage(), up, theme.color("primary")) >= 4, timeout=2000)


def test_an_icon_is_the_package_svg_painted_in_the_colour(tmp_path: Path) -> None:
    assert icon_path("arrow-up.svg").is_file() and icon_path("arrow-down.svg").is_file()
    icons = ColoredIcons()
    painted = icons.path("arrow-up", "#E94560")
    text = painted.read_text(encoding="utf-8")
    assert "#e94560" in text and "currentColor" not in text
    assert icons.path("arrow-up", "#e94560") == painted  # written once per icon and colour
    assert (
        render("{{ icon(arrow-down, fg) }}", {"fg": "#00e5ff"}, lambda n, c: f"{n}:{c}")
        == "arrow-down:#00e5ff"
    )


@pytest.mark.parametrize(
    ("template", "message"),
    [
        ("{{ icon(no-such-icon, fg) }}", "cannot be read"),
        ("{{ icon(arrow-up, nothing) }}", "unknown token 'nothing'"),
        ("{{ icon(../bme-desktop, fg) }}", "bad icon name"),
        ("{{ icon(arrow-up) }}", "an icon name and a colour"),
    ],
)
def test_a_bad_icon_in_the_template_is_refused(template: str, message: str) -> None:
    with pytest.raises(TemplateError, match=re.escape(message)):
        render(template, {"fg": "#ffffff"}, ColoredIcons().url)


def test_a_template_without_icons_refuses_icon() -> None:
    with pytest.raises(TemplateError, match="not available"):
        render("{{ icon(arrow-up, fg) }}", {"fg": "#ffffff"})


def test_the_coloured_copies_go_with_their_owner() -> None:
    import gc

    icons = ColoredIcons()
    folder = icons.path("arrow-up", "#00e5ff").parent
    assert folder.is_dir()
    del icons
    gc.collect()
    assert not folder.exists()
