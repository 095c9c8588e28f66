"""AppContext: what every panel and view is handed in its constructor (no global handle).

It owns the task runner and the Qt bridge to service events, tracks the current chat and
the selected memory, and is the one place that runs service calls off the GUI thread: reads
through :meth:`AppContext.call`, edits through :meth:`AppContext.operate` (the one operation
runner: it names the panel that asked as the operation's origin, and its result names what
changed and who started it).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from PySide6.QtCore import QObject, QTimer, Signal

from ..bridge.clients import ClientSource
from ..core.background import gui_heartbeat
from ..core.operations import OpResult
from ..core.service import MemoryService
from ..core.settings import Settings, save_settings
from .events import ServiceEvents
from .theming import ThemeManager
from .workers import Task, TaskRunner

T = TypeVar("T")


class AppContext(QObject):
    sigChatChanged = Signal(str)  # "" when no chat is open
    sigNodeSelected = Signal(str)  # node id, "" for none
    sigStatus = Signal(str)  # a transient status bar message
    sigError = Signal(str)  # a problem to show the user
    # Every operation run through ``operate`` once it is done: its OpResult (value, change
    # records, initiator, origin), on the GUI thread before the caller's ``on_done``.
    sigOperationDone = Signal(object)

    def __init__(
        self,
        service: MemoryService,
        themes: ThemeManager,
        settings: Settings,
        data_dir: Path,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.service = service
        self.themes = themes
        self.settings = settings
        self.data_dir = data_dir
        self.runner = TaskRunner(self)
        self.events = ServiceEvents(service.events, self)
        self.runner.sigError.connect(lambda exc: self.sigError.emit(str(exc)))
        self.events.sigResync.connect(self._reload_chat)
        from .chat_counts import ChatCounts

        self.counts = ChatCounts(self)  # the one source of every count on screen
        self._chat_id = ""
        self.language = "en"
        self.bridge: ClientSource | None = None  # the hosted bridge, once it runs
        # settings are written (validated, fsynced) on one thread of their own, in order
        self._saver = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bme-settings")
        self._saving: Future[None] | None = None
        # the event loop's heartbeat: background loops rest while it is late (core/background.py)
        self._heartbeat = QTimer(self, interval=20)
        self._heartbeat.timeout.connect(gui_heartbeat)
        self._heartbeat.start()
        gui_heartbeat()

    @property
    def chat_id(self) -> str:
        return self._chat_id

    def set_chat(self, chat_id: str) -> None:
        if chat_id != self._chat_id:
            self._chat_id = chat_id
            self.sigChatChanged.emit(chat_id)
            self.sigNodeSelected.emit("")

    def _reload_chat(self) -> None:
        """Show the open chat as it is stored now: every view reloads it as if it had just been
        opened (after a resync, another instance's changes may have gone unannounced)."""
        if self._chat_id:
            self.sigChatChanged.emit(self._chat_id)

    def call(
        self,
        fn: Callable[[MemoryService], T],
        on_done: Callable[[T], None] | None = None,
        *,
        key: str | None = None,
        on_error: Callable[[Exception], None] | None = None,
        owner: QObject | None = None,
    ) -> Task:
        """Run ``fn(service)`` on a worker; ``on_done(result)`` runs on the GUI thread (not at all
        once ``owner``, the widget it updates, is closed or destroyed)."""
        service = self.service

        def work(_control: Any) -> T:
            return fn(service)

        return self.runner.run(work, on_done=on_done, on_error=on_error, key=key, owner=owner)

    def operate(
        self,
        fn: Callable[[MemoryService, object | None], OpResult[T]],
        on_done: Callable[[OpResult[T]], None] | None = None,
        *,
        key: str | None = None,
        on_error: Callable[[Exception], None] | None = None,
        owner: QObject | None = None,
    ) -> Task:
        """Run the edit ``fn(service, origin)`` on a worker: a mutating service method given
        ``origin=origin`` (``lambda s, origin: s.update_node(…, origin=origin)``), or for several
        calls as one operation ``s.operate(…, origin=origin)`` (``core/operations.py``).
        ``origin`` is ``owner``: the operation's ``GraphChanged`` events carry it, so a panel
        tells its own edits from others' and from background work (``ServiceEvents.sigGraphEvent``)
        and updates itself from the returned record. ``on_done`` gets the :class:`OpResult` on
        the GUI thread (not at all once ``owner`` is closed), after ``sigOperationDone``; ``key``
        as for :meth:`call` (a newer task of the key supersedes it)."""
        service, done = self.service, self.sigOperationDone

        def work(_control: Any) -> OpResult[T]:
            result = fn(service, owner)
            done.emit(result)  # queued to the GUI thread, ahead of the task's own result
            return result

        return self.runner.run(work, on_done=on_done, on_error=on_error, key=key, owner=owner)

    def save_settings(self) -> None:
        """Write the settings as they are now, off the GUI thread (validating and fsyncing took
        ~20 ms of every theme switch there, more on a busy disk); saves land in call order and
        :meth:`close` waits for the last one. A failure is reported on ``sigError``."""
        snapshot, data_dir = copy.deepcopy(self.settings), self.data_dir
        self._saving = self._saver.submit(save_settings, data_dir, snapshot)
        self._saving.add_done_callback(self._saved)

    def _saved(self, done: Future[None]) -> None:
        exc = done.exception()
        if exc is not None:
            self.sigError.emit(str(exc))  # queued to the GUI thread

    def flush_settings(self) -> None:
        """Wait until every settings save asked for so far is on disk."""
        if self._saving is not None:
            self._saving.exception()

    def close(self) -> None:
        self._heartbeat.stop()
        gui_heartbeat(alive=False)
        self._saver.shutdown(wait=True)
        self.runner.cancel_all()
        self.runner.wait()
        self.events.close()
