"""Theme-coloured copies of the line icons in ``resources/icons/`` for the style sheet.

A style sheet draws an image only from a file (``image: url(...)``) and cannot tint it, so the icons
are drawn in ``currentColor`` and ``{{ icon(arrow-up, primary) }}`` in ``base.qss`` writes a copy in
that theme colour, once per icon and colour, to a private folder of the theme manager's
:class:`ColoredIcons`, removed when it is collected or the process exits.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import weakref
from pathlib import Path

from ..resources import icon_path
from .colors import is_hex

_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")


class IconError(ValueError):
    """An icon the style sheet asks for is missing or cannot be coloured."""


class ColoredIcons:
    """Coloured copies of the package icons, written once each to a folder of this object's own
    (made on first use, mode 0700, removed when the object is collected or the process exits)."""

    def __init__(self) -> None:
        self._folder: Path | None = None

    def _cache_folder(self) -> Path:
        if self._folder is None or not self._folder.is_dir():
            self._folder = Path(tempfile.mkdtemp(prefix="bme-desktop-icons-"))
            weakref.finalize(self, shutil.rmtree, self._folder, True)  # also runs at exit
        return self._folder

    def path(self, name: str, color: str) -> Path:
        """The file of ``resources/icons/<name>.svg`` with ``currentColor`` painted ``color``
        (``#rrggbb``)."""
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
        target = self._cache_folder() / f"{name}-{color[1:].lower()}.svg"
        if not target.is_file():
            partial = target.with_suffix(f".{os.getpid()}.tmp")
            partial.write_text(svg.replace("currentColor", color.lower()), encoding="utf-8")
            partial.replace(target)
        return target

    def url(self, name: str, color: str) -> str:
        """``url("…")`` of :meth:`path`, for a style sheet (forward slashes on every platform)."""
        return f'url("{self.path(name, color).as_posix()}")'
