"""The navigation toolbar: every central view and every panel one click away, not only under menus.

Views (timeline, graph, nebula) are exclusive checkable buttons: the one on screen is checked
(none while the welcome page shows). Panels are checkable buttons too: a click brings the panel
to the front (shown if it was closed), and a button is checked while its panel is on screen,
so a panel tabbed behind another reads unchecked. Checked buttons are drawn as such by
``QToolButton:checked`` in ``themes/base.qss``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QToolBar

if TYPE_CHECKING:
    from .main_window import MainWindow

NAV_PANELS = ("memories", "review", "overview", "patrol", "injection", "actions", "persona", "settings")


@dataclass
class Navigation:
    bar: QToolBar
    views: dict[str, QAction]
    panels: dict[str, QAction]
    window: MainWindow

    def retranslate(self) -> None:
        """The buttons' titles in the current language (after the docks have theirs)."""
        self.bar.setWindowTitle(QCoreApplication.translate("Navigation", "Navigation"))
        for spec in self.window.view_specs:
            if spec.key in self.views:
                self.views[spec.key].setText(spec.title())
        for key, action in self.panels.items():
            action.setText(self.window.docks[key].windowTitle())


def build_navigation(window: MainWindow) -> Navigation:
    bar = QToolBar(QCoreApplication.translate("Navigation", "Navigation"), window)
    bar.setObjectName("navigation")
    bar.setMovable(False)
    bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
    window.addToolBar(Qt.ToolBarArea.TopToolBarArea, bar)
    group = QActionGroup(bar)
    group.setExclusionPolicy(QActionGroup.ExclusionPolicy.ExclusiveOptional)
    views: dict[str, QAction] = {}
    for spec in window.view_specs:
        action = bar.addAction(spec.title())
        action.setCheckable(True)
        action.setObjectName(f"nav-{spec.key}")
        action.triggered.connect(lambda _checked=False, key=spec.key: window.show_panel(key))
        group.addAction(action)
        views[spec.key] = action

    def follow_view() -> None:
        current = window.stack.currentWidget()
        for key, action in views.items():
            action.setChecked(window.views.get(key) is current)
        if current not in window.views.values() and group.checkedAction() is not None:
            group.checkedAction().setChecked(False)

    window.stack.currentChanged.connect(lambda _i: follow_view())
    follow_view()
    bar.addSeparator()
    panels: dict[str, QAction] = {}
    for key in NAV_PANELS:
        dock = window.docks.get(key)
        if dock is None:
            continue
        action = bar.addAction(dock.windowTitle())
        action.setCheckable(True)
        action.setObjectName(f"nav-{key}")

        def bring(_checked: bool = False, key: str = key, action: QAction = action) -> None:
            window.show_panel(key)
            action.setChecked(True)  # a click never hides a panel (View → Panels closes one)

        action.triggered.connect(bring)
        dock.visibilityChanged.connect(action.setChecked)
        action.setChecked(dock.isVisible() and not dock.visibleRegion().isEmpty())
        panels[key] = action
    return Navigation(bar=bar, views=views, panels=panels, window=window)
