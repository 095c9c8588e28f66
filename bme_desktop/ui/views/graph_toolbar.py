"""The toolbar above the central views: type and tier filters, search, point-of-view lanes and
"highlight last recall", applied to every view that has the matching method (the 2D graph
and the nebula; the memory timeline has none, so the toolbar hides while it is shown)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QSlider,
    QToolButton,
    QVBoxLayout,
    QWidget,
    QWidgetAction,
)

from ...core.schema import NODE_TYPES, TIERS
from ...core.scopes import SCOPE_KINDS
from ...core.service import MemoryService
from ..context import AppContext
from ..i18n import Retranslated
from ..labels import node_type_label, scope_label, tier_label
from ..lifetime import subscribe
from .graph_colors import BY_COMMUNITY, BY_TYPE
from .graph_query import GraphFilter
from .graph_source import GraphSource
from .layout_link import DEFAULT_GRAVITY, DEFAULT_SPREAD

SPREAD_RANGE = (0.5, 8.0)  # repulsion (ForceAtlas2's scaling)
GRAVITY_RANGE = (0.5, 20.0)


def last_recall_ids(service: MemoryService, chat_id: str) -> list[str]:
    """Blocking: the memories the newest recall of the chat injected."""
    records = service.recall_records(chat_id)
    if not records:
        return []
    newest = max(records, key=lambda r: r.index)
    return [str(n["id"]) for n in newest.nodes if n.get("id")]


class GraphToolbar(Retranslated, QWidget):
    def __init__(self, context: AppContext, views: Iterable[QWidget], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._context = context
        self.views = [v for v in views if hasattr(v, "set_filter")]
        self.types = self._menu_button(NODE_TYPES)
        self.tiers = self._menu_button(TIERS)
        self.scopes = self._menu_button(SCOPE_KINDS)
        self.search = QLineEdit()
        self.search.setClearButtonEnabled(True)
        self.search.setMinimumWidth(
            self.search.fontMetrics().averageCharWidth() * 16
        )  # never squeezed to "S…"
        self._search_timer = QTimer(self, singleShot=True, interval=250)
        self._search_timer.timeout.connect(lambda: self._each("set_search", self.search.text().strip()))
        self.search.textChanged.connect(lambda _t: self._search_timer.start())
        self.lanes = self._toggle()
        self.lanes.toggled.connect(lambda on: self._each("set_lanes", on))
        self.recall = self._toggle()
        self.recall.toggled.connect(self._recall_toggled)
        self.across = self._toggle()
        self.across_note = QLabel()
        self.across_note.setVisible(False)
        self.colour = QComboBox()
        self.colour.addItem("", BY_COMMUNITY)
        self.colour.addItem("", BY_TYPE)
        self.colour.currentIndexChanged.connect(
            lambda _i: self._each("set_color_by", self.colour.currentData())
        )
        self.local = QComboBox()
        for k in (0, 1, 2, 3):
            self.local.addItem("", k)
        self.local.currentIndexChanged.connect(
            lambda _i: self._each("set_local_depth", int(self.local.currentData()))
        )
        # layout: run/stop and the forces
        self.layout_run = self._toggle()
        self.layout_run.setChecked(True)
        self.layout_run.toggled.connect(lambda on: self._each("set_layout_running", on))
        self.forces = QToolButton()
        self.forces.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        panel = QWidget()
        form = QFormLayout(panel)
        self.spread = self._force_slider(SPREAD_RANGE, DEFAULT_SPREAD)
        self.gravity = self._force_slider(GRAVITY_RANGE, DEFAULT_GRAVITY)
        self.spread_label, self.gravity_label = QLabel(), QLabel()
        form.addRow(self.spread_label, self.spread)
        form.addRow(self.gravity_label, self.gravity)
        menu = QMenu(self.forces)
        holder = QWidgetAction(menu)
        holder.setDefaultWidget(panel)
        menu.addAction(holder)
        self.forces.setMenu(menu)
        self._force_timer = QTimer(self, singleShot=True, interval=150)
        self._force_timer.timeout.connect(lambda: self._each("set_forces", *self.force_values()))
        # the time scrubber: the graph as of message N (at the right end: everything)
        self.time = QSlider(Qt.Orientation.Horizontal)
        self.time.setRange(0, 0)
        self.time.setMinimumWidth(self.fontMetrics().averageCharWidth() * 14)
        self.time_label = QLabel()
        self._time_timer = QTimer(self, singleShot=True, interval=120)
        self._time_timer.timeout.connect(self.apply_filter)
        self.time.valueChanged.connect(self._time_moved)
        self._source = GraphSource.for_context(context)
        self.across.setChecked(self._source.across)
        self.across.toggled.connect(self._source.set_across)
        subscribe(self, self._source.sigAcrossChanged, self._across_changed)
        subscribe(self, self._source.sigReset, self._show_across)
        subscribe(self, self._source.sigReset, self._time_range)
        subscribe(self, self._source.sigNodesAdded, lambda _rows: self._time_range())
        self._time_range()
        # three short rows, so the central view never needs more width than the graph itself
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.setSpacing(4)
        filters, display, motion = QHBoxLayout(), QHBoxLayout(), QHBoxLayout()
        for row in (filters, display, motion):
            layout.addLayout(row)
        filters.addWidget(self.types)
        filters.addWidget(self.tiers)
        filters.addWidget(self.scopes)
        filters.addWidget(self.local)  # what is shown, like the filters (a second row this wide would
        filters.addWidget(self.search, 1)  # make the window wider than a 1366-pixel screen)
        for shown in (self.colour, self.lanes, self.recall, self.across):
            display.addWidget(shown)
        display.addStretch(1)
        layout.addWidget(self.across_note)
        for moving in (self.layout_run, self.forces, self.time_label):
            motion.addWidget(moving)
        motion.addWidget(self.time, 1)
        subscribe(self, context.sigChatChanged, lambda _c: self.recall.setChecked(False))
        self.retranslate()

    def retranslate(self) -> None:
        self.types.setText(self.tr("Types"))
        self.tiers.setText(self.tr("Tiers"))
        for action in self.types.menu().actions():
            action.setText(node_type_label(str(action.data())))
        for action in self.tiers.menu().actions():
            action.setText(tier_label(str(action.data())))
        self.scopes.setText(self.tr("Scopes"))
        self.scopes.setToolTip(
            self.tr("Who else remembers a memory: this chat, the character, your persona, the world")
        )
        for action in self.scopes.menu().actions():
            action.setText(scope_label(str(action.data())))
        self.search.setPlaceholderText(self.tr("Search the graph…"))
        self.lanes.setText(self.tr("Lanes"))
        self.lanes.setToolTip(self.tr("Point-of-view lanes: each owner's memories in a column"))
        self.recall.setText(self.tr("Last recall"))
        self.recall.setToolTip(self.tr("Light up the memories the newest recall put in the prompt"))
        self.across.setText(self.tr("This character across chats"))
        self.across.setToolTip(
            self.tr(
                "Show the memories of this chat's character from all its chats, each chat "
                "a colour (with Communities); memories of other chats are read-only here"
            )
        )
        self.colour.setToolTip(
            self.tr("What the node colours show; the legend on the graph says what each colour means")
        )
        self.colour.setItemText(0, self.tr("Communities"))
        self.colour.setItemText(1, self.tr("Types"))
        self.local.setToolTip(self.tr("Show only the selected memory and what lies a few links away from it"))
        self.local.setItemText(0, self.tr("Whole graph"))
        for k in (1, 2, 3):
            self.local.setItemText(k, self.tr("%n step(s) around", "", k))
        self.layout_run.setText(self.tr("Layout"))
        self.layout_run.setToolTip(self.tr("Run or stop the layout; dragged nodes stay pinned"))
        self.forces.setText(self.tr("Forces"))
        self.forces.setToolTip(self.tr("How far nodes push apart and how hard they are pulled to the centre"))
        self.spread_label.setText(self.tr("Spread"))
        self.gravity_label.setText(self.tr("Pull to centre"))
        self.time.setToolTip(
            self.tr("The graph as of a message: drag left to see memory grow over the story")
        )
        self._show_time()
        self._show_across()

    def _across_changed(self, on: bool) -> None:
        self.across.blockSignals(True)
        self.across.setChecked(on)
        self.across.blockSignals(False)
        self._show_across()

    def _show_across(self) -> None:
        """The indicator: what the graph shows while it shows the character across chats."""
        source = self._source
        self.across_note.setVisible(source.across)
        if source.across:
            self.across_note.setText(
                self.tr(
                    "Showing this character across %n chat(s), each chat a community; only this chat's "
                    "memories "
                    "can be edited here. Turn off “This character across chats” to go back.",
                    "",
                    len(source.chats),
                )
            )

    def _menu_button(self, keys: Iterable[str]) -> QToolButton:
        """A button whose menu checks ``keys`` (all on); ``retranslate`` names them."""
        button = QToolButton()
        button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(button)
        for key in keys:
            action = QAction(menu)
            action.setCheckable(True)
            action.setChecked(True)
            action.setData(key)
            action.toggled.connect(lambda _on: self.apply_filter())
            menu.addAction(action)
        button.setMenu(menu)
        return button

    def _force_slider(self, bounds: tuple[float, float], value: float) -> QSlider:
        """A slider over ``bounds`` on a log scale, 100 steps."""
        slider = QSlider(Qt.Orientation.Horizontal)
        slider.setRange(0, 100)
        slider.setMinimumWidth(self.fontMetrics().averageCharWidth() * 20)
        lo, hi = math.log(bounds[0]), math.log(bounds[1])
        slider.setValue(round(100 * (math.log(value) - lo) / (hi - lo)))
        slider.valueChanged.connect(lambda _v: self._force_timer.start())
        return slider

    def force_values(self) -> tuple[float, float]:
        """(spread, gravity) the sliders stand at."""

        def value(slider: QSlider, bounds: tuple[float, float]) -> float:
            lo, hi = math.log(bounds[0]), math.log(bounds[1])
            return float(math.exp(lo + (hi - lo) * slider.value() / 100))

        return value(self.spread, SPREAD_RANGE), value(self.gravity, GRAVITY_RANGE)

    @staticmethod
    def _toggle() -> QToolButton:
        button = QToolButton()
        button.setCheckable(True)
        return button

    @staticmethod
    def _chosen(button: QToolButton) -> frozenset[str] | None:
        actions = button.menu().actions()
        chosen = frozenset(str(a.data()) for a in actions if a.isChecked())
        return None if len(chosen) == len(actions) else chosen

    def current_filter(self) -> GraphFilter:
        return GraphFilter(
            types=self._chosen(self.types),
            tiers=self._chosen(self.tiers),
            scopes=self._chosen(self.scopes),
            until_message=self.until_message(),
        )

    # time scrubber ---------------------------------------------------------------------------
    def until_message(self) -> int | None:
        value = self.time.value()
        return None if value >= self.time.maximum() else value

    def _time_range(self) -> None:
        """The scrubber spans the chat's messages that memories came from (across chats, the open
        chat's: the others' memories always show); a new chat starts at "all"."""
        data = self._source.data
        last = int(data.first_message.max()) if data.n else 0
        at_end = self.time.value() >= self.time.maximum()
        self.time.blockSignals(True)
        self.time.setRange(0, max(last, 0))
        if at_end:
            self.time.setValue(self.time.maximum())
        self.time.blockSignals(False)
        self.time.setEnabled(last > 0)
        self._show_time()

    def _time_moved(self, _value: int) -> None:
        self._show_time()
        self._time_timer.start()

    def _show_time(self) -> None:
        until = self.until_message()
        if until is None:
            self.time_label.setText(self.tr("All messages"))
        elif self._source.across:  # each chat numbers its own messages: the scrubber runs over this one's
            self.time_label.setText(self.tr("As of message {0} of this chat").format(until + 1))
        else:
            self.time_label.setText(self.tr("As of message {0}").format(until + 1))

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
        self._context.call(
            lambda s: last_recall_ids(s, chat_id),
            self._show_recall,
            key=f"recall-highlight-{id(self)}",
            owner=self,
        )

    def _show_recall(self, ids: list[str]) -> None:
        if not self.recall.isChecked():
            return
        if not ids:
            self._context.sigStatus.emit(self.tr("No recall yet in this chat."))
        self._each("set_highlight", ids or None)

    def follow(self, current: QWidget | None) -> None:
        """Show the toolbar only over a view it can drive."""
        self.setVisible(current in self.views)
