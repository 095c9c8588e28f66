"""Recall ready before it is asked: after each change to a chat whose recall state is loaded,
a background thread brings that state up to date and rebuilds the diffusion graph (≈ 40 ms at
10k memories, which would otherwise fall on the next recall); after each sync it also embeds
the context the chat's next recall will blend in (the reply just synced, the previous input),
so a recall embeds at most the new input itself. Another instance's sync (a shared PostgreSQL
database) warms only a chat whose state this instance holds.

Work is coalesced per chat (a burst of changes is handled once, for the latest state); it
never delays the write or sync that triggered it. The state refresh runs at normal priority,
because a recall that arrives meanwhile waits for it (at low priority, with a busy machine,
the recall would wait for the slowest thread: priority inversion); the graph build and the
prefetch run on a low-priority thread, and a recall never waits for them (it uses the
previous graph, and embeds what is not ready itself). Both are keyed workers (``core/work.py``)
keyed by chat; a chat waiting to be warmed is warmed once, prefetching if any change asked.

While a chat is being imported (extracted with more than ``IMPORT_BACKLOG`` messages still to
read: a long chat's first import, one batch after another), its graph is rebuilt at most every
``WARM_EVERY_S``: the batches committed meanwhile are built together, and a recall takes the
previous graph. The last batches of an import, and a chat's usual batch after a turn, are built
at once, so a recall right after them sees their memories in the graph. Rebuilt after every
batch of an import, the graph took a quarter of the server's CPU samples at 8,000 messages
(``bench/first_connect.py``), a cost that grows with the chat."""

from __future__ import annotations

import logging
import operator
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..events import ChatSynced, Event, GraphChanged
from ..work import KeyedWorker

if TYPE_CHECKING:
    from ..ports import Background
    from .pipeline import HybridRecaller

log = logging.getLogger(__name__)
WARM_EVERY_S = 2.0  # while its chat is being imported, a chat's graph is rebuilt at most this often


class RecallWarmer:
    def __init__(self, service: Background, recaller: HybridRecaller) -> None:
        self.service = service
        self.recaller = recaller
        # chat → also prefetch query vectors (a chat's waiting work: prefetch if any asked)
        self._refresher: KeyedWorker[str, bool] = KeyedWorker(
            "bme-recall-refresh", self._refresh, merge=operator.or_, low_priority=False
        )
        self._pool: KeyedWorker[str, bool] = KeyedWorker("bme-recall-warm", self._warm, merge=operator.or_)
        self._built: dict[str, float] = {}  # chat → when its graph was last built (``_clock``)
        self._clock: Callable[[], float] = time.monotonic
        self._stopping = threading.Event()
        self._rest: Callable[[float], object] = self._stopping.wait
        self._unsubscribe = service.events.on((ChatSynced, GraphChanged), self._on_event)
        service.on_close(self.stop)

    def stop(self) -> None:
        self._unsubscribe()
        self._stopping.set()
        self._refresher.close(30)
        self._pool.close(30)

    def _on_event(self, event: Event) -> None:
        if event.chat_id is None or self.service.closed:
            return
        synced = isinstance(event, ChatSynced)
        # A change warms a chat this instance recalls; a sync here warms its chat for the recall
        # that follows. Another instance's sync (shared PostgreSQL) is for that instance's recall.
        if (event.remote or not synced) and not self.recaller.cache.loaded(event.chat_id):
            return
        self.recaller.expect_warm(event.chat_id)  # a recall meanwhile takes the previous graph
        if not self._refresher.submit(event.chat_id, synced):  # refused once stopping
            self.recaller.warm_done(event.chat_id)

    def _refresh(self, chat_id: str, prefetch: bool) -> None:
        if self.service.closed:
            self.recaller.warm_done(chat_id)
            return
        try:
            self.recaller.refresh(chat_id)
            if not self._pool.submit(chat_id, prefetch):  # refused once stopping
                self.recaller.warm_done(chat_id)
        except Exception:  # the chat was deleted meanwhile: recall copes
            self.recaller.warm_done(chat_id)
            log.debug("refreshing recall for %r failed", chat_id, exc_info=True)

    def _paced(self, chat_id: str) -> float:
        """Seconds to wait before building the chat's graph again (0 unless it is being imported)."""
        built = self._built.get(chat_id)
        if built is None or not self.recaller.importing(chat_id):
            return 0.0
        return built + WARM_EVERY_S - self._clock()

    def _warm(self, chat_id: str, prefetch: bool) -> None:
        if self.service.closed:
            self.recaller.warm_done(chat_id)
            return
        try:
            wait = self._paced(chat_id)
            if wait > 0:
                if prefetch:  # the next recall's context does not wait for the graph
                    self.recaller.prefetch_next(chat_id)
                    prefetch = False
                self._rest(wait)
            self.recaller.warm(chat_id)
            self._built[chat_id] = self._clock()
            if prefetch:
                self.recaller.prefetch_next(chat_id)
        except Exception:  # the chat was deleted meanwhile, the embedder is down: recall copes
            log.debug("warming recall for %r failed", chat_id, exc_info=True)
