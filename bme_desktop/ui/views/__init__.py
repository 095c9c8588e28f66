"""Central views: the pages of the main window's ``QStackedWidget``.

To add a view (the 2D graph, the 3D nebula): write a ``QWidget`` subclass taking
``(context: AppContext)`` in its own module under ``ui/views/`` and add a :class:`ViewSpec` to
:func:`view_specs`. The main window adds it to the stack and to View → Central view, and
``--panel KEY`` raises it. Views subscribe to ``context.sigChatChanged``,
``context.sigNodeSelected`` (and emit it on clicks), ``context.events.sigGraphChanged`` (change
records) and ``context.themes.sigThemeChanged`` (see ``ui/theming/plot.py`` for pens, edge
buckets and ``theming.qt.gl_clear_color``). Run every service call through ``context.call``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QWidget

from ..context import AppContext


@dataclass(frozen=True)
class ViewSpec:
    key: str
    title: Callable[[], str]
    factory: Callable[[AppContext], QWidget]


def _timeline(context: AppContext) -> QWidget:
    from .memory_list import MemoryListView

    return MemoryListView(context)


def _graph2d(context: AppContext) -> QWidget:
    from .graph2d import Graph2DView

    return Graph2DView(context)


def _nebula(context: AppContext) -> QWidget:
    from .nebula import NebulaView

    return NebulaView(context)


def view_specs() -> tuple[ViewSpec, ...]:
    return (
        ViewSpec("timeline", lambda: QCoreApplication.translate("Views", "Memory timeline"), _timeline),
        ViewSpec("graph2d", lambda: QCoreApplication.translate("Views", "Memory graph"), _graph2d),
        ViewSpec("nebula", lambda: QCoreApplication.translate("Views", "Memory nebula"), _nebula),
    )
