"""What is not on screen costs nothing until it is: a panel tabbed behind another is built when it
is first shown, and the 2D graph restyles its points only when it is the central view (issue 19:
building every panel and restyling 10k hidden points stalled a language or theme switch)."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.model import MessageIn
from bme_desktop.ui.app import DesktopApp
from bme_desktop.ui.panels.settings import SettingsPanel
from bme_desktop.ui.views.graph2d import Graph2DView
from bme_desktop.ui.wait_idle import settle


def test_a_panel_behind_another_is_built_when_first_shown(qtbot, desktop: DesktopApp) -> None:
    window = desktop.window
    window.resize(1440, 900)
    window.show()
    settle(desktop.context.runner, quiet_ms=100)
    assert type(window.docks["settings"].widget()) is QWidget  # a placeholder: not built
    assert not window.findChildren(SettingsPanel)
    assert window.show_panel("settings")
    assert isinstance(window.docks["settings"].widget(), SettingsPanel)
    assert isinstance(window.panel("persona"), QWidget) and type(window.panel("persona")) is not QWidget


def test_the_hidden_graph_restyles_its_points_only_once_shown(qtbot, desktop: DesktopApp) -> None:
    service = desktop.context.service
    service.sync("chat-1", [MessageIn(index=0, role="user", text="hello")], complete=True)
    for i in range(3):
        service.create_node("chat-1", NodeDraft(type="fact", fields={"statement": f"fact {i}"}))
    window = desktop.window
    window.resize(1440, 900)
    window.show()
    desktop.context.counts.refresh()
    settle(desktop.context.runner, quiet_ms=100)
    view = window.views["graph2d"]
    assert isinstance(view, Graph2DView) and view.state.data.n > 0
    window.show_panel("graph2d")
    view.set_color_by("type")  # three unlinked facts: by community they share the muted colour
    window.show_panel("timeline")

    def colours() -> list[str]:
        return [b.color().name() for b in view.canvas.scatter.data["brush"]]

    before = colours()
    assert before
    desktop.context.themes.apply("neon-cyan")
    assert colours() == before  # hidden: nothing restyled
    window.show_panel("graph2d")
    fact = desktop.context.themes.current.node_color("fact")
    assert fact not in before
    assert colours() == [fact] * 3  # shown: restyled, with the new theme
