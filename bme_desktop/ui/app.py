"""``gui_main``: start the desktop app (or render one screenshot) over a data folder."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QLockFile, QSettings, QTranslator
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QMessageBox

from ..core.errors import StoreError
from ..core.paths import ensure_private_dir
from ..core.service import MemoryService
from ..core.settings import Settings, SettingsError, load_settings
from ..runtime_tuning import freeze_long_lived, thaw_long_lived
from .bridge_host import HostedBridge
from .companion import CompanionWindow
from .context import AppContext
from .i18n import install_translator, resolve_language
from .main_window import APP_NAME, MainWindow
from .panel_tabs import split_panel
from .resources import icon_path, themes_dir, translations_dir
from .theming import ThemeError, ThemeManager
from .wait_idle import settle

SCREENSHOT_SIZE = (1440, 900)


class DesktopApp:
    """Owns the service, the context and the window for one data folder."""

    def __init__(
        self,
        app: QApplication,
        data_dir: Path,
        args: argparse.Namespace,
        settings: Settings,
        service: MemoryService,
        themes: ThemeManager,
    ) -> None:
        self.app, self.data_dir, self.args = app, data_dir, args
        self.context = AppContext(service, themes, settings, data_dir)
        self.reopen_in: Path | None = None  # another data folder to open after this window closes
        self.hosted: HostedBridge | None = None  # the bridge, once gui_main has started it
        language = resolve_language(getattr(args, "lang", None), settings.appearance.language)
        self.translator: QTranslator | None = install_translator(app, language, translations_dir())
        self.context.language = language
        self.ui_state = QSettings(str(data_dir / "ui-state.ini"), QSettings.Format.IniFormat)
        self.window = self._make_window()
        from .tray import make_tray

        self.tray_status, self.tray = make_tray(self.context, lambda: self.window, app.windowIcon(), app)
        self.companion: CompanionWindow | None = None  # made when first asked for
        if self.tray is not None:
            self.tray.companion_action.toggled.connect(self.show_companion)

    def show_companion(self, shown: bool = True) -> None:
        """Show or hide the companion window (View menu, tray); both toggles follow it."""
        if shown and self.companion is None:
            self.companion = CompanionWindow(self.context, self.tray_status.bridge)
            self.companion.setWindowIcon(self.app.windowIcon())
            self.tray_status.sigChanged.connect(self._bridge_changed)
            self.companion.sigVisibilityChanged.connect(self._companion_shown)
        if self.companion is not None and self.companion.isVisible() != shown:
            self.companion.setVisible(shown)
            if shown:
                self.companion.raise_()
        self._companion_shown(shown)

    def _bridge_changed(self) -> None:
        if self.companion is not None:
            self.companion.set_bridge_status(self.tray_status.bridge)

    def _companion_shown(self, shown: bool) -> None:
        toggles = [self.window.menus.companion]
        if self.tray is not None:
            toggles.append(self.tray.companion_action)
        for action in toggles:
            if action.isChecked() != shown:
                action.blockSignals(True)
                action.setChecked(shown)
                action.blockSignals(False)

    def _make_window(self) -> MainWindow:
        window = MainWindow(self.context)
        window.setWindowIcon(self.app.windowIcon())
        window.sigLanguageRequested.connect(self._language_requested)
        window.sigDataDirRequested.connect(self._data_dir_requested)
        window.sigClosed.connect(self.save_state)
        window.sigCompanionToggled.connect(self.show_companion)
        companion = getattr(self, "companion", None)
        window.menus.companion.setChecked(companion is not None and companion.isVisible())
        return window

    def set_language(self, language: str) -> None:
        """Switch the interface language in place: the same window, its views and the user's
        place are kept; Qt's ``LanguageChange`` makes every widget retranslate itself (issue 19:
        building a new window stalled the event loop and left the old one's views wired)."""
        if language == self.context.language:
            return
        self.translator = install_translator(self.app, language, translations_dir(), self.translator)
        self.context.language = language
        # delivered now, not at the next turn of the loop: the window reads the new language on return
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LanguageChange)
        self.tray_status.set_bridge(self.hosted.status if self.hosted is not None else None)
        if self.tray is not None:
            self.tray.retranslate()

    def _language_requested(self, language: str) -> None:
        self.context.settings.appearance.language = language
        self.context.save_settings()
        self.set_language(language)

    def _data_dir_requested(self, folder: str) -> None:
        """Open ``folder`` in a new BME Desktop once this one has closed (and let go of its lock
        and its bridge port): see ``gui_main``."""
        if Path(folder).resolve() == self.data_dir.resolve():
            return
        self.reopen_in = Path(folder)
        self.window.close()

    def restore_state(self) -> None:
        geometry, state = self.ui_state.value("window/geometry"), self.ui_state.value("window/state")
        if geometry is not None:
            self.window.restoreGeometry(geometry)
        if state is not None:
            self.window.restoreState(state)

    def save_state(self) -> None:
        self.ui_state.setValue("window/geometry", self.window.saveGeometry())
        self.ui_state.setValue("window/state", self.window.saveState())
        self.ui_state.sync()

    def start(self) -> None:
        if getattr(self.args, "demo", False):
            scale = int(getattr(self.args, "demo_scale", 8))
            self.context.operate(
                lambda s, origin: s.build_demo(scale=scale, origin=origin),
                lambda _result: self.window.chats.refresh(),
            )
        panel = getattr(self.args, "panel", None)
        if panel:
            self.window.show_panel(panel)

    def screenshot(self, path: Path) -> int:
        self.window.resize(*SCREENSHOT_SIZE)
        self.window.show()
        self.start()
        settle(self.context.runner)
        panel = getattr(self.args, "panel", None)
        if panel:
            self.window.show_panel(panel)
            settle(self.context.runner)
        path.parent.mkdir(parents=True, exist_ok=True)
        if not self.window.grab().save(str(path), "PNG"):
            print(f"bme-desktop: cannot write {path}", file=sys.stderr)
            return 1
        return 0

    def close(self) -> None:
        if self.companion is not None:
            self.companion.close()
            self.companion.deleteLater()
        if self.tray is not None:
            self.tray.close()
        self.context.close()
        self.window.close()
        self.window.deleteLater()


def _fail(message: str, quiet: bool) -> int:
    print(f"bme-desktop: {message}", file=sys.stderr)
    if not quiet:
        QMessageBox.critical(None, "BME Desktop", message)
    return 2


DESKTOP_ID = "bme-desktop"  # the .desktop file's name, Wayland app id and X11 WM_CLASS instance


def _application() -> QApplication:
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        # argv[0] names the X11 window class instance: "bme-desktop", not "__main__.py" (python -m)
        app = QApplication([DESKTOP_ID])
    app.setApplicationName(APP_NAME)
    app.setOrganizationName("BME")
    app.setApplicationDisplayName(APP_NAME)
    app.setDesktopFileName(DESKTOP_ID)
    app.setWindowIcon(QIcon(str(icon_path())))
    return app


def reopen(folder: Path, args: argparse.Namespace) -> None:
    """Start BME Desktop over ``folder`` in a new process (same language and theme options)."""
    command = [sys.executable, "-m", "bme_desktop", "--data-dir", str(folder)]
    for option in ("lang", "theme"):
        value = getattr(args, option, None)
        if value:
            command += [f"--{option}", value]
    subprocess.Popen(command, start_new_session=True)


def gui_main(data_dir: Path, args: argparse.Namespace) -> int:
    app = _application()
    screenshot = getattr(args, "screenshot", None)
    quiet = bool(screenshot)
    try:
        split_panel(getattr(args, "panel", None) or "")
    except ValueError as exc:  # before anything is created or written
        return _fail(str(exc), quiet)
    ensure_private_dir(data_dir)
    lock = QLockFile(str(data_dir / "bme-desktop.lock"))
    lock.setStaleLockTime(0)
    if not lock.tryLock(200):
        return _fail(f"another BME Desktop window already has {data_dir} open", quiet)
    desktop: DesktopApp | None = None
    try:
        try:
            settings = load_settings(data_dir)
            themes = ThemeManager(themes_dir())
        except (SettingsError, ThemeError) as exc:
            return _fail(str(exc), quiet)
        themes.apply(getattr(args, "theme", None) or settings.appearance.theme, app)
        try:
            service = MemoryService.open(
                data_dir, database_url=getattr(args, "database_url", None), settings=settings
            )
        except (StoreError, SettingsError) as exc:
            return _fail(str(exc), quiet)
        desktop = DesktopApp(app, data_dir, args, settings, service, themes)
        try:
            if screenshot:
                return desktop.screenshot(Path(screenshot))
            hosted = None
            if not getattr(args, "no_bridge", False):
                from .bridge_host import start_bridge

                hosted = desktop.hosted = start_bridge(service, data_dir, settings)
                desktop.context.bridge = hosted.server
                desktop.window.set_bridge_status(hosted.describe)
                desktop.tray_status.set_bridge(hosted.status)
            desktop.restore_state()
            desktop.window.show()
            desktop.start()
            freeze_long_lived()  # the start-up's objects out of the collections (GIL pauses)
            try:
                return int(app.exec())
            finally:
                thaw_long_lived()
                if hosted is not None:
                    hosted.stop(data_dir)
        finally:
            desktop.close()
            service.close()
    finally:
        lock.unlock()
        if desktop is not None and desktop.reopen_in is not None:
            reopen(desktop.reopen_in, args)
