"""Small dialogs of the memory details: a source message with its neighbours, and Link…
(pick another memory by search and a relation)."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ..core.model import Edge, Message, Node, NodeQuery
from ..core.schema import RELATIONS
from .context import AppContext
from .labels import node_type_label, relation_label
from .memory_detail_data import neighbours

ID_ROLE = Qt.ItemDataRole.UserRole + 1


class MessageDialog(QDialog):
    """The message ``index`` with two messages either side; the source itself in bold."""

    def __init__(self, context: AppContext, chat_id: str, index: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.index = index
        self.setWindowTitle(self.tr("Message #{0}").format(index))
        self.resize(560, 420)
        self.text = QTextBrowser()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text, 1)
        layout.addWidget(buttons)
        self.messages: list[Message] = []
        context.call(lambda s: neighbours(s, chat_id, index), self._show, owner=self)

    def _show(self, messages: list[Message]) -> None:
        from html import escape

        self.messages = messages
        parts = []
        for message in messages:
            speaker = escape(message.name or message.role)
            body = escape(message.text).replace("\n", "<br>")
            if message.index == self.index:
                body = f"<b>{body}</b>"
            parts.append(f"<p><i>#{message.index} · {speaker}</i><br>{body}</p>")
        self.text.setHtml("".join(parts))


class LinkDialog(QDialog):
    """Link the memory ``source`` to another one: search, pick, choose a relation, OK."""

    def __init__(self, context: AppContext, source: Node, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._context = context
        self.source = source
        self.setWindowTitle(self.tr("Link “{0}” to…").format(source.title))
        self.resize(480, 420)
        self.search = QLineEdit()
        self.search.setPlaceholderText(self.tr("Search memories…"))
        self.results = QListWidget()
        self.relation = QComboBox()
        for relation in RELATIONS:
            self.relation.addItem(relation_label(relation), relation)
        self.error = QLabel()
        self.error.setProperty("role", "warning")
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.link)
        self.buttons.rejected.connect(self.reject)
        self._debounce = QTimer(self, singleShot=True, interval=200)
        self._debounce.timeout.connect(self.refresh)
        self.search.textChanged.connect(lambda _t: self._debounce.start())
        self.results.currentItemChanged.connect(lambda *_a: self._update_ok())
        form = QFormLayout()
        form.addRow(self.tr("Relation"), self.relation)
        layout = QVBoxLayout(self)
        layout.addWidget(self.search)
        layout.addWidget(self.results, 1)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)
        self._update_ok()
        self.refresh()

    def refresh(self) -> None:
        chat_id, query = self._context.chat_id, NodeQuery(q=self.search.text().strip() or None, limit=50)
        self._context.call(
            lambda s: s.search_nodes(chat_id, query)[0], self._show, key=f"link-search-{id(self)}", owner=self
        )

    def _show(self, nodes: list[Node]) -> None:
        self.results.clear()
        for node in nodes:
            if node.id == self.source.id:
                continue
            item = QListWidgetItem(f"{node_type_label(node.type)} · {node.title}")
            item.setData(ID_ROLE, node.id)
            self.results.addItem(item)
        self._update_ok()

    def _update_ok(self) -> None:
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(
            self.results.currentItem() is not None
        )

    def link(self) -> None:
        item = self.results.currentItem()
        if item is None:
            return
        chat_id, from_id, to_id = self._context.chat_id, self.source.id, str(item.data(ID_ROLE))
        relation = str(self.relation.currentData())
        self._context.operate(
            lambda s, origin: s.link(chat_id, from_id, to_id, relation, origin=origin),
            lambda r: self._linked(r.value),
            on_error=lambda exc: self.error.setText(str(exc)),
            owner=self,
        )

    def _linked(self, _edge: Edge) -> None:
        self._context.sigStatus.emit(self.tr("Linked (Ctrl+Z undoes it)."))
        self.accept()
