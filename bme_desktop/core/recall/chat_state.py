"""What recall keeps in memory per chat: the memories, a BM25 index over them, the stored
messages with their own BM25 index (the archive), the edges and the diffusion graph built from
them. Change records mark what is stale; the next recall reloads only that (the memories by id,
the messages from the first changed index), so nothing is rebuilt whole after an edit.

The states of the ``MAX_CHATS`` chats recalled last are kept; an older one is dropped and loaded
again when its chat is recalled, so a long-running bridge that sees ever more chats holds a
bounded amount. ``store.resync`` (another instance's writes may have gone unnoticed) drops
them all."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..events import ChangeRecord, ChatDeleted, ChatSynced, Event, GraphChanged, StoreResync
from ..lifecycle.tiers import is_visible
from ..model import Edge, Message, Node
from ..scopes import ChatScope
from .aliases import NameTable, name_table
from .buckets import is_core
from .cues import DayRef, day_of_time
from .documents import lexical_fields, recallable
from .lexical import BM25Index
from .part_cache import PartCache
from .rwlock import ReadWriteLock
from .scopes import Knowledge, Members

if TYPE_CHECKING:
    from ..ports import RecallSource
    from ..store.reader import Reader
    from .diffusion import Graph

MAX_CHATS = 32  # recall states kept (the chats recalled last)


def message_doc_id(index: int) -> str:
    return f"message:{index}"


@dataclass(frozen=True)
class StoryPlace:
    """The story's current region and which regions are next to which (``state["regions"]``)."""

    active: str | None
    adjacency: dict[str, frozenset[str]]

    @classmethod
    def of(cls, runtime: Any) -> StoryPlace:
        regions = (runtime or {}).get("regions") if isinstance(runtime, dict) else None
        if not isinstance(regions, dict):
            return cls(None, {})
        active = regions.get("active")
        near = regions.get("adjacency") or {}
        adjacency = (
            {
                str(k).strip().lower(): frozenset(str(x).strip().lower() for x in v)
                for k, v in near.items()
                if isinstance(v, list)
            }
            if isinstance(near, dict)
            else {}
        )
        return cls(str(active) if active else None, adjacency)


def story_time_label(runtime: Any) -> str | None:
    story = (runtime or {}).get("story_time") if isinstance(runtime, dict) else None
    label = story.get("label") if isinstance(story, dict) else None
    return str(label).strip() or None if label else None


@dataclass
class ChatState:
    chat_id: str
    character: str | None = None
    user: str | None = None
    nodes: dict[str, Node] = field(default_factory=dict)  # recallable memories only (awake or sleeping)
    # who is who (core/scopes.py); the nodes above include what other chats share with this one
    scope: ChatScope | None = None
    sources: set[str] = field(default_factory=set)  # other chats whose memories were drawn in
    shared_dirty: set[str] = field(default_factory=set)  # memories other chats changed: read again
    lexical: BM25Index = field(default_factory=BM25Index)
    lexical_version: int = 0  # bumped whenever ``lexical`` changes
    # first-stage results per query part: BM25 hits, and (cosine candidates, scale)
    lexical_parts: PartCache[dict[str, float]] = field(default_factory=PartCache)
    vector_parts: PartCache[tuple[dict[str, float], tuple[float, float]]] = field(default_factory=PartCache)
    core_ids: set[str] = field(default_factory=set)  # rules, open threads, summaries: always injected
    replaced_ids: set[str] = field(default_factory=set)  # memories marked superseded_by another
    messages: dict[int, Message] = field(default_factory=dict)
    message_days: dict[int, DayRef] = field(default_factory=dict)
    archive: BM25Index = field(default_factory=BM25Index)
    edges: list[Edge] = field(default_factory=list)  # the valid ones, in the order they were made
    graph_version: int = 0  # bumped whenever nodes or edges change (diffusion caches by it)
    loaded: bool = False
    dirty_nodes: set[str] = field(default_factory=set)
    edges_dirty: bool = True  # read every edge again
    dirty_edges: set[str] = field(default_factory=set)  # read these again (an extraction's few)
    messages_from: int | None = 0  # reload messages from this index; None: up to date
    message_end: int = 0  # one past the highest message index loaded
    # Recalls read the state together; a refresh changes it alone. Events only set the flags
    # above (under ``flags``), so they never wait for a recall.
    rw: ReadWriteLock = field(default_factory=ReadWriteLock)
    flags: threading.Lock = field(default_factory=threading.Lock)
    refreshing: threading.Lock = field(default_factory=threading.Lock)  # one refresh at a time
    # The recaller's own per-chat memory (``pipeline.py``), dropped with the state.
    graph: tuple[int, Graph] | None = None  # the diffusion graph and the graph_version it was built for
    graph_build: threading.Lock = field(default_factory=threading.Lock)  # one build at a time
    # from the chat's runtime state (extraction keeps it): where and when the story is now
    regions: StoryPlace = field(default_factory=lambda: StoryPlace(None, {}))
    story_time: str | None = None  # the story's current time label ("the 14th of Harvestmoon")
    extracted_to: int = -1  # the last message an extraction batch read (``state["extracted_to"]``)
    knowledge: Knowledge = field(default_factory=Knowledge)  # who knows what (``state["knowledge"]``)
    members: Members = field(default_factory=Members)  # a group's members (``state["members"]``)
    names: tuple[int, NameTable] | None = None  # the entities' names and the lexical_version they are for
    last_shown: tuple[int, set[str]] | None = None  # the last message index recalled and what it showed
    counted: tuple[int, set[str]] | None = None  # the last message index and the hits counted for it

    def needs_refresh(self) -> bool:
        with self.flags:
            return (
                not self.loaded
                or bool(self.dirty_nodes)
                or self.edges_dirty
                or bool(self.dirty_edges)
                or self.messages_from is not None
                or bool(self.shared_dirty)
            )

    def draws(self) -> bool:
        """Whether other chats' memories can come into this chat (it is not isolated)."""
        return self.scope is None or not self.scope.isolated

    def put_node(self, node: Node) -> None:
        if node.chat_id != self.chat_id:
            self.sources.add(node.chat_id)
        if recallable(node):
            old = self.nodes.get(node.id)
            self.nodes[node.id] = node
            fields = lexical_fields(node)
            if old is None or lexical_fields(old) != fields:  # a recall hit changes no text
                self.lexical.add(node.id, fields)
                self.lexical_version += 1
            if is_core(node) and is_visible(node):
                self.core_ids.add(node.id)
            else:
                self.core_ids.discard(node.id)
            if node.flags.get("superseded_by"):
                self.replaced_ids.add(node.id)
            else:
                self.replaced_ids.discard(node.id)
        else:
            self.drop_node(node.id)

    def drop_node(self, node_id: str) -> None:
        self.core_ids.discard(node_id)
        self.replaced_ids.discard(node_id)
        if self.nodes.pop(node_id, None) is not None:
            self.lexical.remove(node_id)
            self.lexical_version += 1

    def name_table(self) -> NameTable:
        """The entities' names (titles and aliases), rebuilt when a memory's text changed."""
        cached = self.names
        if cached is None or cached[0] != self.lexical_version:
            cached = (self.lexical_version, name_table(self.nodes))
            self.names = cached
        return cached[1]

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
        self.message_end = max(self.messages, default=-1) + 1


class RecallCache:
    """Per-chat states of the ``max_chats`` chats recalled last, kept fresh by the service's events."""

    def __init__(self, service: RecallSource, max_chats: int = MAX_CHATS) -> None:
        self.service = service
        self.max_chats = max_chats
        self._states: OrderedDict[str, ChatState] = OrderedDict()  # least recently used first
        self._lock = threading.Lock()
        self._unsubscribe = service.events.on(
            (GraphChanged, ChatSynced, ChatDeleted, StoreResync), self._on_event
        )

    def close(self) -> None:
        self._unsubscribe()

    def chats(self) -> list[str]:
        """The chats whose state is kept, least recently used first."""
        with self._lock:
            return list(self._states)

    def _on_event(self, event: Event) -> None:
        if isinstance(event, StoreResync):  # what is held may miss another instance's writes
            with self._lock:
                self._states.clear()
            return
        if event.chat_id is None:
            return
        with self._lock:
            if isinstance(event, ChatDeleted):
                self._states.pop(event.chat_id, None)
                for chat_id in [c for c, s in self._states.items() if event.chat_id in s.sources]:
                    del self._states[chat_id]  # it held memories of the deleted chat: load again
                return
            if isinstance(event, ChatSynced) and event.rescoped:
                self._states.clear()  # who shares with whom changed: every state loads again
                return
            if isinstance(event, GraphChanged):
                self._mark_shared(event.chat_id, event.change)
            state = self._states.get(event.chat_id)
        if state is None:
            return
        with state.flags:
            if isinstance(event, GraphChanged):
                c = event.change
                state.dirty_nodes |= c.nodes_added | c.nodes_changed | c.nodes_removed
                state.dirty_edges |= c.edges_added | c.edges_changed | c.edges_removed
            elif isinstance(event, ChatSynced):
                if event.members is not None:  # the group's members changed (a sync writes them)
                    state.members = Members.of(event.data)
                changed = event.changed_from
                first = state.message_end if changed is None else int(changed)
                state.messages_from = (
                    first if state.messages_from is None else min(first, state.messages_from)
                )

    def _mark_shared(self, chat_id: str, change: ChangeRecord) -> None:
        """Memories another chat changed may be (or have been) shared with the kept states:
        they are read again, with the sharing rule, on each state's next refresh (holding ``_lock``)."""
        ids = change.nodes_added | change.nodes_changed | change.nodes_removed
        if not ids:
            return
        for other, state in self._states.items():
            if other != chat_id and state.draws():
                with state.flags:
                    state.shared_dirty |= ids

    def loaded(self, chat_id: str) -> bool:
        """Whether this chat's state has been loaded (by a recall, a prepare or a warm-up)."""
        with self._lock:
            state = self._states.get(chat_id)
        return state is not None and state.loaded

    def backlog(self, chat_id: str) -> int:
        """Messages of the chat stored but not yet read by an extraction batch, as of the last
        refresh (0 for a chat not loaded): cheap, reads nothing."""
        with self._lock:
            state = self._states.get(chat_id)
        return 0 if state is None else max(0, state.message_end - 1 - state.extracted_to)

    def state(self, chat_id: str) -> ChatState:
        """The chat's state, brought up to date (call from a reader thread, not the writer).
        Read it under ``state.rw.reading()``; what changes later waits for the next call."""
        with self._lock:
            state = self._states.get(chat_id)
            if state is None:
                state = self._states[chat_id] = ChatState(chat_id)
                while len(self._states) > self.max_chats:  # a recall still reading it keeps its own
                    self._states.popitem(last=False)
            else:
                self._states.move_to_end(chat_id)
        # A refresh under way has taken the flags but not applied the rows yet: wait for it too.
        if state.needs_refresh() or state.refreshing.locked():
            with state.refreshing:  # one refresher at a time, so fresh rows are applied in order
                if state.needs_refresh():
                    self._refresh(state)
        return state

    def _refresh(self, state: ChatState) -> None:
        """Read the changed rows first, then apply them under the write lock: recalls already
        reading wait only for the in-memory update, never for the database."""
        with state.flags:
            load = not state.loaded
            dirty = sorted(state.dirty_nodes)
            state.dirty_nodes.clear()
            edges_dirty, state.edges_dirty = state.edges_dirty, False
            dirty_edges = [] if edges_dirty else sorted(state.dirty_edges)
            state.dirty_edges.clear()
            messages_from, state.messages_from = state.messages_from, None
            shared = sorted(state.shared_dirty) if not load else []
            state.shared_dirty.clear()
        try:
            fresh = self._read(state.chat_id, load, dirty, edges_dirty, messages_from)
            if dirty_edges:  # an extraction adds a few edges: read those, not all of them
                chat_id = state.chat_id
                fresh.edge_ids = dirty_edges
                fresh.found_edges = self.service.read(lambda r: r.edges_by_ids(chat_id, dirty_edges))
            if shared and state.scope is not None:
                scope = state.scope
                fresh.shared_ids = shared
                fresh.shared = self.service.read(lambda r: r.shared_nodes(scope, shared))
            with state.rw.writing():
                self._apply(state, fresh)
        except BaseException:  # nothing was lost: what was not applied is marked again
            with state.flags:
                state.dirty_nodes.update(dirty)
                state.shared_dirty.update(shared)
                state.edges_dirty = state.edges_dirty or edges_dirty
                state.dirty_edges.update(dirty_edges)
                if messages_from is not None:
                    state.messages_from = (
                        messages_from
                        if state.messages_from is None
                        else min(messages_from, state.messages_from)
                    )
            raise

    def _read(
        self, chat_id: str, load: bool, dirty: list[str], edges_dirty: bool, messages_from: int | None
    ) -> _Fresh:
        fresh = _Fresh(load=load, dirty=dirty, messages_from=messages_from)
        if load:

            def load_all(r: Reader) -> tuple[dict[str, Any] | None, ChatScope, list[Node]]:
                scope = r.chat_scope(chat_id)
                return r.chat_row(chat_id, state=True), scope, r.all_nodes(chat_id) + r.shared_nodes(scope)

            fresh.row, fresh.scope, fresh.nodes = self.service.read(load_all)
        elif dirty:  # a batch changed memories: where and when the story is may have moved too
            fresh.row, found = self.service.read(
                lambda r: (r.chat_row(chat_id, state=True), r.nodes_by_ids(chat_id, dirty))
            )
            fresh.found = {n.id: n for n in found}
        if edges_dirty:
            fresh.edges = [e for e in self.service.edges(chat_id) if e.is_valid]
        if messages_from is not None:
            fresh.messages = self.service.messages(chat_id, messages_from)
        return fresh

    @staticmethod
    def _apply(state: ChatState, fresh: _Fresh) -> None:
        if fresh.row is not None:
            runtime = fresh.row.get("state")
            state.regions, state.story_time = StoryPlace.of(runtime), story_time_label(runtime)
            done_to = runtime.get("extracted_to") if isinstance(runtime, dict) else None
            state.extracted_to = done_to if isinstance(done_to, int) else -1
            state.knowledge = Knowledge.of(runtime)
            state.members = Members.of(runtime)
        if fresh.load:
            if fresh.row is not None:
                state.character, state.user = fresh.row.get("character"), fresh.row.get("user_name")
            state.scope = fresh.scope
            for node in fresh.nodes:
                state.put_node(node)
            state.loaded = True
            state.graph_version += 1
        elif fresh.dirty:
            before = [_graph_key(state.nodes.get(node_id)) for node_id in fresh.dirty]
            for node_id in fresh.dirty:
                row = fresh.found.get(node_id)
                if row is None:
                    state.drop_node(node_id)
                else:
                    state.put_node(row)
            if before != [_graph_key(state.nodes.get(node_id)) for node_id in fresh.dirty]:
                state.graph_version += 1  # not for edits the graph does not see (recall hits, cards)
        if fresh.shared_ids:
            found = {n.id: n for n in fresh.shared}
            before = [_graph_key(state.nodes.get(node_id)) for node_id in fresh.shared_ids]
            for node_id in fresh.shared_ids:
                shared = found.get(node_id)
                if shared is not None:
                    state.put_node(shared)
                elif node_id in state.nodes and state.nodes[node_id].chat_id != state.chat_id:
                    state.drop_node(node_id)  # no longer shared with this chat (moved, deleted)
            if before != [_graph_key(state.nodes.get(node_id)) for node_id in fresh.shared_ids]:
                state.graph_version += 1  # another chat's change that this chat's graph sees
        if fresh.edges is not None:
            state.edges = fresh.edges
            state.graph_version += 1
        elif fresh.edge_ids:
            found_edges = {e.id: e for e in fresh.found_edges if e.is_valid}
            edges = {e.id: e for e in state.edges}
            for edge_id in fresh.edge_ids:
                edge = found_edges.get(edge_id)
                if edge is None:
                    edges.pop(edge_id, None)
                elif edge_id in edges:
                    edges[edge_id] = edge
            added = sorted(
                (e for i, e in found_edges.items() if i not in edges), key=lambda e: (e.created_at, e.id)
            )
            edges.update((e.id, e) for e in added)  # new ones go last, as a full read orders them
            state.edges = list(edges.values())
            state.graph_version += 1
        if fresh.messages_from is not None:
            state.put_messages(fresh.messages, fresh.messages_from)


@dataclass
class _Fresh:
    """Rows read for one refresh, applied together."""

    load: bool
    dirty: list[str]
    messages_from: int | None
    row: dict[str, Any] | None = None
    nodes: list[Node] = field(default_factory=list)
    found: dict[str, Node] = field(default_factory=dict)
    edges: list[Edge] | None = None  # every valid edge (a full read)
    edge_ids: list[str] = field(default_factory=list)  # edges read again by id
    found_edges: list[Edge] = field(default_factory=list)  # those of them not deleted
    messages: list[Message] = field(default_factory=list)
    scope: ChatScope | None = None
    shared_ids: list[str] = field(default_factory=list)  # other chats' memories read again
    shared: list[Node] = field(default_factory=list)  # those of them shared with this chat


def _graph_key(node: Node | None) -> tuple[str, int | None] | None:
    """What the diffusion graph takes from a memory (see ``diffusion.build_graph``)."""
    if node is None:
        return None
    return node.type, min(node.source_indices) if node.source_indices else None
