"""The window fits a 1366×768 laptop screen (issue 19.8): whatever panel or view is in front, a
selected memory included, its minimum size leaves room for a taskbar. Columns of fields and
cards scroll (Overview, the memory editor) instead of setting the window's height."""

from __future__ import annotations

import pytest

from bme_desktop.ui import welcome
from bme_desktop.ui.app import DesktopApp
from bme_desktop.ui.wait_idle import settle, timers_pending

SCREEN = (1366, 768 - 40)  # a taskbar


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_panel_and_view_fits_a_1366_by_768_screen(
    qtbot, desktop: DesktopApp, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(welcome, "DEMO_SCALE", 1)
    desktop.set_language(lang)
    window = desktop.window
    window.resize(*SCREEN)
    window.show()
    window.welcome.open_demo()
    assert settle(desktop.context.runner, quiet_ms=150, pending=timers_pending(desktop.context))
    for key in ("review", "memories", "patrol", "injection", "actions", "persona", "settings", "overview"):
        window.show_panel(key)  # review selects its first memory: the editor shows every field
        for view in ("graph2d", "nebula", "timeline"):
            window.show_panel(view)
            hint = window.minimumSizeHint()
            assert hint.width() <= SCREEN[0] and hint.height() <= SCREEN[1], (key, view, hint)
