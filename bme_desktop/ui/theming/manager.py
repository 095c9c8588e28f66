"""ThemeManager: holds the loaded themes and applies one live to the application."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QWidget
from shiboken6 import isValid

from .icons import ColoredIcons
from .model import Theme, ThemeError, load_themes
from .qt import palette_for, stylesheet_for

DEFAULT_THEME = "crimson-synth"
# A menu switch's next turn: a timer, not a queued call (Qt runs those before the timers due, so
# the event loop's own timers, input and the heartbeat, would wait for both turns in one stall).
TURN_MS = 1


def restyle(app: QApplication, palette: QPalette, sheet: str, *, thaw: bool = True) -> list[QWidget]:
    """Give ``app`` a new palette and style sheet in one pass over its widgets.

    Replacing one application style sheet with another makes Qt's style sheet style repolish
    every widget it had styled and, for each, its descendants again: with the main window's
    1,164 widgets that was 8,088 polish + StyleChange rounds (up to 14 for one widget, its depth)
    and ≈ 400 ms of CPU (issue 19). Dropping the old sheet, then setting the new one, is two
    rounds per widget (2,328, ≈ 100 ms) and ends as the first sheet set at start-up does. The
    windows do not paint in between (updates off; nothing here runs the event loop either).
    With ``thaw=False`` they stay that way: the caller turns their updates back on (``thaw``)
    and gets the windows it froze.
    """
    windows = freeze(app)
    try:
        drop_sheet(app, palette, sheet)
        set_sheet(app, sheet)
    finally:
        if thaw:
            _thaw(windows)
    return windows


def freeze(app: QApplication) -> list[QWidget]:
    """Turn painting off in the visible top-level windows that paint; the windows frozen."""
    windows = [w for w in app.topLevelWidgets() if w.isVisible() and w.updatesEnabled()]
    for window in windows:
        window.setUpdatesEnabled(False)
    return windows


def drop_sheet(app: QApplication, palette: QPalette, sheet: str) -> None:
    """The first of ``restyle``'s two rounds: the new palette, and the old style sheet dropped
    (unless it is ``sheet`` already)."""
    with _no_gc():
        app.setPalette(palette)
        if app.styleSheet() and app.styleSheet() != sheet:
            app.setStyleSheet("")


def set_sheet(app: QApplication, sheet: str) -> None:
    """The second round: ``sheet`` set (nothing when it is set already)."""
    if sheet != app.styleSheet():
        with _no_gc():
            app.setStyleSheet(sheet)


@contextmanager
def _no_gc() -> Iterator[None]:
    """The polish events make thousands of short-lived wrappers: no collection in the middle."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def _thaw(windows: list[QWidget]) -> None:
    for window in windows:
        if isValid(window):
            window.setUpdatesEnabled(True)


class ThemeManager(QObject):
    """Widgets that draw by hand (plots, GL views) connect to ``sigThemeChanged`` and restyle."""

    sigThemeChanged = Signal(object)  # Theme

    def __init__(self, folder: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.themes: dict[str, Theme] = load_themes(folder)
        if not self.themes:
            raise ThemeError(f"{folder}: no themes found")
        self._template = folder / "base.qss"
        self._icons = ColoredIcons()  # the style sheet's coloured arrow images
        self._current = self.themes.get(DEFAULT_THEME) or next(iter(self.themes.values()))
        self._switch = 0  # switches asked for: a menu switch's later turns run if no other came since
        self._announced = 0  # the last switch whose views have restyled
        self._frozen: list[QWidget] = []  # windows a menu switch holds unpainted until its last turn

    @property
    def current(self) -> Theme:
        return self._current

    @property
    def switching(self) -> bool:
        """Whether a switch picked from the menu has turns left (its views not restyled yet)."""
        return self._announced < self._switch

    def apply(self, name: str, app: QApplication | None = None, *, views_later: bool = False) -> Theme:
        """Switch to theme ``name`` (unknown names fall back to the default) and restyle the app.

        ``views_later`` (a switch the user picks in the running app): the switch runs in three
        turns of the event loop, each a shorter stall of the GUI thread than the whole (issue 19,
        "never freeze": ≈ 50 + 40 ms of CPU in one stall at 10k memories): the new palette and
        the old style sheet dropped now, the new sheet set in the next turn, then what draws by
        hand (``sigThemeChanged``: the graph, the charts) restyles. The windows' painting is held
        from the first turn to the last, so no frame shows half of each theme; input is handled
        in between. A switch picked before the last one finished takes over its turns."""
        theme = self.themes.get(name) or self.themes.get(DEFAULT_THEME) or self._current
        app = app or QApplication.instance()  # type: ignore[assignment]
        self._current = theme
        self._switch += 1
        if app is None:
            self._announce(self._switch)
            return theme
        sheet = stylesheet_for(theme, self._template, self._icons)
        if not views_later:
            restyle(app, palette_for(theme), sheet)
            self._announce(self._switch)  # a menu switch still under way: this one completes it
            return theme
        self._frozen += freeze(app)
        drop_sheet(app, palette_for(theme), sheet)
        switch = self._switch
        QTimer.singleShot(TURN_MS, self, lambda: self._set_sheet(switch, app, sheet))
        return theme

    def _set_sheet(self, switch: int, app: QApplication, sheet: str) -> None:
        if switch != self._switch:  # another switch took over
            return
        try:
            set_sheet(app, sheet)
        finally:
            QTimer.singleShot(TURN_MS, self, lambda: self._announce(switch))

    def _announce(self, switch: int) -> None:
        if switch != self._switch:
            return
        self._announced = switch
        try:
            self.sigThemeChanged.emit(self._current)
        finally:
            self._thaw_frozen()

    def _thaw_frozen(self) -> None:
        frozen, self._frozen = self._frozen, []
        _thaw(frozen)
