"""Injection panel: the kept recall records of the chat and the text each one injected."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QLabel, QListView, QPlainTextEdit, QSplitter, QVBoxLayout, QWidget

from ...core.events import Event
from ...core.model import RecallRecord
from ..context import AppContext


class InjectionPanel(QWidget):
    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._context = context
        self._records: list[RecallRecord] = []
        self.model = QStandardItemModel(self)
        self.list = QListView()
        self.list.setModel(self.model)
        self.list.setEditTriggers(QListView.EditTrigger.NoEditTriggers)
        self.list.selectionModel().currentChanged.connect(lambda cur, _prev: self._show(cur.row()))
        self.detail = QLabel()
        self.detail.setProperty("role", "muted")
        self.detail.setWordWrap(True)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setPlaceholderText(self.tr("Pick a recall to see what was injected."))
        lower = QWidget()
        lower_layout = QVBoxLayout(lower)
        lower_layout.setContentsMargins(0, 0, 0, 0)
        lower_layout.addWidget(self.detail)
        lower_layout.addWidget(self.text, 1)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.list)
        splitter.addWidget(lower)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(splitter)
        context.sigChatChanged.connect(self.refresh)
        context.events.sigEvent.connect(self._on_event)
        self.refresh()

    def refresh(self, _chat_id: str = "") -> None:
        chat_id = self._context.chat_id
        if not chat_id:
            self._fill([])
            return
        self._context.call(lambda s: s.recall_records(chat_id), self._fill, key=f"injection-{id(self)}")

    def _on_event(self, event: Event) -> None:
        if event.type == "recall.finished" and event.chat_id == self._context.chat_id:
            self.refresh()

    def _fill(self, records: list[RecallRecord]) -> None:
        self._records = sorted(records, key=lambda r: r.index, reverse=True)
        self.model.clear()
        for record in self._records:
            first_line = record.user_input.strip().splitlines()[0] if record.user_input.strip() else ""
            text = self.tr("#{0}  {1}").format(record.index, first_line[:90])
            item = QStandardItem(text)
            item.setToolTip(record.user_input)
            self.model.appendRow(item)
        if self._records:
            self.list.setCurrentIndex(self.model.index(0, 0))
        else:
            self._show(-1)

    def _show(self, row: int) -> None:
        if not 0 <= row < len(self._records):
            self.detail.setText(self.tr("No recall kept for this chat yet."))
            self.text.setPlaceholderText(self.tr("Pick a recall to see what was injected."))
            self.text.clear()
            return
        record = self._records[row]
        if record.nodes:
            detail = self.tr("Message {0} · {1} memories · ~{2} tokens · {3} ms").format(
                record.index, len(record.nodes), record.token_estimate, round(record.elapsed_ms, 1))
        else:
            detail = self.tr("Message {0} · no memory matched · {1} ms").format(
                record.index, round(record.elapsed_ms, 1))
        if record.manually_edited:
            detail += self.tr(" · edited by hand")
        self.detail.setText(detail)
        self.text.setPlaceholderText(self.tr("Nothing was injected for message {0}.").format(record.index)
                                     if not record.injection.strip() else "")
        self.text.setPlainText(record.injection)
