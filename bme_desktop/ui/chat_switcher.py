"""Chat switcher: a searchable list of chats with their memory counts (``context.counts``) and last activity."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QSortFilterProxyModel, Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QLineEdit, QListView, QVBoxLayout, QWidget

from ..core.model import ChatStats
from .context import AppContext
from .format import format_count, format_time
from .lifetime import subscribe

CHAT_ID_ROLE = Qt.ItemDataRole.UserRole + 1
ACTIVITY_ROLE = Qt.ItemDataRole.UserRole + 2


class ChatSwitcher(QWidget):
    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._context = context
        self.model = QStandardItemModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.proxy.setSortRole(ACTIVITY_ROLE)
        self.search = QLineEdit()
        self.search.setPlaceholderText(self.tr("Find a chat…"))
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self.proxy.setFilterFixedString)
        self.list = QListView()
        self.list.setModel(self.proxy)
        self.list.setEditTriggers(QListView.EditTrigger.NoEditTriggers)
        self.list.setSpacing(2)
        self.list.setWordWrap(True)  # a narrow dock wraps the date instead of scrolling sideways
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.selectionModel().currentChanged.connect(self._picked)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(self.search)
        layout.addWidget(self.list, 1)
        subscribe(self, context.counts.sigChanged, lambda: self._fill(context.counts.chats()))
        if context.counts.loaded:
            self._fill(context.counts.chats())
        self.refresh()

    def refresh(self) -> None:
        """Read the chats again (their counts come from ``context.counts``, shared with the
        Overview and the memory table)."""
        self._context.counts.refresh()

    def _fill(self, chats: list[ChatStats]) -> None:
        """Show ``chats``: in place when the same chats are listed (new counts during a sync
        never rebuild the list under the pointer), else the list is made again."""
        current = self._context.chat_id
        items = {self.model.item(r).data(CHAT_ID_ROLE): self.model.item(r) for r in range(self.model.rowCount())}
        if set(items) == {c.chat_id for c in chats}:
            for chat in chats:
                self._describe(items[chat.chat_id], chat)
            return
        self.model.clear()
        for chat in chats:
            item = QStandardItem()
            item.setData(chat.chat_id, CHAT_ID_ROLE)
            item.setToolTip(chat.chat_id)
            self._describe(item, chat)
            self.model.appendRow(item)
        self.proxy.sort(0, Qt.SortOrder.DescendingOrder)
        target = current or (self.proxy.index(0, 0).data(CHAT_ID_ROLE) if self.proxy.rowCount() else "")
        self.select(target or "")

    def _describe(self, item: QStandardItem, chat: ChatStats) -> None:
        name = chat.character or chat.chat_id
        line = self.tr("{0} memories · {1}").format(format_count(chat.node_count), format_time(chat.last_activity))
        if item.text() != f"{name}\n{line}":
            item.setText(f"{name}\n{line}")
        if item.data(ACTIVITY_ROLE) != chat.last_activity:
            item.setData(chat.last_activity, ACTIVITY_ROLE)

    def select(self, chat_id: str) -> None:
        for row in range(self.proxy.rowCount()):
            index = self.proxy.index(row, 0)
            if index.data(CHAT_ID_ROLE) == chat_id:
                self.list.setCurrentIndex(index)
                return
        known = any(self.model.item(r).data(CHAT_ID_ROLE) == chat_id for r in range(self.model.rowCount()))
        if not known:
            self._context.set_chat("")

    def _picked(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self._context.set_chat(current.data(CHAT_ID_ROLE))
