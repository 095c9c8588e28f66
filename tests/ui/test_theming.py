"""Themes are data: they load, validate, render to palette and QSS, and switch live."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
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
    assert desktop.context.themes.current.name == action.data()  # the theme is the new one
    assert seen == [] and not window.updatesEnabled()  # the views wait; nothing half-styled paints
    qtbot.waitUntil(lambda: seen == [action.data()] and window.updatesEnabled(), timeout=10000)


def test_a_theme_picked_from_the_menu_lets_the_event_loop_turn_between_its_rounds(
    qtbot, desktop, qapp
) -> None:
    """Issue 19, "never freeze": the old sheet dropped, the new one set, the views restyled, each in
    its own turn of the event loop (a timer due meanwhile runs between them), painting held throughout."""
    window = desktop.window
    window.show()
    themes = desktop.context.themes
    seen: list[str] = []
    themes.sigThemeChanged.connect(lambda theme: seen.append(theme.name))
    action = next(a for a in window.menus.themes.actions() if a.data() != themes.current.name)
    turns: list[tuple[bool, bool]] = []  # (sheet set, views restyled) each time a timer ran
    timer = QTimer()  # a timer of the loop's own, as the app's heartbeat
    timer.setInterval(0)
    timer.timeout.connect(lambda: turns.append((qapp.styleSheet() != "", bool(seen))))
    timer.start()
    action.trigger()
    assert qapp.styleSheet() == "" and not window.updatesEnabled()  # the new sheet comes in a later turn
    assert themes.switching
    turns.clear()
    qtbot.waitUntil(lambda: seen == [action.data()] and window.updatesEnabled(), timeout=10000)
    timer.stop()
    assert not themes.switching
    assert (False, False) in turns and (True, False) in turns  # a turn after each of the first two rounds
    assert themes.themes[action.data()].color("background") in qapp.styleSheet()


def test_a_second_pick_before_the_first_finished_takes_over(qtbot, desktop, qapp) -> None:
    window = desktop.window
    window.show()
    themes = desktop.context.themes
    seen: list[str] = []
    themes.sigThemeChanged.connect(lambda theme: seen.append(theme.name))
    first, second = [a for a in window.menus.themes.actions() if a.data() != themes.current.name][:2]
    first.trigger()
    second.trigger()
    qtbot.waitUntil(lambda: bool(seen) and window.updatesEnabled(), timeout=10000)
    qtbot.wait(50)
    assert seen == [second.data()] and themes.current.name == second.data()
    assert themes.themes[second.data()].color("background") in qapp.styleSheet()
