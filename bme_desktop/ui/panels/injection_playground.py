"""Injection playground: type an input, see what recall would return (nothing is kept),
with each memory's score and every score component."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ...core.model import RecallRequest, RecallResult
from ..context import AppContext
from ..i18n import Retranslated
from .injection_labels import component_label, stage_label

NODE_ID = Qt.ItemDataRole.UserRole + 1


def _number(value: float) -> QStandardItem:
    item = QStandardItem(f"{value:.3f}")
    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return item


class InjectionPlayground(Retranslated, QWidget):
    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._context = context
        self.input = QPlainTextEdit()
        self.input.setMaximumHeight(90)
        self.top_k = QSpinBox()
        self.top_k.setRange(1, 50)
        self.top_k.setValue(context.settings.recall.top_k)
        self.budget = QSpinBox()
        self.budget.setRange(100, 20000)
        self.budget.setSingleStep(100)
        self.budget.setValue(context.settings.recall.budget_tokens)
        self.run_button = QPushButton()
        self.run_button.clicked.connect(self.run)
        controls = QHBoxLayout()
        controls.addWidget(self.top_k)
        controls.addWidget(self.budget)
        controls.addStretch(1)
        controls.addWidget(self.run_button)
        self.summary = QLabel()
        self.summary.setProperty("role", "muted")
        self.summary.setWordWrap(True)
        self.skipped = QLabel()
        self.skipped.setProperty("role", "muted")
        self.skipped.setWordWrap(True)
        self.injection = QPlainTextEdit()
        self.injection.setReadOnly(True)
        self.model = QStandardItemModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.clicked.connect(self._select)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.injection)
        splitter.addWidget(self.table)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.input)
        layout.addLayout(controls)
        layout.addWidget(self.summary)
        layout.addWidget(self.skipped)
        layout.addWidget(splitter, 1)
        self._result: RecallResult | None = None
        self.retranslate()

    def retranslate(self) -> None:
        self.input.setPlaceholderText(self.tr("Type a message to see what recall would inject for it."))
        self.top_k.setPrefix(self.tr("Memories: "))
        self.budget.setPrefix(self.tr("Budget: "))
        self.budget.setSuffix(self.tr(" tokens"))
        self.run_button.setText(self.tr("Recall"))
        self.run_button.setToolTip(self.tr("Run recall on this input without keeping a record"))
        self.injection.setPlaceholderText(self.tr("The injection text appears here."))
        if self.run_button.isEnabled():  # not while a recall runs: its result will be shown in the new words
            self._show(self._result)

    def run(self) -> None:
        chat_id, text = self._context.chat_id, self.input.toPlainText().strip()
        if not chat_id or not text:
            self.summary.setText(self.tr("Open a chat and type an input first."))
            return
        request = RecallRequest(chat_id, text, top_k=self.top_k.value(), budget_tokens=self.budget.value())
        self.run_button.setEnabled(False)
        self.summary.setText(self.tr("Recalling…"))

        def failed(exc: Exception) -> None:
            self.run_button.setEnabled(True)
            self.summary.setText(self.tr("Recall failed: {0}").format(exc))

        self._context.call(
            lambda s: s.recall(request, keep=False),
            self._show,
            key=f"playground-{id(self)}",
            on_error=failed,
            owner=self,
        )

    def _show(self, result: RecallResult | None) -> None:
        self._result = result
        self.run_button.setEnabled(True)
        self.model.clear()
        if result is None:
            self.summary.setText(self.tr("Nothing recalled yet."))
            self.skipped.clear()
            self.injection.clear()
            self.model.setHorizontalHeaderLabels([self.tr("Memory"), self.tr("Score")])
            return
        self.summary.setText(
            self.tr("{0} memories · ~{1} tokens · {2} ms").format(
                len(result.nodes), result.token_estimate, round(result.elapsed_ms, 1)
            )
        )
        stages = [stage_label(s) for s in result.skipped_stages]
        self.skipped.setText(self.tr("Skipped: {0}").format(", ".join(stages)) if stages else "")
        self.skipped.setToolTip("\n".join(result.skipped_stages))
        self.injection.setPlainText(result.injection)
        keys: list[str] = []
        for recalled in result.nodes:
            keys.extend(k for k in recalled.components if k not in keys)
        self.model.setHorizontalHeaderLabels(
            [self.tr("Memory"), self.tr("Score"), *(component_label(k) for k in keys)]
        )
        for column, key in enumerate(keys, start=2):
            self.model.horizontalHeaderItem(column).setToolTip(key)
        for recalled in result.nodes:
            title = QStandardItem(recalled.node.title or recalled.node.id)
            title.setData(recalled.node.id, NODE_ID)
            row = [title, _number(recalled.score)]
            row += [
                _number(recalled.components[k]) if k in recalled.components else QStandardItem("")
                for k in keys
            ]
            self.model.appendRow(row)
        self.table.resizeColumnsToContents()

    def _select(self, index: QModelIndex) -> None:
        node_id = self.model.item(index.row(), 0).data(NODE_ID)
        if node_id:
            self._context.sigNodeSelected.emit(str(node_id))
