"""Colour arithmetic on ``#rrggbb`` strings: parse, darken/lighten, mix, alpha, contrast.

Pure Python so themes can be validated and rendered without Qt.
"""

from __future__ import annotations

import colorsys
import re

HEX_RE = re.compile(r"^#[0-9a-fA-F]{6}$")


def is_hex(value: object) -> bool:
    return isinstance(value, str) and bool(HEX_RE.match(value))


def to_rgb(color: str) -> tuple[int, int, int]:
    if not is_hex(color):
        raise ValueError(f"not a #rrggbb colour: {color!r}")
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def to_hex(rgb: tuple[float, float, float]) -> str:
    r, g, b = (max(0, min(255, round(c))) for c in rgb)
    return f"#{r:02x}{g:02x}{b:02x}"


def _shift_lightness(color: str, amount: float) -> str:
    r, g, b = (c / 255 for c in to_rgb(color))
    h, lightness, s = colorsys.rgb_to_hls(r, g, b)
    lightness = max(0.0, min(1.0, lightness + amount))
    return to_hex(tuple(c * 255 for c in colorsys.hls_to_rgb(h, lightness, s)))  # type: ignore[arg-type]


def darken(color: str, percent: float) -> str:
    """Lower the HSL lightness by ``percent`` points (0–100)."""
    return _shift_lightness(color, -percent / 100)


def lighten(color: str, percent: float) -> str:
    return _shift_lightness(color, percent / 100)


def mix(a: str, b: str, weight: float) -> str:
    """``weight`` of ``b`` blended into ``a`` (0 → a, 1 → b)."""
    ra, rb = to_rgb(a), to_rgb(b)
    return to_hex(tuple(x + (y - x) * weight for x, y in zip(ra, rb, strict=True)))  # type: ignore[arg-type]


def rgba(color: str, alpha: float) -> str:
    """A QSS ``rgba(r, g, b, a)`` with ``alpha`` in 0–1."""
    r, g, b = to_rgb(color)
    return f"rgba({r}, {g}, {b}, {round(alpha * 255)})"


def _luminance(color: str) -> float:
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in to_rgb(color))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio between two colours (1–21)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)
