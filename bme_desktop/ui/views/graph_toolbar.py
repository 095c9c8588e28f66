"""The toolbar above the central views: type and tier filters, search, point-of-view lanes and
"highlight last recall", applied to every view that has the matching method (the 2D graph
and the nebula; the memory timeline has none, so the toolbar hides while it is shown)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLineEdit, QMenu, QToolButton, QVBoxLayout, QWidget

from ...core.schema import NODE_TYPES, TIERS
from ...core.service import MemoryService
from ..context import AppContext
from ..labels import node_type_label, tier_label
from ..lifetime import subscribe
from .graph_colors import BY_COMMUNITY, BY_TYPE
from .graph_query import GraphFilter


def last_recall_ids(service: MemoryService, chat_id: str) -> list[str]:
    """Blocking: the memories the newest recall of the chat injected."""
    records = service.recall_records(chat_id)
    if not records:
        return []
    newest = max(records, key=lambda r: r.index)
    return [str(n["id"]) for n in newest.nodes if n.get("id")]


class GraphToolbar(QWidget):
    def __init__(self, context: AppContext, views: Iterable[QWidget], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._context = context
        self.views = [v for v in views if hasattr(v, "set_filter")]
        self.types = self._menu_button(self.tr("Types"), [(t, node_type_label(t)) for t in NODE_TYPES])
        self.tiers = self._menu_button(self.tr("Tiers"), [(t, tier_label(t)) for t in TIERS])
        self.search = QLineEdit()
        self.search.setPlaceholderText(self.tr("Search the graph…"))
        self.search.setClearButtonEnabled(True)
        self.search.setMinimumWidth(self.search.fontMetrics().averageCharWidth() * 16)  # never squeezed to "S…"
        self._search_timer = QTimer(self, singleShot=True, interval=250)
        self._search_timer.timeout.connect(lambda: self._each("set_search", self.search.text().strip()))
        self.search.textChanged.connect(lambda _t: self._search_timer.start())
        self.lanes = self._toggle(self.tr("Lanes"), self.tr("Point-of-view lanes: each owner's memories in a column"))
        self.lanes.toggled.connect(lambda on: self._each("set_lanes", on))
        self.recall = self._toggle(self.tr("Last recall"),
                                   self.tr("Light up the memories the newest recall put in the prompt"))
        self.recall.toggled.connect(self._recall_toggled)
        self.colour = QComboBox()
        self.colour.setToolTip(self.tr("What the node colours show; the legend on the graph says what each colour means"))
        self.colour.addItem(self.tr("Communities"), BY_COMMUNITY)
        self.colour.addItem(self.tr("Types"), BY_TYPE)
        self.colour.currentIndexChanged.connect(lambda _i: self._each("set_color_by", self.colour.currentData()))
        self.local = QComboBox()
        self.local.setToolTip(self.tr("Show only the selected memory and what lies a few links away from it"))
        self.local.addItem(self.tr("Whole graph"), 0)
        for k in (1, 2, 3):
            self.local.addItem(self.tr("%n step(s) around", "", k), k)
        self.local.currentIndexChanged.connect(lambda _i: self._each("set_local_depth", int(self.local.currentData())))
        # two rows, so the central view never needs more width than the graph itself
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.setSpacing(4)
        filters, display = QHBoxLayout(), QHBoxLayout()
        layout.addLayout(filters)
        layout.addLayout(display)
        filters.addWidget(self.types)
        filters.addWidget(self.tiers)
        filters.addWidget(self.search, 1)
        for widget in (self.colour, self.local, self.lanes, self.recall):
            display.addWidget(widget)
        display.addStretch(1)
        subscribe(self, context.sigChatChanged, lambda _c: self.recall.setChecked(False))

    def _menu_button(self, text: str, items: list[tuple[str, str]]) -> QToolButton:
        button = QToolButton()
        button.setText(text)
        button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(button)
        for key, label in items:
            action = QAction(label, menu)
            action.setCheckable(True)
            action.setChecked(True)
            action.setData(key)
            action.toggled.connect(lambda _on: self.apply_filter())
            menu.addAction(action)
        button.setMenu(menu)
        return button

    def _toggle(self, text: str, tip: str) -> QToolButton:
        button = QToolButton()
        button.setText(text)
        button.setToolTip(tip)
        button.setCheckable(True)
        return button

    @staticmethod
    def _chosen(button: QToolButton) -> frozenset[str] | None:
        actions = button.menu().actions()
        chosen = frozenset(str(a.data()) for a in actions if a.isChecked())
        return None if len(chosen) == len(actions) else chosen

    def current_filter(self) -> GraphFilter:
        return GraphFilter(types=self._chosen(self.types), tiers=self._chosen(self.tiers))

    def apply_filter(self) -> None:
        self._each("set_filter", self.current_filter())

    def _each(self, method: str, *args: Any) -> None:
        for view in self.views:
            fn = getattr(view, method, None)
            if fn is not None:
                fn(*args)

    def _recall_toggled(self, on: bool) -> None:
        chat_id = self._context.chat_id
        if not on or not chat_id:
            self._each("set_highlight", None)
            return
        self._context.call(lambda s: last_recall_ids(s, chat_id), self._show_recall,
                           key=f"recall-highlight-{id(self)}", owner=self)

    def _show_recall(self, ids: list[str]) -> None:
        if not self.recall.isChecked():
            return
        if not ids:
            self._context.sigStatus.emit(self.tr("No recall yet in this chat."))
        self._each("set_highlight", ids or None)

    def follow(self, current: QWidget | None) -> None:
        """Show the toolbar only over a view it can drive."""
        self.setVisible(current in self.views)
