"""GraphPage: what the 2D graph and the nebula share — one public API, forwarded to their
:class:`GraphState` and :class:`LayoutLink`, and the wiring both need.

Public API (all by node id): ``set_filter``, ``set_search``, ``focus_on``, ``set_highlight``,
``select``, ``set_color_by``, ``highlight_group``, ``set_layout_running``, ``set_forces``;
signal ``sigNodeSelected(str)``. A subclass builds its drawing, then calls :meth:`wire`; it may
override the hooks ``_focused`` (after ``focus_on``) and ``_colouring_changed`` (after
``set_color_by``). A page with ``live = False`` (the nebula without OpenGL) draws nothing and
runs no layout: the forwarding to the layout and the pause on hide are skipped.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from PySide6.QtCore import Signal
from PySide6.QtGui import QHideEvent, QShowEvent
from PySide6.QtWidgets import QApplication, QWidget

from ..context import AppContext
from ..i18n import Retranslated
from ..lifetime import on_release, subscribe
from .graph_query import GraphFilter
from .graph_source import GraphSource
from .graph_state import GraphState
from .layout_link import LayoutLink


class GraphPage(Retranslated, QWidget):
    sigNodeSelected = Signal(str)  # a click on a node ("" on the background)

    def __init__(
        self, context: AppContext, source: GraphSource | None, dim: int, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.context = context
        self.source = source or GraphSource.for_context(context)
        self.state = GraphState(self.source, self)
        self.link = LayoutLink(dim=dim, parent=self)
        # Paused until the page is first shown: a page built behind another (the main window
        # builds every central view) ran a 10k layout on a thread nobody watched, contending
        # for the GIL with the GUI thread from the window's start (and after every language switch).
        self.link.set_paused(True)
        self.live = True

    def wire(self) -> None:
        """Follow the app's selection, announce the user's, and never let a layout thread outlive
        the page (closed, released, or the app quitting)."""
        self.state.sigSelected.connect(self._selected_by_user)
        subscribe(self, self.context.sigNodeSelected, self.state.select)
        app = QApplication.instance()
        if app is not None:
            subscribe(self, app.aboutToQuit, self.link.close)
        on_release(self, self.link.close)

    # public --------------------------------------------------------------------------------
    def set_filter(self, f: GraphFilter) -> None:
        self.state.set_filter(f)

    def set_search(self, text: str) -> None:
        self.state.set_search(text)

    def focus_on(self, node_id: str, k: int = 1) -> None:
        self.state.focus_on(node_id, k)
        self._focused()

    def set_highlight(self, ids: Iterable[str] | None) -> None:
        self.state.set_highlight(ids)

    def select(self, node_id: str) -> None:
        self.state.select(node_id)

    def set_color_by(self, mode: str) -> None:
        """Colour nodes by ``"type"`` or ``"community"`` (the legend follows)."""
        self.state.set_color_by(mode)
        self._colouring_changed()

    def highlight_group(self, group: int) -> None:
        """Light up one community (a click on its line in the legend; again to clear)."""
        st = self.state
        ids = [st.data.ids[r] for r in np.flatnonzero(st.group == group).tolist()] if group >= 0 else []
        same = st.highlight_ids is not None and st.highlight_ids == frozenset(ids)
        st.set_highlight(None if same or not ids else ids)

    def set_layout_running(self, on: bool) -> None:
        """Run or stop the layout (stopped: nodes stay where they are; dragged ones stay pinned)."""
        if self.live:
            self.link.set_running(on)

    def set_forces(self, spread: float, gravity: float) -> None:
        if self.live:
            self.link.set_forces(spread, gravity)

    # hooks ---------------------------------------------------------------------------------
    def _focused(self) -> None:
        """After ``focus_on``: e.g. fit the view to what is left."""

    def _colouring_changed(self) -> None:
        """After ``set_color_by``."""

    def _selected_by_user(self, node_id: str) -> None:
        self.sigNodeSelected.emit(node_id)
        if node_id and not self.source.editable(node_id):  # another chat's, shown across chats
            self.context.sigStatus.emit(
                self.tr("This memory belongs to chat “{0}”: open that chat to edit it.").format(
                    self.source.chat_of(node_id)
                )
            )
            return
        self.context.sigNodeSelected.emit(node_id)

    # lifetime ------------------------------------------------------------------------------
    def showEvent(self, event: QShowEvent) -> None:
        if self.live:
            self.link.set_paused(False)
        super().showEvent(event)

    def hideEvent(self, event: QHideEvent) -> None:
        if self.live:
            self.link.set_paused(True)
        super().hideEvent(event)
