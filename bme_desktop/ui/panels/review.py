"""Review centre: the queue of memories waiting for review, approved or rejected in bulk,
and below it the Patrol section (the daily report and "What do I know about…?")."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ...core.model import NodeQuery
from ...core.service import MemoryService
from ..context import AppContext
from ..format import format_count
from ..lifetime import subscribe
from ..memory_model import NODE_ID_ROLE, MemoryTableModel
from ..memory_table import make_memory_table
from .patrol import PatrolSection


class ReviewPanel(QWidget):
    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._context = context
        self.model = MemoryTableModel(context, fixed=NodeQuery(review_status="pending", order_by="created_at",
                                                               descending=False), parent=self)
        self.table = make_memory_table(self.model, multi=True, hidden=("review", "recalls"))
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)
        self.summary = QLabel()
        self.summary.setProperty("role", "muted")
        self.approve_button = QPushButton(self.tr("Approve selected"))
        self.approve_button.setProperty("role", "primary")
        self.approve_button.clicked.connect(lambda: self.set_status("approved"))
        self.reject_button = QPushButton(self.tr("Reject selected"))
        self.reject_button.setProperty("role", "danger")
        self.reject_button.clicked.connect(lambda: self.set_status("rejected"))
        select_all = QPushButton(self.tr("Select all"))
        select_all.clicked.connect(self.table.selectAll)
        buttons = QHBoxLayout()
        buttons.addWidget(self.summary, 1)
        buttons.addWidget(select_all)
        buttons.addWidget(self.reject_button)
        buttons.addWidget(self.approve_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addLayout(buttons)
        self.patrol = PatrolSection(context)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.table)
        splitter.addWidget(self.patrol)
        layout.addWidget(splitter, 1)
        self.model.sigLoaded.connect(lambda _n: self._update_summary())
        self.model.rowsRemoved.connect(lambda *_a: self._update_summary())
        subscribe(self, context.sigChatChanged, self.model.set_chat)
        if context.chat_id:
            self.model.set_chat(context.chat_id)
        self._update_summary()

    def selected_ids(self) -> list[str]:
        rows = self.table.selectionModel().selectedRows()
        return [self.model.data(index, NODE_ID_ROLE) for index in rows]

    def set_status(self, status: str) -> None:
        """Approve or reject every selected memory (one undoable edit each)."""
        ids, chat_id = self.selected_ids(), self._context.chat_id
        if not ids or not chat_id:
            return

        def run(service: MemoryService) -> int:
            for node_id in ids:
                service.update_node(chat_id, node_id, {"review_status": status})
            return len(ids)
        self.approve_button.setEnabled(False)
        self.reject_button.setEnabled(False)
        self._context.call(run, self._done, owner=self)

    def _done(self, count: int) -> None:
        self._context.sigStatus.emit(self.tr("Reviewed {0} memories.").format(format_count(count)))
        self._update_summary()

    def _selection_changed(self, *_args: object) -> None:
        rows = self.table.selectionModel().selectedRows()
        if len(rows) == 1:
            self._context.sigNodeSelected.emit(self.model.data(rows[0], NODE_ID_ROLE))
        self._update_summary()

    def _update_summary(self) -> None:
        selected = len(self.table.selectionModel().selectedRows())
        self.summary.setText(self.tr("{0} waiting · {1} selected").format(
            format_count(self.model.total), format_count(selected)))
        self.approve_button.setEnabled(selected > 0)
        self.reject_button.setEnabled(selected > 0)
