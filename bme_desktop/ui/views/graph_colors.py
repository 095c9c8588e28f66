"""What the graph views colour by: node type (the theme's colours) or community (a palette made
for the theme), and the legend entries that say what each colour means. No widgets."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..labels import node_type_label
from ..theming import Theme
from ..theming.colors import from_oklch, oklch_of, to_oklab
from .communities import Communities
from .graph_data import TYPE_NAMES, IntArray

BY_TYPE, BY_COMMUNITY = "type", "community"
COMMUNITY_COLOURS = 12  # the biggest communities get a colour each; the rest share the muted one
WHEEL_STEP = 5  # coprime with 12: the list visits every hue, 150° apart from one to the next


def community_palette(theme: Theme) -> list[str]:
    """``COMMUNITY_COLOURS`` distinct colours for the theme, then the muted one for the rest.

    Hues evenly spaced from the theme's primary hue (OKLCH), neighbours on the wheel alternately
    lighter and darker (so even the closest hues differ in lightness), at the lightness of the
    theme's node colours; the list goes round the wheel in big steps, so the biggest communities
    get the most different colours.
    """
    base_l = float(np.mean([to_oklab(c)[0] for c in theme.nodes.values()]))
    start = oklch_of(theme.color("primary"))[2]
    step = 360.0 / COMMUNITY_COLOURS
    wheel = [
        from_oklch(min(base_l, 0.76) + (0.08 if k % 2 == 0 else -0.06), 0.16, (start + k * step) % 360)
        for k in range(COMMUNITY_COLOURS)
    ]
    out = [wheel[(k * WHEEL_STEP) % COMMUNITY_COLOURS] for k in range(COMMUNITY_COLOURS)]
    out.append(theme.color("text_muted"))
    return out


def type_palette(theme: Theme) -> list[str]:
    return [theme.node_color(t) for t in (*TYPE_NAMES, "")]


def colour_index(mode: str, type_idx: IntArray, group: IntArray, communities: Communities) -> IntArray:
    """Per node, its row in the palette of ``mode``."""
    if mode != BY_COMMUNITY:
        return type_idx
    coloured = np.zeros(communities.count + 1, dtype=bool)  # the extra slot: not detected yet (-1)
    coloured[: communities.count] = communities.loose_type < 0
    coloured[COMMUNITY_COLOURS:] = False
    return np.where(coloured[group], group, COMMUNITY_COLOURS).astype(np.int64)


@dataclass(frozen=True)
class LegendEntry:
    colour: str
    text: str
    count: int
    group: int = -1  # the community (for a click to highlight it); -1 for types and "other"
    type_idx: int = -1


def legend_entries(
    mode: str,
    theme: Theme,
    type_idx: IntArray,
    shown: np.ndarray,
    communities: Communities,
    group: IntArray,
    other_text: str,
) -> list[LegendEntry]:
    """What each colour on screen means, most nodes first (only colours of shown nodes)."""
    if mode != BY_COMMUNITY:
        counts = np.bincount(type_idx[shown], minlength=len(TYPE_NAMES) + 1)
        names = (*TYPE_NAMES, "")
        return [
            LegendEntry(
                theme.node_color(names[t]),
                node_type_label(names[t]) if names[t] else other_text,
                int(counts[t]),
                type_idx=t,
            )
            for t in np.argsort(-counts, kind="stable")
            if counts[t]
        ]
    palette = community_palette(theme)
    counts = np.bincount(group[shown] + 1, minlength=communities.count + 1)[1:]
    out = []
    rest = int((group[shown] < 0).sum())
    for g in range(communities.count):
        if not counts[g]:
            continue
        if g < COMMUNITY_COLOURS and communities.loose_type[g] < 0:
            out.append(LegendEntry(palette[g], communities.names[g], int(counts[g]), group=g))
        else:
            rest += int(counts[g])
    if rest:
        out.append(LegendEntry(palette[-1], other_text, rest))
    return out
