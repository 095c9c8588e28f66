"""Dock panels. To add one: write a ``QWidget`` subclass taking ``(context: AppContext)`` in its
own module and add a :class:`PanelSpec` to :func:`panel_specs`; the main window makes the dock,
the View → Panels entry and the ``--panel KEY`` switch for it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QWidget

from ..context import AppContext


@dataclass(frozen=True)
class PanelSpec:
    key: str
    title: Callable[[], str]  # translated at call time
    factory: Callable[[AppContext], QWidget]
    area: Qt.DockWidgetArea = Qt.DockWidgetArea.RightDockWidgetArea
    visible: bool = True  # shown on first start


def _overview(context: AppContext) -> QWidget:
    from .overview import OverviewPanel

    return OverviewPanel(context)


def _memories(context: AppContext) -> QWidget:
    from .memories import MemoriesPanel

    return MemoriesPanel(context)


def _review(context: AppContext) -> QWidget:
    from .review import ReviewPanel

    return ReviewPanel(context)


def _patrol(context: AppContext) -> QWidget:
    from .patrol import PatrolPanel

    return PatrolPanel(context)


def _injection(context: AppContext) -> QWidget:
    from .injection import InjectionPanel

    return InjectionPanel(context)


def _actions(context: AppContext) -> QWidget:
    from .actions import ActionsPanel

    return ActionsPanel(context)


def _settings(context: AppContext) -> QWidget:
    from .settings import SettingsPanel

    return SettingsPanel(context)


def _persona(context: AppContext) -> QWidget:
    from .persona import PersonaPanel

    return PersonaPanel(context)


def panel_specs() -> tuple[PanelSpec, ...]:
    left, right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
    return (
        PanelSpec("overview", lambda: QCoreApplication.translate("Panels", "Overview"), _overview, left),
        PanelSpec("memories", lambda: QCoreApplication.translate("Panels", "Memories"), _memories, right),
        PanelSpec("review", lambda: QCoreApplication.translate("Panels", "Review"), _review, right),
        PanelSpec("patrol", lambda: QCoreApplication.translate("Panels", "Patrol"), _patrol, right),
        PanelSpec(
            "injection",
            lambda: QCoreApplication.translate("Panels", "Injection"),
            _injection,
            right,
            visible=False,
        ),
        PanelSpec(
            "actions", lambda: QCoreApplication.translate("Panels", "Actions"), _actions, right, visible=False
        ),
        PanelSpec(
            "settings",
            lambda: QCoreApplication.translate("Panels", "Settings"),
            _settings,
            right,
            visible=False,
        ),
        PanelSpec(
            "persona", lambda: QCoreApplication.translate("Panels", "Persona"), _persona, right, visible=False
        ),
    )
