"""A theme is data: semantic colour tokens loaded from ``themes/<name>.json`` and validated.

Widgets never hold colour literals; they ask the theme for a token (``theme.color("primary")``,
``theme.node_color("event")``, ``theme.edge_color("updates")``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ...core.schema import NODE_TYPES
from .colors import contrast, is_hex

COLOR_TOKENS = (
    "background",
    "surface",
    "surface_alt",
    "border",
    "text",
    "text_muted",
    "primary",
    "secondary",
    "accent",
    "warning",
    "error",
    "success",
    "selection",
)
EDGE_BUCKETS = ("association", "participation", "causal", "update", "conflict")
# Which colour bucket draws each relation (a few pens, never one per edge).
RELATION_BUCKETS: Mapping[str, str] = MappingProxyType(
    {
        "related": "association",
        "involved_in": "participation",
        "occurred_at": "participation",
        "advances": "causal",
        "updates": "update",
        "evolves": "update",
        "temporal_update": "update",
        "contradicts": "conflict",
    }
)
MIN_TEXT_CONTRAST = 7.0
MIN_MUTED_CONTRAST = 4.5


class ThemeError(ValueError):
    """A theme file is missing a token or holds a bad value; the message names file and key."""


@dataclass(frozen=True)
class Theme:
    name: str
    label: str
    colors: Mapping[str, str]
    nodes: Mapping[str, str]
    edges: Mapping[str, str]

    def color(self, token: str) -> str:
        return self.colors[token]

    def node_color(self, node_type: str) -> str:
        return self.nodes.get(node_type, self.colors["text_muted"])

    def edge_color(self, relation: str) -> str:
        return self.edges[RELATION_BUCKETS.get(relation, "association")]

    def tokens(self) -> dict[str, str]:
        """Every token flat, for templates: ``primary``, ``node_event``, ``edge_update`` …"""
        out = dict(self.colors)
        out.update({f"node_{k}": v for k, v in self.nodes.items()})
        out.update({f"edge_{k}": v for k, v in self.edges.items()})
        return out


def _section(data: Mapping[str, Any], key: str, names: tuple[str, ...], where: str) -> dict[str, str]:
    section = data.get(key)
    if not isinstance(section, dict):
        raise ThemeError(f"{where}: '{key}' must be an object")
    unknown = set(section) - set(names)
    if unknown:
        raise ThemeError(f"{where}: unknown token {key}.{sorted(unknown)[0]}")
    for name in names:
        if name not in section:
            raise ThemeError(f"{where}: missing token {key}.{name}")
        if not is_hex(section[name]):
            raise ThemeError(f"{where}: {key}.{name} must be a #rrggbb colour (got {section[name]!r})")
    return {name: section[name].lower() for name in names}


def theme_from_json(data: Any, where: str = "theme") -> Theme:
    if not isinstance(data, dict):
        raise ThemeError(f"{where}: must be a JSON object")
    name, label = data.get("name"), data.get("label")
    if not isinstance(name, str) or not name or not isinstance(label, str) or not label:
        raise ThemeError(f"{where}: 'name' and 'label' must be non-empty text")
    colors = _section(data, "colors", COLOR_TOKENS, where)
    nodes = _section(data, "nodes", tuple(NODE_TYPES), where)
    edges = _section(data, "edges", EDGE_BUCKETS, where)
    for token, minimum in (("text", MIN_TEXT_CONTRAST), ("text_muted", MIN_MUTED_CONTRAST)):
        for ground in ("background", "surface"):
            ratio = contrast(colors[token], colors[ground])
            if ratio < minimum:
                raise ThemeError(f"{where}: {token} on {ground} has contrast {ratio:.1f}, below {minimum}")
    return Theme(name, label, MappingProxyType(colors), MappingProxyType(nodes), MappingProxyType(edges))


def load_theme(path: Path) -> Theme:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ThemeError(f"{path}: cannot be read as JSON ({exc})") from exc
    theme = theme_from_json(data, str(path))
    if theme.name != path.stem:
        raise ThemeError(f"{path}: name {theme.name!r} differs from the file name")
    return theme


def load_themes(folder: Path) -> dict[str, Theme]:
    """All ``*.json`` themes in ``folder``, by name, in file-name order."""
    return {t.name: t for t in (load_theme(p) for p in sorted(folder.glob("*.json")))}
