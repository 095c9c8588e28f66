"""The Qt side of the service's event bus: events re-emitted as queued signals.

The bus calls subscribers on the publishing thread (a caller of a write, a worker,
``bme-events``); this object only emits, and Qt delivers the signal on the GUI thread because
the bridge object lives there.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from ..core.events import ChatDeleted, ChatSynced, Event, EventBus, GraphChanged, RecallFinished, StoreResync


class ServiceEvents(QObject):
    sigEvent = Signal(object)  # every Event (core/events.py; panels tell them apart by class)
    sigGraphChanged = Signal(object)  # the ChangeRecord of a GraphChanged event
    # The GraphChanged event itself: its initiator (an edit, a sync, extraction, upkeep…) and
    # origin (the panel whose ``context.operate`` made it, else None).
    sigGraphEvent = Signal(object)
    sigChatsChanged = Signal(str)  # chat id of chat.synced / chat.deleted ("" after a resync)
    # Another instance's writes may have gone unannounced (store.resync): reload what is shown.
    sigResync = Signal()

    def __init__(self, bus: EventBus, parent: QObject | None = None) -> None:
        super().__init__(parent)
        #: The chat the bridge last heard of (the newest chat.synced / recall.finished): the one
        #: SillyTavern has open, for a companion window opened after it. "" until then.
        self.last_chat = ""
        self._unsubscribe: Callable[[], None] | None = bus.subscribe(self._on_event)

    def _on_event(self, event: Event) -> None:  # any thread
        if isinstance(event, ChatSynced | RecallFinished) and event.chat_id:
            self.last_chat = event.chat_id  # (one str assignment: atomic)
        self.sigEvent.emit(event)
        if isinstance(event, GraphChanged):
            self.sigGraphChanged.emit(event.change)
            self.sigGraphEvent.emit(event)
        if isinstance(event, ChatSynced | ChatDeleted | GraphChanged) and event.chat_id:
            self.sigChatsChanged.emit(event.chat_id)
        if isinstance(event, StoreResync):
            self.sigResync.emit()
            self.sigChatsChanged.emit("")

    def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
