"""ChatCounts: the one source of the counts the window shows (issue 19: the chat list said 30,
the Overview 77 and the memory table 110 during one sync).

Each chat's ``ChatStats`` come from one ``MemoryService.list_chats`` read (one transaction, so
they agree with each other), fetched on a worker after a burst of change events settles. The
chat list, the Overview cards and the memory table's count all draw from ``stats`` when
``sigChanged`` fires, so they always show the same numbers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal

from ..core.model import ChatStats

if TYPE_CHECKING:
    from .context import AppContext

COALESCE_MS = 250  # a sync sends many events: read once they pause


class ChatCounts(QObject):
    sigChanged = Signal()  # ``stats`` holds a new reading

    def __init__(self, context: AppContext) -> None:
        super().__init__(context)
        self._context = context
        self.stats: dict[str, ChatStats] = {}
        self.loaded = False  # True after the first reading
        self._timer = QTimer(self, singleShot=True, interval=COALESCE_MS)
        self._timer.timeout.connect(self.refresh)
        context.events.sigChatsChanged.connect(lambda _chat: self._timer.start())

    def get(self, chat_id: str) -> ChatStats | None:
        return self.stats.get(chat_id)

    def chats(self) -> list[ChatStats]:
        return list(self.stats.values())

    def refresh(self) -> None:
        """Read every chat's counts on a worker (a newer request supersedes an older one)."""
        self._context.call(lambda s: s.list_chats(), self._apply, key=f"chat-counts-{id(self)}")

    def _apply(self, chats: list[ChatStats]) -> None:
        self.stats = {c.chat_id: c for c in chats}
        self.loaded = True
        self.sigChanged.emit()
