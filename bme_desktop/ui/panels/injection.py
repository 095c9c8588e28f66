"""Injection panel: the kept recall records of the chat (latest first, and a chat opens on its
latest) and the text each one injected, with Edit / Delete (after a confirmation) / Re-run;
and a playground tab that tries recall on any input."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListView,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ...core.events import Event, RecallFinished
from ...core.model import RecallRecord, RecallRequest
from ...core.operations import OpResult
from ...core.service import MemoryService
from ..context import AppContext
from ..i18n import Retranslated
from ..lifetime import subscribe
from .injection_playground import InjectionPlayground


class InjectionPanel(Retranslated, QWidget):
    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._context = context
        self._records: list[RecallRecord] = []
        self._editing = False
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
        self.edit_button = QPushButton()
        self.save_button = QPushButton()
        self.cancel_button = QPushButton()
        self.delete_button = QPushButton()
        self.rerun_button = QPushButton()
        self.edit_button.clicked.connect(lambda: self._set_editing(True))
        self.cancel_button.clicked.connect(lambda: self._show(self.list.currentIndex().row()))
        self.save_button.clicked.connect(self.save)
        self.delete_button.clicked.connect(self.delete)
        self.rerun_button.clicked.connect(self.rerun)
        buttons = QHBoxLayout()
        for button in (self.edit_button, self.save_button, self.cancel_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(self.rerun_button)
        buttons.addWidget(self.delete_button)
        lower = QWidget()
        lower_layout = QVBoxLayout(lower)
        lower_layout.setContentsMargins(0, 0, 0, 0)
        lower_layout.addWidget(self.detail)
        lower_layout.addWidget(self.text, 1)
        lower_layout.addLayout(buttons)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.list)
        splitter.addWidget(lower)
        self.playground = InjectionPlayground(context)
        self.tabs = QTabWidget()
        self.tabs.addTab(splitter, "")
        self.tabs.addTab(self.playground, "")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(self.tabs)
        subscribe(self, context.sigChatChanged, self.refresh)
        subscribe(self, context.events.sigEvent, self._on_event)
        self.retranslate()
        self.refresh()

    def retranslate(self) -> None:
        self.edit_button.setText(self.tr("Edit"))
        self.save_button.setText(self.tr("Save"))
        self.cancel_button.setText(self.tr("Cancel"))
        self.delete_button.setText(self.tr("Delete"))
        self.rerun_button.setText(self.tr("Re-run"))
        self.rerun_button.setToolTip(self.tr("Recall again for this message and replace the kept record"))
        self.tabs.setTabText(0, self.tr("Kept recalls"))
        self.tabs.setTabText(1, self.tr("Playground"))
        for row, record in enumerate(self._records):
            self.model.item(row).setText(self._title(record))
        self._describe(self.list.currentIndex().row())

    def refresh(self, _chat_id: str = "") -> None:
        chat_id = self._context.chat_id
        if not chat_id:
            self._fill([])
            return
        self._context.call(
            lambda s: s.recall_records(chat_id), self._fill, key=f"injection-{id(self)}", owner=self
        )

    def current_record(self) -> RecallRecord | None:
        row = self.list.currentIndex().row()
        return self._records[row] if 0 <= row < len(self._records) else None

    def save(self) -> None:
        text = self.text.toPlainText()
        self._act(
            lambda s, r, origin: s.edit_recall_record(r.chat_id, r.index, text, origin=origin),
            self.tr("Saving…"),
        )

    def delete(self) -> None:
        record = self.current_record()
        if record is None:
            return
        answer = QMessageBox.question(
            self,
            self.tr("Delete kept recall"),
            self.tr("Delete the kept recall of message {0}? This cannot be undone.").format(record.index),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer != QMessageBox.StandardButton.Yes:
            return
        self._act(
            lambda s, r, origin: s.delete_recall_record(r.chat_id, r.index, origin=origin),
            self.tr("Deleting…"),
        )

    def rerun(self) -> None:
        self._act(
            lambda s, r, origin: s.operate(
                lambda: s.recall(RecallRequest(r.chat_id, r.user_input, index=r.index)), origin=origin
            ),
            self.tr("Recalling again…"),
        )

    def _act(
        self, fn: Callable[[MemoryService, RecallRecord, object | None], OpResult[Any]], busy: str
    ) -> None:
        """Edit, delete or recall again the chosen kept recall, as an operation of this panel
        (the app's runner)."""
        record = self.current_record()
        if record is None:
            return
        self._set_buttons(False)
        self.detail.setText(busy)
        self._context.operate(
            lambda s, origin: fn(s, record, origin),
            lambda _result: self.refresh(),
            key=f"injection-act-{id(self)}",
            on_error=lambda _exc: self.refresh(),
            owner=self,
        )

    def _on_event(self, event: Event) -> None:
        if isinstance(event, RecallFinished) and event.chat_id == self._context.chat_id and not self._editing:
            self.refresh()

    def _fill(self, records: list[RecallRecord]) -> None:
        previous = self.current_record()
        self._records = sorted(records, key=lambda r: r.index, reverse=True)
        self.model.clear()
        for record in self._records:
            item = QStandardItem(self._title(record))
            item.setToolTip(record.user_input)
            self.model.appendRow(item)
        rows = [
            i
            for i, r in enumerate(self._records)  # keep the selection only within the same chat
            if previous is not None and (r.chat_id, r.index) == (previous.chat_id, previous.index)
        ]
        if self._records:
            self.list.setCurrentIndex(self.model.index(rows[0] if rows else 0, 0))
            self._show(self.list.currentIndex().row())
        else:
            self._show(-1)

    def _title(self, record: RecallRecord) -> str:
        first_line = record.user_input.strip().splitlines()[0] if record.user_input.strip() else ""
        return self.tr("#{0}  {1}").format(record.index, first_line[:90])

    def _set_editing(self, editing: bool) -> None:
        self._editing = editing
        self.text.setReadOnly(not editing)
        self.edit_button.setVisible(not editing)
        self.save_button.setVisible(editing)
        self.cancel_button.setVisible(editing)
        if editing:
            self.text.setFocus()

    def _set_buttons(self, enabled: bool) -> None:
        for button in (
            self.edit_button,
            self.save_button,
            self.cancel_button,
            self.delete_button,
            self.rerun_button,
        ):
            button.setEnabled(enabled)

    def _show(self, row: int) -> None:
        self._set_editing(False)
        self._set_buttons(0 <= row < len(self._records))
        self._describe(row)
        if not 0 <= row < len(self._records):
            self.text.clear()
            return
        self.text.setPlainText(self._records[row].injection)

    def _describe(self, row: int) -> None:
        """What the recall in ``row`` was (-1: none), above its text."""
        if not 0 <= row < len(self._records):
            self.detail.setText(self.tr("No recall kept for this chat yet."))
            self.text.setPlaceholderText(self.tr("Pick a recall to see what was injected."))
            return
        record = self._records[row]
        if record.nodes:
            detail = self.tr("Message {0} · {1} memories · ~{2} tokens · {3} ms").format(
                record.index, len(record.nodes), record.token_estimate, round(record.elapsed_ms, 1)
            )
        else:
            detail = self.tr("Message {0} · no memory matched · {1} ms").format(
                record.index, round(record.elapsed_ms, 1)
            )
        if record.manually_edited:
            detail += self.tr(" · edited by hand")
        self.detail.setText(detail)
        self.text.setPlaceholderText(
            self.tr("Nothing was injected for message {0}.").format(record.index)
            if not record.injection.strip()
            else ""
        )
