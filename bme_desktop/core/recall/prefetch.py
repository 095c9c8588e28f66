"""Query vectors ready before the recall asks: after each sync, the context the chat's next
recall will blend in (the reply just synced, the previous input) is embedded in the
background, so a recall embeds at most the new input itself.

Work is coalesced per chat (a burst of syncs embeds once, for the latest state) and runs on
one low-priority thread; it never delays the sync that triggered it."""

from __future__ import annotations

import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from ..background import lower_thread_priority
from ..events import Event

if TYPE_CHECKING:
    from ..service import MemoryService
    from .pipeline import HybridRecaller

log = logging.getLogger(__name__)


class SyncPrefetcher:
    def __init__(self, service: MemoryService, recaller: HybridRecaller) -> None:
        self.service = service
        self.recaller = recaller
        self._queued: set[str] = set()
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bme-sync-prefetch",
                                        initializer=lower_thread_priority)
        self._unsubscribe = service.events.subscribe(self._on_event)
        service.on_close(self.stop)

    def stop(self) -> None:
        self._unsubscribe()
        self._pool.shutdown(wait=True, cancel_futures=True)

    def _on_event(self, event: Event) -> None:
        if event.type != "chat.synced" or event.chat_id is None or self.service.closed:
            return
        chat_id = event.chat_id
        with self._lock:
            if chat_id in self._queued:
                return
            self._queued.add(chat_id)
        try:
            self._pool.submit(self._run, chat_id)
        except RuntimeError:  # stopping
            with self._lock:
                self._queued.discard(chat_id)

    def _run(self, chat_id: str) -> None:
        with self._lock:
            self._queued.discard(chat_id)
        if self.service.closed:
            return
        try:
            self.recaller.prefetch_next(chat_id)
        except Exception:  # the chat was deleted meanwhile, the embedder is down: recall copes
            log.debug("query prefetch for %r failed", chat_id, exc_info=True)
