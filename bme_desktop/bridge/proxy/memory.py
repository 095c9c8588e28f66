"""What the proxy does with the memory core, on the bridge's worker threads (blocking).

Before forwarding: sync the request's conversation, recall for its last user message.
After a finished reply: sync that reply as the next message, for extraction. A failure here
is logged and the request goes on without memory: memory never stops a chat.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from ...core.ingest.fingerprint import fingerprint
from ...core.model import MessageIn, RecallRequest
from ...core.service import MemoryService
from .conversation import Turn, fingerprints, last_name, last_user, plan_sync

log = logging.getLogger(__name__)


@dataclass
class Prepared:
    """The outcome of the steps before forwarding."""

    injection: str = ""
    status: str = "none"  # "injected" | "none" (nothing recalled or nothing to recall) | "error"
    offset: int = 0  # stored index of the window's first message
    reply_index: int | None = None  # where a finished reply is synced; None: it is not
    reply_name: str | None = None
    sync_ms: float = 0.0  # wall time of the sync
    recall_ms: float = 0.0  # wall time of the recall (the pipeline, keeping the record, ...)


class FingerprintCache:
    """Fingerprints of each recent chat's last window, by (role, name, text): a turn's window
    is the previous one plus a message or two, so only those are hashed again. Bounded to the
    ``chats`` most recently used chats; thread-safe."""

    def __init__(self, chats: int = 64) -> None:
        self.chats = chats
        self._lock = threading.Lock()
        self._by_chat: OrderedDict[str, dict[tuple[str, str | None, str], str]] = OrderedDict()

    def fingerprints(self, chat_id: str, turns: Sequence[Turn]) -> list[str]:
        with self._lock:
            old = self._by_chat.get(chat_id, {})
        new: dict[tuple[str, str | None, str], str] = {}
        out: list[str] = []
        for turn in turns:
            key = (turn.role, turn.name, turn.text)
            fp = new.get(key) or old.get(key) or fingerprint(turn.message(0))
            new[key] = fp
            out.append(fp)
        with self._lock:
            self._by_chat[chat_id] = new
            self._by_chat.move_to_end(chat_id)
            while len(self._by_chat) > self.chats:
                self._by_chat.popitem(last=False)
        return out


def sync_window(
    service: MemoryService, chat_id: str, turns: Sequence[Turn], cache: FingerprintCache | None = None
) -> int:
    """Store the request's conversation as the chat's messages; returns the stored index of
    its first message (not 0 when the app trimmed older messages; see ``plan_sync``).

    When no stored message of the window changed and none follows it (the usual turn: the
    same history plus new messages), only the new messages are synced: the same outcome as
    the plan's sync, without pushing the whole history through the core every turn."""
    stored = service.stored_fingerprints(chat_id)
    window = cache.fingerprints(chat_id, turns) if cache is not None else fingerprints(turns)
    plan = plan_sync(stored, window)
    character, user = last_name(turns, "assistant"), last_name(turns, "user")
    end = plan.offset + len(turns)
    if all(stored.get(plan.offset + i) in (None, fp) for i, fp in enumerate(window)) and (
        not stored or max(stored) < end
    ):
        new = [t.message(plan.offset + i) for i, t in enumerate(turns) if plan.offset + i not in stored]
        if new:
            service.sync(chat_id, new, complete=False, character=character, user=user)
        return plan.offset
    messages = [t.message(plan.offset + i) for i, t in enumerate(turns)]
    complete = plan.complete
    if plan.prefix:
        prefix = service.messages(chat_id, 0, plan.offset - 1)
        if [m.index for m in prefix] == list(range(plan.offset)):
            messages = [
                MessageIn(
                    index=m.index, role=m.role, text=m.text, name=m.name, swipe_id=m.swipe_id, time=m.time
                )
                for m in prefix
            ] + messages
        else:  # a stored history with gaps (pushed partially by another client): keep it
            complete = False
    service.sync(chat_id, messages, complete=complete, character=character, user=user)
    return plan.offset


def prepare(
    service: MemoryService, chat_id: str, turns: Sequence[Turn], cache: FingerprintCache | None = None
) -> Prepared:
    """Sync, then recall for the last user message. Never raises."""
    out = Prepared()
    if not turns:
        return out  # only system messages: nothing to sync (an empty complete sync would wipe the chat)
    started = time.perf_counter()
    try:
        out.offset = sync_window(service, chat_id, turns, cache)
    except Exception:
        log.warning("proxy: syncing chat %r failed; answering without memory", chat_id, exc_info=True)
        out.status = "error"
        return out
    finally:
        out.sync_ms = (time.perf_counter() - started) * 1000
    if turns[-1].role == "user":
        out.reply_index = out.offset + len(turns)
        out.reply_name = last_name(turns, "assistant")
    position = last_user(turns)
    if position is None:
        return out
    settings = service.settings.recall
    request = RecallRequest(
        chat_id=chat_id,
        user_input=turns[position].text,
        index=out.offset + position,
        top_k=settings.top_k,
        budget_tokens=settings.budget_tokens,
    )
    started = time.perf_counter()
    try:
        result = service.recall(request)
    except Exception:
        log.warning("proxy: recall for chat %r failed; answering without memory", chat_id, exc_info=True)
        out.status = "error"
        return out
    finally:
        out.recall_ms = (time.perf_counter() - started) * 1000
    out.injection = result.injection
    out.status = "injected" if result.injection else "none"
    return out


def sync_reply(service: MemoryService, chat_id: str, index: int, text: str, name: str | None) -> bool:
    """Store a finished reply as message ``index`` unless the chat already has a message there
    (a later request got in first: it is the truth). Never raises; True when stored."""
    try:
        if service.messages(chat_id, index):
            return False
        service.sync(
            chat_id, [MessageIn(index=index, role="assistant", text=text, name=name)], complete=False
        )
        return True
    except Exception:
        log.warning("proxy: syncing the reply into chat %r failed", chat_id, exc_info=True)
        return False
