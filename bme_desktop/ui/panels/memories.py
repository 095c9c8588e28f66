"""Memories panel: search box and filters over a paged table, with the node editor below."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QItemSelection, Qt, QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ...core.model import Node
from ...core.schema import NODE_TYPES, REVIEW_STATUSES, TIERS
from ...core.scopes import SCOPE_KINDS
from ..context import AppContext
from ..format import format_count
from ..i18n import Retranslated
from ..labels import node_type_label, review_label, scope_label, tier_label
from ..lifetime import subscribe
from ..memory_detail import MemoryDetails
from ..memory_model import COLUMNS, NODE_ID_ROLE, MemoryTableModel
from ..memory_table import make_memory_table
from .memories_ops import MemoryOps
from .node_editor import NodeEditor


class MemoriesPanel(Retranslated, QWidget):
    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._context = context
        self.model = MemoryTableModel(context, parent=self)
        self.search = QLineEdit()
        self.search.setClearButtonEnabled(True)
        self._debounce = QTimer(self, singleShot=True, interval=200)
        self._debounce.timeout.connect(self._apply_filters)
        self.search.textChanged.connect(lambda _t: self._debounce.start())
        self.type_filter = self._filter_box(NODE_TYPES)
        self.tier_filter = self._filter_box(TIERS)
        self.review_filter = self._filter_box(REVIEW_STATUSES)
        self.scope_filter = self._filter_box(SCOPE_KINDS)
        self.count = QLabel()
        self.count.setProperty("role", "muted")
        self.new_button = new_button = QPushButton()
        new_button.clicked.connect(self.new_memory)
        self.table = make_memory_table(self.model, multi=True, hidden=("recalls", "updated"))
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(len(COLUMNS) - 1, Qt.SortOrder.DescendingOrder)
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)
        self.editor = NodeEditor(context)
        self.details = MemoryDetails(context)
        self.ops = MemoryOps(context, self.selected_nodes)
        self.table.selectionModel().selectionChanged.connect(lambda *_a: self.ops.refresh())
        self.model.dataChanged.connect(lambda *_a: self.ops.refresh())
        filters = QHBoxLayout()
        filters.addWidget(self.type_filter)
        filters.addWidget(self.tier_filter)
        filters.addWidget(self.review_filter)
        filters.addWidget(self.scope_filter)
        filters.addStretch(1)
        filters.addWidget(self.count)
        top = QHBoxLayout()
        top.addWidget(self.search, 1)
        top.addWidget(new_button)
        upper = QWidget()
        upper_layout = QVBoxLayout(upper)
        upper_layout.setContentsMargins(0, 0, 0, 0)
        upper_layout.addLayout(top)
        upper_layout.addLayout(filters)
        upper_layout.addWidget(self.table, 1)
        upper_layout.addWidget(self.ops)
        lower = QSplitter(Qt.Orientation.Horizontal)
        lower.addWidget(self.editor)
        lower.addWidget(self.details)
        lower.setStretchFactor(0, 3)
        lower.setStretchFactor(1, 2)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(upper)
        splitter.addWidget(lower)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(splitter)
        self.model.sigLoaded.connect(self._show_count)
        subscribe(self, context.counts.sigChanged, self._show_count)
        subscribe(self, context.sigChatChanged, self.model.set_chat)
        subscribe(self, context.sigNodeSelected, self._select_node)
        self.retranslate()
        if context.chat_id:
            self.model.set_chat(context.chat_id)

    def retranslate(self) -> None:
        self.search.setPlaceholderText(self.tr("Search memories…"))
        for box, everything, label in (
            (self.type_filter, self.tr("All types"), node_type_label),
            (self.tier_filter, self.tr("All tiers"), tier_label),
            (self.review_filter, self.tr("Any review"), review_label),
            (self.scope_filter, self.tr("All scopes"), scope_label),
        ):
            box.setItemText(0, everything)
            for i in range(1, box.count()):
                box.setItemText(i, label(str(box.itemData(i))))
        self.scope_filter.setToolTip(
            self.tr(
                "Who else remembers it: this chat only, every chat with the character, "
                "every chat of your persona, every chat in the world"
            )
        )
        self.new_button.setText(self.tr("New memory"))
        self._show_count()

    def _filter_box(self, values: Iterable[str]) -> QComboBox:
        """A filter over ``values`` (anything first); ``retranslate`` names them."""
        box = QComboBox()
        box.addItem("", None)
        for value in values:
            box.addItem("", value)
        box.currentIndexChanged.connect(lambda _i: self._apply_filters())
        return box

    def _apply_filters(self) -> None:
        self.model.set_filter(
            q=self.search.text().strip() or None,
            type=self.type_filter.currentData(),
            tier=self.tier_filter.currentData(),
            review_status=self.review_filter.currentData(),
            kind=self.scope_filter.currentData(),
        )

    def _show_count(self, _total: int = 0) -> None:
        """How many memories: the chat's count from ``context.counts`` (the same number the chat
        list and the Overview show); with a filter, how many of them match."""
        stats = self._context.counts.get(self._context.chat_id)
        total = stats.node_count if stats is not None else self.model.total
        query = self.model.query
        if any(v is not None for v in (query.q, query.type, query.tier, query.review_status, query.kind)):
            self.count.setText(
                self.tr("{0} of {1} memories").format(format_count(self.model.total), format_count(total))
            )
        elif total == 1:
            self.count.setText(self.tr("1 memory"))
        else:
            self.count.setText(self.tr("{0} memories").format(format_count(total)))

    def _selection_changed(self, selected: QItemSelection, _deselected: QItemSelection) -> None:
        rows = selected.indexes()
        if rows:
            node_id = self.model.data(rows[0], NODE_ID_ROLE)
            if node_id and (self.editor.node is None or self.editor.node.id != node_id):
                self._context.sigNodeSelected.emit(node_id)

    def selected_nodes(self) -> list[Node]:
        """The selected memories in the order they were selected (Merge keeps the first)."""
        rows = [i.row() for i in self.table.selectionModel().selectedRows()]
        current = self.table.currentIndex().row()
        rows.sort(key=lambda r: r == current)  # the most recently clicked row goes last
        return [n for n in (self.model.node_at(r) for r in rows) if n is not None]

    def _select_node(self, node_id: str) -> None:
        row = self.model.row_of(node_id) if node_id else -1
        current = self.table.currentIndex()
        if row >= 0 and current.row() != row:
            self.table.selectRow(row)

    def new_memory(self) -> None:
        if self._context.chat_id:
            self.editor.new_memory(self.type_filter.currentData() or "fact")
