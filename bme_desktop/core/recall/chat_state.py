"""What recall keeps in memory per chat: the memories, a BM25 index over them, the stored
messages with their own BM25 index (the archive), and the edges. Change records mark what is
stale; the next recall reloads only that (the memories by id, the messages from the first
changed index), so nothing is rebuilt whole after an edit."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..events import Event
from ..model import Edge, Message, Node
from .buckets import is_core
from .cues import DayRef, day_of_time
from .documents import lexical_fields, recallable
from .lexical import BM25Index

if TYPE_CHECKING:
    from ..service import MemoryService


def message_doc_id(index: int) -> str:
    return f"message:{index}"


@dataclass
class ChatState:
    chat_id: str
    character: str | None = None
    user: str | None = None
    nodes: dict[str, Node] = field(default_factory=dict)  # recallable memories only
    lexical: BM25Index = field(default_factory=BM25Index)
    core_ids: set[str] = field(default_factory=set)  # rules, open threads, summaries: always injected
    messages: dict[int, Message] = field(default_factory=dict)
    message_days: dict[int, DayRef] = field(default_factory=dict)
    archive: BM25Index = field(default_factory=BM25Index)
    edges: list[Edge] = field(default_factory=list)
    graph_version: int = 0  # bumped whenever nodes or edges change (diffusion caches by it)
    loaded: bool = False
    dirty_nodes: set[str] = field(default_factory=set)
    edges_dirty: bool = True
    messages_from: int | None = 0  # reload messages from this index; None: up to date
    lock: threading.RLock = field(default_factory=threading.RLock)  # held by a recall of this chat

    def put_node(self, node: Node) -> None:
        if recallable(node):
            self.nodes[node.id] = node
            self.lexical.add(node.id, lexical_fields(node))
            if is_core(node):
                self.core_ids.add(node.id)
            else:
                self.core_ids.discard(node.id)
        else:
            self.drop_node(node.id)

    def drop_node(self, node_id: str) -> None:
        self.core_ids.discard(node_id)
        if self.nodes.pop(node_id, None) is not None:
            self.lexical.remove(node_id)

    def put_messages(self, messages: list[Message], start: int) -> None:
        for index in [i for i in self.messages if i >= start]:
            del self.messages[index]
            self.message_days.pop(index, None)
            self.archive.remove(message_doc_id(index))
        for m in messages:
            self.messages[m.index] = m
            day = day_of_time(m.time)
            if day is not None:
                self.message_days[m.index] = day
            if m.text.strip():
                self.archive.add(message_doc_id(m.index), {"body": m.text})


class RecallCache:
    """Per-chat states, kept fresh by the service's events."""

    def __init__(self, service: MemoryService) -> None:
        self.service = service
        self._states: dict[str, ChatState] = {}
        self._lock = threading.Lock()
        self._unsubscribe = service.events.subscribe(self._on_event)

    def close(self) -> None:
        self._unsubscribe()

    def _on_event(self, event: Event) -> None:
        if event.chat_id is None:
            return
        with self._lock:
            if event.type == "chat.deleted":
                self._states.pop(event.chat_id, None)
                return
            state = self._states.get(event.chat_id)
        if state is None:
            return
        with state.lock:
            if event.type == "graph.changed" and event.change is not None:
                c = event.change
                state.dirty_nodes |= c.nodes_added | c.nodes_changed | c.nodes_removed
                if c.edges_added or c.edges_changed or c.edges_removed:
                    state.edges_dirty = True
            elif event.type == "chat.synced":
                changed = event.data.get("changed_from")
                first = max(state.messages, default=-1) + 1 if changed is None else int(changed)
                state.messages_from = first if state.messages_from is None else min(first, state.messages_from)

    def state(self, chat_id: str) -> ChatState:
        """The chat's state, brought up to date (call from a reader thread, not the writer)."""
        with self._lock:
            state = self._states.get(chat_id)
            if state is None:
                state = self._states[chat_id] = ChatState(chat_id)
        with state.lock:
            self._refresh(state)
        return state

    def _refresh(self, state: ChatState) -> None:
        chat_id = state.chat_id
        if not state.loaded:
            row, nodes = self.service.read(lambda r: (r.chat_row(chat_id), r.all_nodes(chat_id)))
            if row is not None:
                state.character, state.user = row.get("character"), row.get("user_name")
            for node in nodes:
                state.put_node(node)
            state.loaded = True
            state.dirty_nodes.clear()
            state.graph_version += 1
        if state.dirty_nodes:
            ids = sorted(state.dirty_nodes)
            state.dirty_nodes.clear()
            found = {n.id: n for n in self.service.read(
                lambda r: r.nodes_by_ids(chat_id, ids))}
            for node_id in ids:
                fresh = found.get(node_id)
                if fresh is None:
                    state.drop_node(node_id)
                else:
                    state.put_node(fresh)
            state.graph_version += 1
        if state.edges_dirty:
            state.edges = [e for e in self.service.edges(chat_id) if e.is_valid]
            state.edges_dirty = False
            state.graph_version += 1
        if state.messages_from is not None:
            start = state.messages_from
            state.messages_from = None
            state.put_messages(self.service.messages(chat_id, start), start)
