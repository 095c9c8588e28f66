"""The extension as a zip whose root is the extension (``manifest.json`` at the top), as
SillyTavern's "Install extension" from a URL expects of a hosted copy."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

from .install import CONNECTION_FILE, InstallError, extension_source

_LEFT_OUT_DIRS = {"test", "node_modules", "__pycache__"}
_FIXED_TIME = (2026, 1, 1, 0, 0, 0)  # the same files give the same bytes


def extension_files(source: Path) -> list[Path]:
    files = []
    for path in sorted(source.rglob("*")):
        rel = path.relative_to(source)
        if (
            path.is_file()
            and not any(p in _LEFT_OUT_DIRS or p.startswith(".") for p in rel.parts)
            and path.name != CONNECTION_FILE
        ):
            files.append(path)
    return files


def package_extension(output: Path, source: Path | None = None) -> Path:
    """Write the extension's zip to ``output`` (atomically) and return it."""
    source = source or extension_source()
    if not (source / "manifest.json").is_file():
        raise InstallError(f"the extension is missing from this installation ({source})")
    tmp = output.with_name(f".{output.name}.{os.getpid()}.tmp")
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            for path in extension_files(source):
                info = zipfile.ZipInfo(path.relative_to(source).as_posix(), _FIXED_TIME)
                info.external_attr = 0o644 << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, path.read_bytes())
        os.replace(tmp, output)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise InstallError(f"cannot write {output}: {exc.strerror or exc}") from exc
    return output
