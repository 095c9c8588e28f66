"""Working memory: the user's open to-dos and promises, recognised by patterns (no model call).

Kept in chat state (``working_memory``: ``{"scanned_to": index, "items": [...]}``), never
in the graph. The ``working`` step (after each extraction, and ``update_working_memory``
by hand) reads the user's messages it has not seen: "I'll …", "I will …", "remind me to …",
"promise …", "记得…", "答应…", "要去…", "提醒我…" add an item; a message that names an
item again refreshes it; "done", "finished", "做好了", "完成了" clear the items the message
names (or, naming none, the newest). At most ``working_max`` (3) items, newest kept; an item
not mentioned for ``working_expiry_days`` (3) expires. One ``working`` batch per change
(the batch keeps the state from before: undo and history rollback restore it).
Recall injects ``todo_lines_in(state["working_memory"], now, settings)`` (``todo_lines`` reads it first).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..settings import LifecycleSettings
from ..store.journal import INDEPENDENT_STATE
from ..store.reader import Reader
from ..store.unit_of_work import UnitOfWork
from .chat_state import get_key, read_key, set_key

if TYPE_CHECKING:
    from ..ports import Memory

KEY = INDEPENDENT_STATE["working"]
ACTOR = "lifecycle"
_TODO = re.compile(
    r"(?:\b(?:I['’]ll|I will|I['’]m going to|I am going to|remind me to|I promise(?: to)?|promise to|"
    r"don't let me forget to)\s+|记得|答应(?:了)?|要去|提醒我)([^.!?。！？\n]{2,80})",
    re.IGNORECASE,
)
_DONE = re.compile(r"\b(?:done|finished)\b|做好了|完成了|搞定了", re.IGNORECASE)
_WORD = re.compile(r"[a-z0-9']{3,}|[\u4e00-\u9fff]{2}", re.IGNORECASE)
_STOP = {"the", "and", "for", "with", "that", "this", "i'll", "will", "done", "finished", "it's"}


@dataclass
class WorkItem:
    text: str
    created_at: float
    last_mentioned: float
    source_index: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "created_at": self.created_at,
            "last_mentioned": self.last_mentioned,
            "source_index": self.source_index,
        }


def _words(text: str) -> set[str]:
    found = {w.casefold() for w in _WORD.findall(text)}
    zh = "".join(ch for ch in text if "\u4e00" <= ch <= "\u9fff")
    found |= {zh[i : i + 2] for i in range(len(zh) - 1)}
    return found - _STOP


def _mentions(item: WorkItem, text: str) -> bool:
    return bool(_words(item.text) & _words(text))


def apply_text(
    items: list[WorkItem], text: str, now: float, settings: LifecycleSettings, index: int | None = None
) -> list[WorkItem]:
    """The to-do list after the user said ``text`` at ``now`` (pure)."""
    items = [i for i in items if now - i.last_mentioned <= settings.working_expiry_days * 86400]
    if _DONE.search(text) and items:
        named = [i for i in items if _mentions(i, text)]
        gone = named or [max(items, key=lambda i: (i.created_at, i.text))]
        items = [i for i in items if i not in gone]
    for item in items:
        if _mentions(item, text):
            item.last_mentioned = now
    for match in _TODO.finditer(text):
        task = match.group(1).strip(" ,，、:：")
        if not task or _DONE.search(task):
            continue
        same = next((i for i in items if i.text.casefold() == task.casefold()), None)
        if same is not None:
            same.last_mentioned = now
        else:
            items.append(WorkItem(task, now, now, index))
    return sorted(items, key=lambda i: (i.created_at, i.text))[-settings.working_max :]


def _load(raw: Any) -> tuple[int, list[WorkItem]]:
    if not isinstance(raw, dict):
        return -1, []
    return int(raw.get("scanned_to", -1)), [WorkItem(**i) for i in raw.get("items", [])]


def working_in(uow: UnitOfWork, chat_id: str, now: float, settings: LifecycleSettings) -> list[WorkItem]:
    scanned, items = _load(get_key(uow, chat_id, KEY))
    before = [i.to_json() for i in items]
    messages = uow.read.messages(chat_id, scanned + 1)
    for message in messages:
        if message.role == "user":
            items = apply_text(items, message.text, now, settings, message.index)
    items = [i for i in items if now - i.last_mentioned <= settings.working_expiry_days * 86400]
    last = max((m.index for m in messages), default=scanned)
    if [i.to_json() for i in items] == before and last == scanned:
        return items
    uow.begin_batch(
        chat_id,
        "working",
        actor=ACTOR,
        read_from=scanned + 1 if messages else None,
        read_to=last if messages else None,
        description=f"working memory: {len(items)} open",
    )
    set_key(uow, chat_id, KEY, {"scanned_to": last, "items": [i.to_json() for i in items]})
    uow.end_batch()
    return items


def update_working_memory(service: Memory, chat_id: str) -> list[WorkItem]:
    from .tasks import run_step

    items: list[WorkItem] = run_step(service, chat_id, working_in)[0]
    return items


def open_items(read: Reader, chat_id: str, now: float, settings: LifecycleSettings) -> list[WorkItem]:
    return open_items_in(read_key(read, chat_id, KEY), now, settings)


def open_items_in(raw: Any, now: float, settings: LifecycleSettings) -> list[WorkItem]:
    """The same, from the chat state's working-memory entry (``state["working_memory"]``)."""
    _, items = _load(raw)
    return [i for i in items if now - i.last_mentioned <= settings.working_expiry_days * 86400]


def todo_lines(read: Reader, chat_id: str, now: float, settings: LifecycleSettings) -> list[str]:
    """The open to-dos as short lines for the recall injection (empty when none)."""
    return todo_lines_in(read_key(read, chat_id, KEY), now, settings)


def todo_lines_in(raw: Any, now: float, settings: LifecycleSettings) -> list[str]:
    """The same, from the chat state's working-memory entry (recall reads the chat's row anyway)."""
    return [f"- {i.text}" for i in open_items_in(raw, now, settings)]
