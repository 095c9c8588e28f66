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

from .context import AppContext
from .format import format_time
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
    return {"user": QCoreApplication.translate("MemoryDetails", "User"),
            "assistant": QCoreApplication.translate("MemoryDetails", "Assistant"),
            "system": QCoreApplication.translate("MemoryDetails", "System")}.get(role, role)


def history_text(entry: HistoryEntry) -> str:
    when = format_time(entry.at) if entry.at is not None else QCoreApplication.translate("MemoryDetails", "earlier")
    text = f"{when} · {entry.actor} · {action_label(entry.action)}"
    return f"{text}: {entry.detail}" if entry.detail else text


def link_text(row: LinkRow) -> str:
    arrow = "→" if row.outgoing else "←"
    return f"{arrow} {relation_label(row.edge.relation)} · {row.other_title}"


class MemoryDetails(QTabWidget):
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
        self.link_button = QPushButton(self.tr("Link…"))
        self.link_button.clicked.connect(self.open_link_dialog)
        self.unlink_button = QPushButton(self.tr("Unlink"))
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
        self.addTab(self.sources, self.tr("Sources"))
        self.addTab(self.history, self.tr("History"))
        self.addTab(links_page, self.tr("Links"))
        subscribe(self, context.sigNodeSelected, self.load)
        subscribe(self, context.events.sigGraphChanged, self._on_change)
        self._update_buttons()

    # public --------------------------------------------------------------------------------
    def load(self, node_id: str) -> None:
        chat_id = self._context.chat_id
        if not node_id or not chat_id:
            self._show(None)
            return
        self._context.call(lambda s: load_details(s, chat_id, node_id), self._show,
                           key=f"details-{id(self)}", on_error=lambda _e: self._show(None), owner=self)

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
        self._context.call(lambda s: s.unlink(chat_id, edge_id),
                           lambda _e: self._context.sigStatus.emit(self.tr("Link removed (Ctrl+Z undoes it).")))

    # internals -----------------------------------------------------------------------------
    def _show(self, details: NodeDetails | None) -> None:
        self.details = details
        for widget in (self.sources, self.history, self.links):
            widget.clear()
        if details is not None:
            for message in details.sources:
                item = QListWidgetItem(f"#{message.index} · {speaker_label(message.role, message.name)} · "
                                       f"{first_line(message.text)}")
                item.setData(DATA_ROLE, message.index)
                self.sources.addItem(item)
            for entry in details.history:
                self.history.addItem(history_text(entry))
            for row in details.links:
                item = QListWidgetItem(link_text(row))
                item.setData(DATA_ROLE, row)
                self.links.addItem(item)
        self._update_buttons()

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
        touched = {*getattr(change, "nodes_changed", ()), *getattr(change, "nodes_removed", ()),
                   *getattr(change, "nodes_added", ())}
        edges = {*getattr(change, "edges_changed", ()), *getattr(change, "edges_added", ()),
                 *getattr(change, "edges_removed", ())}
        if details.node.id in touched or edges:
            self.load(details.node.id)
