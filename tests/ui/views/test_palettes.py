"""Colours stay apart in every theme: the node types' hues (both views colour by them) and the
community palette, measured as perceptual distance (OKLab; ~0.02 is just noticeable)."""

from __future__ import annotations

import itertools

import pytest

from bme_desktop.ui.resources import themes_dir
from bme_desktop.ui.theming.colors import contrast, distance
from bme_desktop.ui.theming.model import load_themes
from bme_desktop.ui.views.graph_colors import COMMUNITY_COLOURS, community_palette, type_palette

THEMES = load_themes(themes_dir())
MIN_TYPE_DISTANCE = 0.10  # Violet Haze's event/rule/fact/character were 0.06-0.09 apart: "one hue"
MIN_COMMUNITY_DISTANCE = 0.08
MIN_CONTRAST = 3.0  # against the background: every colour shows on the canvas


def closest(colours: list[str]) -> tuple[float, str, str]:
    return min((distance(a, b), a, b) for a, b in itertools.combinations(colours, 2))


def test_the_four_themes_are_checked() -> None:
    assert {t.label for t in THEMES.values()} >= {
        "Crimson Synth",
        "Neon Cyan",
        "Amber Console",
        "Violet Haze",
    }


@pytest.mark.parametrize("name", sorted(THEMES))
def test_node_type_colours_are_distinct(name: str) -> None:
    theme = THEMES[name]
    colours = list(theme.nodes.values())
    d, a, b = closest(colours)
    assert d >= MIN_TYPE_DISTANCE, f"{name}: {a} and {b} are only {d:.3f} apart"
    assert all(contrast(c, theme.color("background")) >= MIN_CONTRAST for c in colours)


@pytest.mark.parametrize("name", sorted(THEMES))
def test_community_colours_are_distinct(name: str) -> None:
    theme = THEMES[name]
    palette = community_palette(theme)
    assert len(palette) == COMMUNITY_COLOURS + 1
    d, a, b = closest(palette)
    assert d >= MIN_COMMUNITY_DISTANCE, f"{name}: {a} and {b} are only {d:.3f} apart"
    assert all(contrast(c, theme.color("background")) >= MIN_CONTRAST for c in palette)
    assert type_palette(theme)[: len(theme.nodes)] == [theme.node_color(t) for t in theme.nodes]
