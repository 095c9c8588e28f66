"""Colour arithmetic on ``#rrggbb`` strings: parse, darken/lighten, mix, alpha, contrast.

Pure Python so themes can be validated and rendered without Qt.
"""

from __future__ import annotations

import colorsys
import math
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


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _gamma(c: float) -> float:
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def to_oklab(color: str) -> tuple[float, float, float]:
    """OKLab (Ottosson 2020) of a ``#rrggbb``: perceptual lightness and two opponent axes."""
    r, g, b = (_linear(c / 255) for c in to_rgb(color))
    lc = (0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b) ** (1 / 3)
    mc = (0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b) ** (1 / 3)
    sc = (0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b) ** (1 / 3)
    return (
        0.2104542553 * lc + 0.7936177850 * mc - 0.0040720468 * sc,
        1.9779984951 * lc - 2.4285922050 * mc + 0.4505937099 * sc,
        0.0259040371 * lc + 0.7827717662 * mc - 0.8086757660 * sc,
    )


def _oklab_to_linear(lightness: float, a: float, b: float) -> tuple[float, float, float]:
    lc = (lightness + 0.3963377774 * a + 0.2158037573 * b) ** 3
    mc = (lightness - 0.1055613458 * a - 0.0638541728 * b) ** 3
    sc = (lightness - 0.0894841775 * a - 1.2914855480 * b) ** 3
    return (
        4.0767416621 * lc - 3.3077115913 * mc + 0.2309699292 * sc,
        -1.2684380046 * lc + 2.6097574011 * mc - 0.3413193965 * sc,
        -0.0041960863 * lc - 0.7034186147 * mc + 1.7076147010 * sc,
    )


def from_oklch(lightness: float, chroma: float, hue_deg: float) -> str:
    """A ``#rrggbb`` of that OKLCH colour; chroma is reduced until it fits in sRGB."""
    h = math.radians(hue_deg)
    for step in range(40):
        c = chroma * (1 - step / 40)
        rgb = _oklab_to_linear(lightness, c * math.cos(h), c * math.sin(h))
        if all(-1e-4 <= v <= 1 + 1e-4 for v in rgb):
            break
    return to_hex(tuple(255 * _gamma(min(1.0, max(0.0, v))) for v in rgb))  # type: ignore[arg-type]


def oklch_of(color: str) -> tuple[float, float, float]:
    lightness, a, b = to_oklab(color)
    return lightness, math.hypot(a, b), math.degrees(math.atan2(b, a)) % 360


def distance(a: str, b: str) -> float:
    """Perceptual distance of two colours (Euclidean in OKLab; ~0.02 is just noticeable)."""
    return math.dist(to_oklab(a), to_oklab(b))
