"""Companion mode: a compact, always-on-top window to keep beside SillyTavern.

It shows the last recall of the chat SillyTavern has open (what was injected and the memories it
came from), the bridge and model status, and a quick search; on a recalled (or found) memory,
**F** forgets it (deleted, one Ctrl+Z in the main window brings it back) and **P** pins it or,
pinned already, unpins it (the button says which).

It follows the chat the bridge last heard of: every ``chat.synced`` and ``recall.finished``
event names a chat (the core's event bus, re-emitted on the GUI thread by ``ServiceEvents``), so
nothing polls; opened later, it starts on the newest such chat (``ServiceEvents.last_chat``), else
on the chat active last, never simply on the main window's. **Ctrl+Z** here undoes the last
change in the companion's chat (a forget, a pin). Reads and writes run on the context's workers.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ..core.events import ChatSynced, Event, RecallFinished
from ..core.model import Node, NodeQuery, RecallRecord
from ..core.operations import OpResult
from ..core.service import MemoryService
from .context import AppContext
from .i18n import Retranslated
from .labels import node_type_label
from .lifetime import subscribe

ID_ROLE = Qt.ItemDataRole.UserRole
TYPE_ROLE, TITLE_ROLE = Qt.ItemDataRole.UserRole + 1, Qt.ItemDataRole.UserRole + 2
PINNED_ROLE = Qt.ItemDataRole.UserRole + 3  # True / False; None until read
SEARCH_LIMIT = 20


def model_status(context: AppContext) -> str:
    llm = context.settings.llm
    if llm.model:
        return QCoreApplication.translate("Companion", "Model: {0}").format(llm.model)
    return QCoreApplication.translate("Companion", "Model: none (offline extraction)")


class CompanionWindow(Retranslated, QWidget):
    sigVisibilityChanged = Signal(bool)

    def __init__(self, context: AppContext, bridge_status: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Tool | Qt.WindowType.WindowStaysOnTopHint)
        self._context = context
        self.setObjectName("companion")
        self.resize(360, 560)
        self.chat_id = context.events.last_chat  # SillyTavern's chat, if it spoke since start-up
        self.record: RecallRecord | None = None
        self.chat_label = QLabel()
        self.chat_label.setProperty("role", "heading")
        self.bridge_label = QLabel(bridge_status or self.tr("Bridge: off"))
        self.model_label = QLabel()
        for label in (self.bridge_label, self.model_label):
            label.setProperty("role", "muted")
        self.recall_label = QLabel()
        self.injection = QPlainTextEdit()
        self.injection.setReadOnly(True)
        self.injection.setMaximumBlockCount(400)
        self.memories = QListWidget()
        self.memories.setObjectName("companion-memories")
        self.search = QLineEdit()
        self.search.setClearButtonEnabled(True)
        self._debounce = QTimer(self, singleShot=True, interval=250)
        self._debounce.timeout.connect(self.run_search)
        self.search.textChanged.connect(lambda _t: self._debounce.start())
        self.forget_button = QPushButton()
        self.forget_button.setProperty("role", "danger")
        self.forget_button.clicked.connect(self.forget)
        self.pin_button = QPushButton()
        self.pin_button.clicked.connect(self.pin)
        self.note = QLabel()
        self.note.setProperty("role", "muted")
        self.note.setWordWrap(True)
        for key, slot in (("F", self.forget), ("Delete", self.forget), ("P", self.pin)):
            QShortcut(QKeySequence(key), self.memories, slot, context=Qt.ShortcutContext.WidgetShortcut)
        QShortcut(
            QKeySequence(QKeySequence.StandardKey.Undo),
            self,
            self.undo,
            context=Qt.ShortcutContext.WindowShortcut,
        )
        self.memories.currentItemChanged.connect(lambda *_a: self._update_buttons())
        buttons = QHBoxLayout()
        buttons.addWidget(self.forget_button)
        buttons.addWidget(self.pin_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(self.chat_label)
        layout.addWidget(self.bridge_label)
        layout.addWidget(self.model_label)
        layout.addWidget(self.recall_label)
        layout.addWidget(self.injection, 2)
        layout.addWidget(self.search)
        layout.addWidget(self.memories, 3)
        layout.addLayout(buttons)
        layout.addWidget(self.note)
        subscribe(self, context.events.sigEvent, self._on_event)
        subscribe(self, context.sigChatChanged, self._main_chat_changed)
        self.retranslate()
        self.follow(self.chat_id)
        if not self.chat_id:
            self._follow_latest()

    def retranslate(self) -> None:
        """The window's words in the current language (the bridge's status comes from the app)."""
        self.setWindowTitle(self.tr("BME Companion"))
        self.model_label.setText(model_status(self._context))
        self.search.setPlaceholderText(self.tr("Search this chat's memories…"))
        self.forget_button.setText(self.tr("Forget (F)"))
        self._update_buttons()  # Pin or Unpin
        if not self.chat_id:
            self.chat_label.setText(self.tr("No chat yet"))
        elif self.recall_label.text():
            self._describe_record()
        for row in range(self.memories.count()):
            item = self.memories.item(row)
            item.setText(self._row_text(item.data(TYPE_ROLE), item.data(TITLE_ROLE)))

    # following the chat ------------------------------------------------------------------
    def follow(self, chat_id: str) -> None:
        """Show ``chat_id``'s last recall (and search within it)."""
        self.chat_id = chat_id
        self.chat_label.setText(chat_id or self.tr("No chat yet"))
        self.chat_label.setToolTip(chat_id)
        self.refresh()

    def _follow_latest(self) -> None:
        """Until the bridge names a chat: the one that was active last (SillyTavern's, most likely)."""

        def latest(service: MemoryService) -> str:
            chats = service.list_chats()
            return max(chats, key=lambda c: c.last_activity or 0).chat_id if chats else ""

        self._context.call(
            latest, lambda chat_id: self.follow(chat_id) if chat_id and not self.chat_id else None, owner=self
        )

    def _main_chat_changed(self, chat_id: str) -> None:
        if not self.chat_id and chat_id:
            self.follow(chat_id)

    def _on_event(self, event: Event) -> None:
        if not isinstance(event, ChatSynced | RecallFinished) or not event.chat_id:
            return
        if event.chat_id != self.chat_id:
            self.follow(event.chat_id)  # SillyTavern opened another chat
        elif isinstance(event, RecallFinished):
            self.refresh()

    def set_bridge_status(self, text: str) -> None:
        self.bridge_label.setText(text)

    def refresh(self) -> None:
        chat_id = self.chat_id
        if not chat_id:
            self._show_record(None)
            return

        def last(service: MemoryService) -> RecallRecord | None:
            records = service.recall_records(chat_id) if service.has_chat(chat_id) else []
            return max(records, key=lambda r: (r.updated_at, r.index)) if records else None  # the newest

        self._context.call(
            last,
            self._show_record,
            key=f"companion-{id(self)}",
            owner=self,
            on_error=lambda exc: self.note.setText(str(exc)),
        )

    def _show_record(self, record: RecallRecord | None) -> None:
        self.record = record
        self._describe_record()
        if record is None:
            self.injection.clear()
            self._fill([])
            return
        self.injection.setPlainText(record.injection)
        if not self.search.text().strip():
            self._fill(record.nodes)

    def _describe_record(self) -> None:
        record = self.record
        if record is None:
            self.recall_label.setText(self.tr("No recall yet for this chat."))
        else:
            self.recall_label.setText(
                self.tr("Last recall · message {0} · %n memories", "", len(record.nodes)).format(record.index)
            )

    @staticmethod
    def _row_text(type_id: object, title: object) -> str:
        return f"{node_type_label(str(type_id or ''))} · {title or ''}"

    def _fill(self, rows: list[dict[str, Any]]) -> None:
        self.memories.clear()
        for row in rows:
            item = QListWidgetItem(self._row_text(row.get("type"), row.get("title")))
            item.setData(ID_ROLE, row.get("id", ""))
            item.setData(TYPE_ROLE, row.get("type", ""))
            item.setData(TITLE_ROLE, row.get("title", ""))
            item.setData(PINNED_ROLE, row.get("pinned"))
            self.memories.addItem(item)
        if self.memories.count():
            self.memories.setCurrentRow(0)
        self._update_buttons()
        unknown = [str(r.get("id")) for r in rows if r.get("id") and r.get("pinned") is None]
        chat_id = self.chat_id
        if unknown and chat_id:  # a recall record names its memories, not whether they are pinned
            self._context.call(
                lambda s: {n.id: n.pinned for n in s.nodes_by_ids(chat_id, unknown)},
                self._set_pinned,
                key=f"companion-pins-{id(self)}",
                owner=self,
            )

    def _set_pinned(self, pinned: dict[str, bool]) -> None:
        for row in range(self.memories.count()):
            item = self.memories.item(row)
            node_id = str(item.data(ID_ROLE))
            if node_id in pinned:
                item.setData(PINNED_ROLE, pinned[node_id])
        self._update_buttons()

    # search ------------------------------------------------------------------------------
    def run_search(self) -> None:
        text, chat_id = self.search.text().strip(), self.chat_id
        if not text or not chat_id:
            self._fill(self.record.nodes if self.record is not None else [])
            return

        def find(service: MemoryService) -> list[Node]:
            return service.search_nodes(chat_id, NodeQuery(q=text, limit=SEARCH_LIMIT))[0]

        self._context.call(
            find,
            lambda nodes: self._fill(
                [{"id": n.id, "type": n.type, "title": n.title, "pinned": n.pinned} for n in nodes]
            ),
            key=f"companion-search-{id(self)}",
            owner=self,
        )

    # one-key actions ---------------------------------------------------------------------
    def _current_id(self) -> str:
        item = self.memories.currentItem()
        return str(item.data(ID_ROLE)) if item is not None else ""

    def _current_pinned(self) -> bool:
        item = self.memories.currentItem()
        return item is not None and item.data(PINNED_ROLE) is True

    def _update_buttons(self) -> None:
        has = bool(self._current_id())
        self.forget_button.setEnabled(has)
        self.pin_button.setEnabled(has)
        self.pin_button.setText(self.tr("Unpin (P)") if self._current_pinned() else self.tr("Pin (P)"))

    def forget(self) -> None:
        node_id, chat_id, row = self._current_id(), self.chat_id, self.memories.currentRow()
        if not node_id:
            return

        def done(_result: object) -> None:
            self.memories.takeItem(row)
            self._update_buttons()
            self.note.setText(self.tr("Forgotten (Ctrl+Z brings it back)."))

        self._context.operate(
            lambda s, origin: s.delete_node(chat_id, node_id, origin=origin),
            done,
            owner=self,
            on_error=lambda exc: self.note.setText(str(exc)),
        )

    def pin(self) -> None:
        """Pin the memory under the cursor, or unpin it if it is pinned (as stored, not as shown)."""
        node_id, chat_id = self._current_id(), self.chat_id
        if not node_id:
            return

        def toggle(s: MemoryService, origin: object | None) -> OpResult[Node]:
            pinned = s.get_node(chat_id, node_id).pinned
            return s.update_node(chat_id, node_id, {"pinned": not pinned}, origin=origin)

        def done(result: OpResult[Node]) -> None:
            pinned = result.value.pinned
            self._set_pinned({node_id: pinned})  # the rows listing it, if they still do
            self.note.setText(self.tr("Pinned: always kept.") if pinned else self.tr("Unpinned."))

        self._context.operate(toggle, done, owner=self, on_error=lambda exc: self.note.setText(str(exc)))

    def undo(self) -> None:
        """Undo the last change in the companion's chat (it may not be the main window's)."""
        chat_id = self.chat_id
        if not chat_id:
            return

        def done(changed: bool) -> None:
            self.note.setText(self.tr("Undone.") if changed else self.tr("Nothing to undo."))
            self.refresh()

        self._context.operate(
            lambda s, origin: s.undo(chat_id, origin=origin),
            lambda r: done(r.value),
            owner=self,
            on_error=lambda exc: self.note.setText(str(exc)),
        )

    # lifetime ----------------------------------------------------------------------------
    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        self.sigVisibilityChanged.emit(True)

    def closeEvent(self, event: QCloseEvent) -> None:
        super().closeEvent(event)
        self.sigVisibilityChanged.emit(False)
