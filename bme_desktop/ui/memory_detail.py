"""MemoryDetails: provenance, history and links of the selected memory, in three tabs.

Sources list the messages a memory was drawn from (click: the message with its neighbours);
History the previous values and the audit entries naming it; Links the edges in and out
(click: select the other memory), with Link… and Unlink."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ..core.model import Message
from .context import AppContext
from .format import format_time
from .i18n import Retranslated
from .labels import relation_label
from .lifetime import subscribe
from .memory_detail_data import HistoryEntry, LinkRow, NodeDetails, first_line, load_details
from .memory_detail_dialogs import LinkDialog, MessageDialog

DATA_ROLE = Qt.ItemDataRole.UserRole + 1


def action_label(action: str) -> str:
    labels = {
        "create_node": QCoreApplication.translate("MemoryDetails", "created"),
        "update_node": QCoreApplication.translate("MemoryDetails", "edited"),
        "delete_node": QCoreApplication.translate("MemoryDetails", "deleted"),
        "restore_node": QCoreApplication.translate("MemoryDetails", "restored"),
        "merge_nodes": QCoreApplication.translate("MemoryDetails", "merged another memory in"),
        "revised": QCoreApplication.translate("MemoryDetails", "replaced"),
        "superseded": QCoreApplication.translate("MemoryDetails", "no longer true, superseded by"),
    }
    return labels.get(action, action)


def speaker_label(role: str, name: str | None) -> str:
    if name:
        return name
    return {
        "user": QCoreApplication.translate("MemoryDetails", "User"),
        "assistant": QCoreApplication.translate("MemoryDetails", "Assistant"),
        "system": QCoreApplication.translate("MemoryDetails", "System"),
    }.get(role, role)


def history_text(entry: HistoryEntry) -> str:
    when = (
        format_time(entry.at)
        if entry.at is not None
        else QCoreApplication.translate("MemoryDetails", "earlier")
    )
    text = f"{when} · {entry.actor} · {action_label(entry.action)}"
    return f"{text}: {entry.detail}" if entry.detail else text


def link_text(row: LinkRow) -> str:
    arrow = "→" if row.outgoing else "←"
    return f"{arrow} {relation_label(row.edge.relation)} · {row.other_title}"


class MemoryDetails(Retranslated, QTabWidget):
    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._context = context
        self.details: NodeDetails | None = None
        self.sources = QListWidget()
        self.sources.itemActivated.connect(self._open_message)
        self.sources.itemClicked.connect(self._open_message)
        self.history = QListWidget()
        self.history.setWordWrap(True)
        self.links = QListWidget()
        self.links.itemActivated.connect(self._select_other)
        self.links.itemDoubleClicked.connect(self._select_other)
        self.links.currentItemChanged.connect(lambda *_a: self._update_buttons())
        self.link_button = QPushButton()
        self.link_button.clicked.connect(self.open_link_dialog)
        self.unlink_button = QPushButton()
        self.unlink_button.clicked.connect(self.unlink_selected)
        links_page = QWidget()
        links_layout = QVBoxLayout(links_page)
        links_layout.setContentsMargins(0, 4, 0, 0)
        links_layout.addWidget(self.links, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.link_button)
        buttons.addWidget(self.unlink_button)
        buttons.addStretch(1)
        links_layout.addLayout(buttons)
        for page in (self.sources, self.history, links_page):
            self.addTab(page, "")
        subscribe(self, context.sigNodeSelected, self.load)
        subscribe(self, context.events.sigGraphChanged, self._on_change)
        self._update_buttons()
        self.retranslate()

    def retranslate(self) -> None:
        self.link_button.setText(self.tr("Link…"))
        self.unlink_button.setText(self.tr("Unlink"))
        for i, title in enumerate((self.tr("Sources"), self.tr("History"), self.tr("Links"))):
            self.setTabText(i, title)
        if self.details is not None:  # the lists' wording (speakers, actions, relations), same rows
            for row, message in enumerate(self.details.sources):
                self.sources.item(row).setText(self._source_text(message))
            for row, entry in enumerate(self.details.history):
                self.history.item(row).setText(history_text(entry))
            for row, link in enumerate(self.details.links):
                self.links.item(row).setText(link_text(link))

    # public --------------------------------------------------------------------------------
    def load(self, node_id: str) -> None:
        chat_id = self._context.chat_id
        if not node_id or not chat_id:
            self._show(None)
            return
        self._context.call(
            lambda s: load_details(s, chat_id, node_id),
            self._show,
            key=f"details-{id(self)}",
            on_error=lambda _e: self._show(None),
            owner=self,
        )

    def open_link_dialog(self) -> LinkDialog | None:
        if self.details is None:
            return None
        dialog = LinkDialog(self._context, self.details.node, self)
        dialog.open()
        return dialog

    def unlink_selected(self) -> None:
        item = self.links.currentItem()
        if item is None or self.details is None:
            return
        chat_id, edge_id = self._context.chat_id, item.data(DATA_ROLE).edge.id
        self._context.operate(
            lambda s, origin: s.unlink(chat_id, edge_id, origin=origin),
            lambda _r: self._context.sigStatus.emit(self.tr("Link removed (Ctrl+Z undoes it).")),
        )

    # internals -----------------------------------------------------------------------------
    def _show(self, details: NodeDetails | None) -> None:
        self.details = details
        for widget in (self.sources, self.history, self.links):
            widget.clear()
        if details is not None:
            for message in details.sources:
                item = QListWidgetItem(self._source_text(message))
                item.setData(DATA_ROLE, message.index)
                self.sources.addItem(item)
            for entry in details.history:
                self.history.addItem(history_text(entry))
            for row in details.links:
                item = QListWidgetItem(link_text(row))
                item.setData(DATA_ROLE, row)
                self.links.addItem(item)
        self._update_buttons()

    @staticmethod
    def _source_text(message: Message) -> str:
        return f"#{message.index} · {speaker_label(message.role, message.name)} · {first_line(message.text)}"

    def _update_buttons(self) -> None:
        self.link_button.setEnabled(self.details is not None and self.details.node.deleted_at is None)
        self.unlink_button.setEnabled(self.links.currentItem() is not None)

    def _open_message(self, item: QListWidgetItem) -> None:
        index = item.data(DATA_ROLE)
        if isinstance(index, int) and self._context.chat_id:
            MessageDialog(self._context, self._context.chat_id, index, self).open()

    def _select_other(self, item: QListWidgetItem) -> None:
        row = item.data(DATA_ROLE)
        if isinstance(row, LinkRow):
            self._context.sigNodeSelected.emit(row.other_id)

    def _on_change(self, change: object) -> None:
        details = self.details
        if details is None or getattr(change, "chat_id", None) != self._context.chat_id:
            return
        touched = {
            *getattr(change, "nodes_changed", ()),
            *getattr(change, "nodes_removed", ()),
            *getattr(change, "nodes_added", ()),
        }
        edges = {
            *getattr(change, "edges_changed", ()),
            *getattr(change, "edges_added", ()),
            *getattr(change, "edges_removed", ()),
        }
        if details.node.id in touched or edges:
            self.load(details.node.id)
