"""Chat switcher: a searchable list of chats with their memory counts (``context.counts``) and
last activity, grouped by character (the default), by the user's persona, or not at all: the
chats whose memories a character's (or a persona's) shared memories follow (issue 18.5)."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPoint, QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QFont, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QLineEdit,
    QMenu,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from ..core.model import ChatStats
from ..core.scopes import identity_key
from .context import AppContext
from .format import format_count, format_time
from .i18n import Retranslated
from .lifetime import subscribe

CHAT_ID_ROLE = Qt.ItemDataRole.UserRole + 1
ACTIVITY_ROLE = Qt.ItemDataRole.UserRole + 2
GROUP_ROLE = Qt.ItemDataRole.UserRole + 3  # the group's key, on group rows
GROUPINGS = ("character", "persona", "none")


def group_of(chat: ChatStats, grouping: str) -> tuple[str, str] | None:
    """(key, name) of the group ``chat`` is listed under: its character (stable id, else name)
    or its persona; None when not grouped. Chats naming none share one group, keyed ""."""
    if grouping == "character":
        return identity_key(chat.character_id, chat.character) or "", chat.character or ""
    if grouping == "persona":
        return identity_key(chat.persona_id, chat.user) or "", chat.user or ""
    return None


class ChatSwitcher(Retranslated, QWidget):
    # a character group's "Show across chats in the graph": its newest chat, now open
    sigAcrossChats = Signal(str)

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._context = context
        self._chats: list[ChatStats] = []
        self.model = QStandardItemModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.proxy.setRecursiveFilteringEnabled(True)  # a group stays while one of its chats matches
        self.proxy.setSortRole(ACTIVITY_ROLE)
        self.search = QLineEdit()
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self.proxy.setFilterFixedString)
        self.grouping = QComboBox()
        for value in GROUPINGS:
            self.grouping.addItem("", value)
        self.grouping.currentIndexChanged.connect(lambda _i: self._fill(self._chats, rebuild=True))
        self.list = QTreeView()
        self.list.setModel(self.proxy)
        self.list.setHeaderHidden(True)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.list.setWordWrap(True)  # a narrow dock wraps the date instead of scrolling sideways
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.selectionModel().currentChanged.connect(self._picked)
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.customContextMenuRequested.connect(self._menu_at)
        self.search.textChanged.connect(lambda _t: self.list.expandAll())
        top = QHBoxLayout()
        top.addWidget(self.search, 1)
        top.addWidget(self.grouping)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addLayout(top)
        layout.addWidget(self.list, 1)
        subscribe(self, context.counts.sigChanged, lambda: self._fill(context.counts.chats()))
        self.retranslate()
        if context.counts.loaded:
            self._fill(context.counts.chats())
        self.refresh()

    def retranslate(self) -> None:
        self.search.setPlaceholderText(self.tr("Find a chat…"))
        labels = {
            "character": self.tr("By character"),
            "persona": self.tr("By persona"),
            "none": self.tr("Not grouped"),
        }
        for i in range(self.grouping.count()):
            self.grouping.setItemText(i, labels[self.grouping.itemData(i)])
        self.grouping.setToolTip(
            self.tr(
                "Group the chats by their character or by your persona: the chats that share its memories"
            )
        )
        if self._chats:  # the rows' texts, in place (the selection stays)
            items = self.chat_items()
            for chat in self._chats:
                if chat.chat_id in items:
                    self._describe(items[chat.chat_id], chat)
            self._describe_groups()

    def refresh(self) -> None:
        """Read the chats again (their counts come from ``context.counts``, shared with the
        Overview and the memory table)."""
        self._context.counts.refresh()

    # items ------------------------------------------------------------------------------------
    def chat_items(self) -> dict[str, QStandardItem]:
        """Every chat's row, by chat id, wherever its group puts it."""
        found: dict[str, QStandardItem] = {}
        for row in range(self.model.rowCount()):
            item = self.model.item(row)
            if item.data(CHAT_ID_ROLE) is not None:
                found[item.data(CHAT_ID_ROLE)] = item
            for child in range(item.rowCount()):
                found[item.child(child).data(CHAT_ID_ROLE)] = item.child(child)
        return found

    def group_names(self) -> list[str]:
        """The group rows' texts, in the order shown (tests, screenshots)."""
        return [
            self.proxy.index(r, 0).data()
            for r in range(self.proxy.rowCount())
            if self.proxy.index(r, 0).data(GROUP_ROLE) is not None
        ]

    def _layout_of(self, chats: list[ChatStats]) -> dict[str, tuple[str, str] | None]:
        grouping = self.grouping.currentData()
        return {c.chat_id: group_of(c, grouping) for c in chats}

    def _fill(self, chats: list[ChatStats], *, rebuild: bool = False) -> None:
        """Show ``chats``: in place when the same chats sit in the same groups (new counts during
        a sync never rebuild the list under the pointer), else the list is made again."""
        before = self._layout_of(self._chats)
        self._chats = list(chats)
        current = self._context.chat_id
        items = self.chat_items()
        if not rebuild and set(items) == {c.chat_id for c in chats} and before == self._layout_of(chats):
            for chat in chats:
                self._describe(items[chat.chat_id], chat)
            self._describe_groups()
            return
        self.model.clear()
        groups: dict[str, QStandardItem] = {}
        for chat in chats:
            item = QStandardItem()
            item.setData(chat.chat_id, CHAT_ID_ROLE)
            item.setToolTip(chat.chat_id)
            self._describe(item, chat)
            group = group_of(chat, self.grouping.currentData())
            if group is None:
                self.model.appendRow(item)
                continue
            parent = groups.get(group[0])
            if parent is None:
                parent = groups[group[0]] = QStandardItem()
                parent.setData(group[0], GROUP_ROLE)
                parent.setData(group[1], Qt.ItemDataRole.UserRole)
                parent.setFlags(Qt.ItemFlag.ItemIsEnabled)  # a heading: not a chat to open
                font = QFont(parent.font())
                font.setBold(True)
                parent.setFont(font)
                self.model.appendRow(parent)
            parent.appendRow(item)
        self._describe_groups()
        self.proxy.sort(0, Qt.SortOrder.DescendingOrder)
        self.list.expandAll()
        first = self._first_chat()
        target = current or (first.data(CHAT_ID_ROLE) if first is not None else "")
        self.select(target or "")

    def _describe_groups(self) -> None:
        grouping = self.grouping.currentData()
        for row in range(self.model.rowCount()):
            group = self.model.item(row)
            if group.data(GROUP_ROLE) is None:
                continue
            name = group.data(Qt.ItemDataRole.UserRole) or (
                self.tr("No character") if grouping == "character" else self.tr("No persona")
            )
            count = group.rowCount()
            text = (
                self.tr("{0} · {1} chats").format(name, count)
                if count != 1
                else self.tr("{0} · 1 chat").format(name)
            )
            if group.text() != text:
                group.setText(text)
            newest = max((group.child(r).data(ACTIVITY_ROLE) or 0.0 for r in range(count)), default=0.0)
            if group.data(ACTIVITY_ROLE) != newest:
                group.setData(newest, ACTIVITY_ROLE)

    def _describe(self, item: QStandardItem, chat: ChatStats) -> None:
        grouping = self.grouping.currentData()
        if grouping == "character":
            name = chat.chat_id
        elif grouping == "persona":
            named = not chat.character or chat.chat_id.casefold().startswith(chat.character.casefold())
            name = (
                chat.chat_id if named else f"{chat.character} — {chat.chat_id}"
            )  # SillyTavern's ids name her
        else:
            name = chat.character or chat.chat_id
        line = self.tr("{0} memories · {1}").format(
            format_count(chat.node_count), format_time(chat.last_activity)
        )
        if grouping == "character" and chat.user:
            line += " · " + self.tr("as {0}").format(chat.user)
        if chat.isolated:
            line += " · " + self.tr("isolated")
        if item.text() != f"{name}\n{line}":
            item.setText(f"{name}\n{line}")
        if item.data(ACTIVITY_ROLE) != chat.last_activity:
            item.setData(chat.last_activity, ACTIVITY_ROLE)

    def _first_chat(self) -> QModelIndex | None:
        for row in range(self.proxy.rowCount()):
            index = self.proxy.index(row, 0)
            if index.data(CHAT_ID_ROLE) is not None:
                return index
            if self.proxy.rowCount(index):
                return self.proxy.index(0, 0, index)
        return None

    def _proxy_index(self, chat_id: str) -> QModelIndex | None:
        item = self.chat_items().get(chat_id)
        if item is None:
            return None
        index = self.proxy.mapFromSource(item.index())
        return index if index.isValid() else None

    def select(self, chat_id: str) -> None:
        index = self._proxy_index(chat_id)
        if index is not None:
            self.list.setCurrentIndex(index)
            return
        if chat_id not in self.chat_items():
            self._context.set_chat("")

    def group_menu(self, index: QModelIndex) -> QMenu | None:
        """The context menu of a character group's row (None for a chat row or another grouping)."""
        if (
            self.grouping.currentData() != "character"
            or not index.isValid()
            or index.data(GROUP_ROLE) is None
        ):
            return None
        menu = QMenu(self)
        action = menu.addAction(self.tr("Show this character across chats in the graph"))
        action.triggered.connect(lambda: self.show_across(index))
        return menu

    def show_across(self, group: QModelIndex) -> None:
        """Open the group's newest chat and ask for the graph of its character across chats."""
        newest = max(
            (self.proxy.index(r, 0, group) for r in range(self.proxy.rowCount(group))),
            key=lambda i: i.data(ACTIVITY_ROLE) or 0.0,
            default=None,
        )
        if newest is None:
            return
        self.list.setCurrentIndex(newest)
        self.sigAcrossChats.emit(newest.data(CHAT_ID_ROLE))

    def _menu_at(self, pos: QPoint) -> None:
        menu = self.group_menu(self.list.indexAt(pos))
        if menu is not None:
            menu.exec(self.list.viewport().mapToGlobal(pos))

    def _picked(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid() and current.data(CHAT_ID_ROLE) is not None:
            self._context.set_chat(current.data(CHAT_ID_ROLE))
