"""Theme-coloured copies of the line icons in ``resources/icons/`` for the style sheet.

A style sheet draws an image only from a file (``image: url(...)``) and cannot tint it, so the icons
are drawn in ``currentColor`` and ``{{ icon(arrow-up, primary) }}`` in ``base.qss`` writes a copy in
that theme colour, once per icon and colour, to a private folder removed when the process exits.
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import tempfile
from pathlib import Path

from ..resources import icon_path
from .colors import is_hex

_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_folder: Path | None = None


class IconError(ValueError):
    """An icon the style sheet asks for is missing or cannot be coloured."""


def _cache_folder() -> Path:
    global _folder
    if _folder is None or not _folder.is_dir():
        _folder = Path(tempfile.mkdtemp(prefix="bme-desktop-icons-"))  # mode 0700: this user only
        atexit.register(shutil.rmtree, _folder, True)
    return _folder


def colored_icon(name: str, color: str) -> Path:
    """The file of ``resources/icons/<name>.svg`` with ``currentColor`` painted ``color`` (``#rrggbb``)."""
    if not _NAME_RE.match(name):
        raise IconError(f"bad icon name {name!r}")
    if not is_hex(color):
        raise IconError(f"icon {name!r}: not a #rrggbb colour: {color!r}")
    source = icon_path(f"{name}.svg")
    try:
        svg = source.read_text(encoding="utf-8")
    except OSError as exc:
        raise IconError(f"{source}: cannot be read ({exc})") from exc
    if "currentColor" not in svg:
        raise IconError(f"{source}: draws nothing in currentColor, so it cannot take a theme colour")
    target = _cache_folder() / f"{name}-{color[1:].lower()}.svg"
    if not target.is_file():
        partial = target.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(svg.replace("currentColor", color.lower()), encoding="utf-8")
        partial.replace(target)
    return target


def icon_url(name: str, color: str) -> str:
    """``url("…")`` of :func:`colored_icon`, for a style sheet (forward slashes on every platform)."""
    return f'url("{colored_icon(name, color).as_posix()}")'
