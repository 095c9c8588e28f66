"""Themes are data: they load, validate, render to palette and QSS, and switch live."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from bme_desktop.core.schema import NODE_TYPES, RELATIONS
from bme_desktop.ui.resources import themes_dir
from bme_desktop.ui.theming import ThemeError, ThemeManager, load_theme, load_themes
from bme_desktop.ui.theming.colors import contrast, darken, lighten
from bme_desktop.ui.theming.icons import ColoredIcons
from bme_desktop.ui.theming.model import RELATION_BUCKETS, theme_from_json
from bme_desktop.ui.theming.qt import gl_clear_color, palette_for, stylesheet_for
from bme_desktop.ui.theming.template import TemplateError, render

NAMES = ("crimson-synth", "neon-cyan", "amber-console", "violet-haze")


def test_the_four_themes_load_and_cover_every_node_type() -> None:
    themes = load_themes(themes_dir())
    assert set(NAMES) <= set(themes)
    for theme in themes.values():
        assert set(theme.nodes) == set(NODE_TYPES)


@pytest.mark.parametrize("name", NAMES)
def test_each_theme_renders_a_palette_and_a_complete_stylesheet(qapp: object, name: str) -> None:
    theme = load_theme(themes_dir() / f"{name}.json")
    qss = stylesheet_for(theme, themes_dir() / "base.qss", ColoredIcons())
    assert "{{" not in qss and "}}" not in qss
    assert theme.color("primary") in qss
    assert palette_for(theme).color(QPalette.ColorRole.Window).name() == theme.color("background")
    assert gl_clear_color(theme)[3] == 1.0


def test_every_relation_has_an_edge_colour_bucket() -> None:
    assert set(RELATION_BUCKETS) == set(RELATIONS)


def _raw(name: str = "crimson-synth") -> dict[str, object]:
    return json.loads((themes_dir() / f"{name}.json").read_text())  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    "breakage, message",
    [
        (lambda d: d["colors"].pop("primary"), "missing token colors.primary"),
        (lambda d: d["nodes"].update(event="red"), "nodes.event must be a #rrggbb"),
        (lambda d: d["colors"].update(text=d["colors"]["surface"]), "contrast"),
        (lambda d: d["edges"].update(sparkle="#ffffff"), "unknown token edges.sparkle"),
    ],
)
def test_a_broken_theme_is_refused_with_the_key_named(breakage: object, message: str) -> None:
    data = _raw()
    breakage(data)  # type: ignore[operator]
    with pytest.raises(ThemeError, match=message):
        theme_from_json(data)


def test_a_theme_whose_name_differs_from_its_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.json"
    path.write_text(json.dumps(_raw()))
    with pytest.raises(ThemeError, match="differs from the file name"):
        load_theme(path)


def test_template_helpers_and_unknown_tokens() -> None:
    tokens = {"bg": "#808080"}
    assert (
        render("a{{ darken(bg, 10) }}b{{ lighten(bg, 10) }}", tokens)
        == f"a{darken('#808080', 10)}b{lighten('#808080', 10)}"
    )
    assert darken("#808080", 10) < "#808080" < lighten("#808080", 10)
    assert render("{{ rgba(bg, 0.5) }}", tokens) == "rgba(128, 128, 128, 128)"
    with pytest.raises(TemplateError):
        render("{{ nothing }}", tokens)
    assert round(contrast("#000000", "#ffffff")) == 21


def test_switching_theme_changes_the_application_palette_live(qapp: QApplication) -> None:
    manager = ThemeManager(themes_dir())
    seen: list[str] = []
    manager.sigThemeChanged.connect(lambda theme: seen.append(theme.name))
    for name in ("neon-cyan", "amber-console"):
        manager.apply(name)
        expected = manager.themes[name]
        assert QApplication.palette().color(QPalette.ColorRole.Highlight).name() == expected.color(
            "selection"
        )
        assert expected.color("background") in qapp.styleSheet()
    assert seen == ["neon-cyan", "amber-console"]


def test_a_theme_picked_from_the_menu_restyles_the_views_in_the_next_turn_with_painting_held(
    qtbot, desktop
) -> None:
    window = desktop.window
    window.show()
    seen: list[str] = []
    desktop.context.themes.sigThemeChanged.connect(lambda theme: seen.append(theme.name))
    action = next(a for a in window.menus.themes.actions() if a.data() != desktop.context.themes.current.name)
    action.trigger()
    assert desktop.context.themes.current.name == action.data()  # the style sheet is the new one
    assert seen == [] and not window.updatesEnabled()  # the views wait; nothing half-styled paints
    qtbot.waitUntil(lambda: seen == [action.data()] and window.updatesEnabled(), timeout=10000)
