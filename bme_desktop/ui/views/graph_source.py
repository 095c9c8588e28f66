"""GraphSource: the current chat's graph as :class:`GraphData`, kept up to date from change records.

One source per :class:`AppContext` (both graph views share it: one read, one set of arrays).
A chat switch loads everything once on a worker; after that only change records are applied:
the touched nodes and edges are read on a worker and upserted, removals are announced first
(``sigNodesRemoving``, so views can fade them out) and applied ``FADE_MS`` later.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QObject, QTimer, Signal

from ...core.events import ChangeRecord
from ...core.model import Edge, Node
from ...core.service import MemoryService
from ..context import AppContext
from .communities import Communities, by_chat, detect
from .graph_data import GraphData, IntArray

FADE_MS = 350
COMMUNITY_DELAY_MS = 1500  # changes arriving in a burst (a sync) run one detection after the last

_SOURCES: weakref.WeakKeyDictionary[AppContext, GraphSource] = weakref.WeakKeyDictionary()


@dataclass
class _Fetched:
    chat_id: str
    nodes: list[Node]
    edges: list[Edge]
    change: ChangeRecord


def _fetch(service: MemoryService, change: ChangeRecord) -> _Fetched:
    chat = change.chat_id
    node_ids = sorted(change.nodes_added | change.nodes_changed)
    edge_ids = sorted(change.edges_added | change.edges_changed)
    nodes, edges = service.nodes_and_edges(chat, node_ids, edge_ids)
    return _Fetched(chat, nodes, edges, change)


class GraphSource(QObject):
    sigReset = Signal()  # a new chat (or the first load): rebuild from ``data``
    sigNodesAdded = Signal(object)  # rows (IntArray), appended at the end
    sigNodesChanged = Signal(object)  # rows whose type, tier, importance or text changed
    sigNodesRemoving = Signal(object)  # rows about to go (fade them out)
    sigNodesRemoved = Signal(object)  # remap: old row -> new row or -1
    sigEdgesChanged = Signal()  # any edge added, changed or removed
    sigCommunities = Signal()  # ``communities`` has a new detection (run on a worker)
    sigAcrossChanged = Signal(bool)  # the graph shows the character across its chats (or this chat again)

    @classmethod
    def for_context(cls, context: AppContext) -> GraphSource:
        source = _SOURCES.get(context)
        if source is None:
            source = _SOURCES[context] = cls(context)
        return source

    def __init__(self, context: AppContext) -> None:
        super().__init__(context)
        self.context = context
        self.data = GraphData()
        self.chat_id = ""
        # "This character across chats": every chat of the open chat's character, read-only
        # (``editable``); communities are the chats. ``chats``: those shown, the open one first.
        self.across = False
        self.chats: list[str] = []
        self._chat_of: dict[str, str] = {}  # node id -> the chat it belongs to (across chats)
        self._reload_timer = QTimer(self, singleShot=True, interval=COMMUNITY_DELAY_MS)
        self._reload_timer.timeout.connect(lambda: self.load(self.chat_id))
        self._doomed: set[str] = set()
        self._remove_timer = QTimer(self, singleShot=True, interval=FADE_MS)
        self._remove_timer.timeout.connect(self._remove_doomed)
        self.communities = Communities()
        self._community_timer = QTimer(self, singleShot=True, interval=COMMUNITY_DELAY_MS)
        self._community_timer.timeout.connect(self.detect_communities)
        context.sigChatChanged.connect(self.load)
        context.events.sigGraphChanged.connect(self.apply)
        if context.chat_id:
            self.load(context.chat_id)

    def set_across(self, on: bool) -> None:
        """Show the open chat's character across all its chats (``on``), or the chat alone."""
        if on != self.across:
            self.across = on
            self.sigAcrossChanged.emit(on)
            self.load(self.chat_id)

    def editable(self, node_id: str) -> bool:
        """Whether a shown memory can be edited here: one of the open chat's (another chat's,
        shown across chats, is edited in its own chat)."""
        return not self.across or self._chat_of.get(node_id, self.chat_id) == self.chat_id

    def chat_of(self, node_id: str) -> str:
        return self._chat_of.get(node_id, self.chat_id)

    def load(self, chat_id: str) -> None:
        self.chat_id = chat_id
        self._doomed.clear()
        self._reload_timer.stop()
        if not chat_id:
            self.chats, self._chat_of = [], {}
            self.set_data(GraphData())
            return
        across = self.across

        def work(service: MemoryService) -> tuple[str, bool, list[str], dict[str, str], GraphData]:
            if not across:
                return (
                    chat_id,
                    across,
                    [chat_id],
                    {},
                    GraphData.from_records(service.all_nodes(chat_id), service.edges(chat_id)),
                )
            found = service.character_graph(chat_id)
            data = GraphData.from_records(found.nodes, found.edges)
            # message numbers are each chat's own: the time scrubber runs over the open chat's
            # messages, and the other chats' memories (timed by theirs) always show
            chat_of = {n.id: n.chat_id for n in found.nodes}
            data.first_message[np.array([chat_of[i] != chat_id for i in data.ids], dtype=bool)] = -1
            return chat_id, across, found.chat_ids, chat_of, data

        self.context.call(work, self._loaded, key=f"graph-load-{id(self)}")

    def _loaded(self, result: tuple[str, bool, list[str], dict[str, str], GraphData]) -> None:
        chat_id, across, chats, chat_of, data = result
        if chat_id == self.chat_id and across == self.across:
            self.chats, self._chat_of = chats, chat_of
            self.set_data(data)

    def set_data(self, data: GraphData) -> None:
        self.data = data
        self.communities = Communities()
        self.sigReset.emit()
        self.detect_communities()

    # communities -----------------------------------------------------------------------------
    def detect_communities(self) -> None:
        """Louvain on a worker over a snapshot of the arrays; a newer request supersedes it."""
        self._community_timer.stop()
        data = self.data
        if data.n == 0:
            self._communities_found(Communities())
            return
        if self.across:  # across chats: a community is a chat
            self._communities_found(
                by_chat(list(data.ids), [self._chat_of.get(i, self.chat_id) for i in data.ids])
            )
            return
        snapshot = (
            list(data.ids),
            list(data.titles),
            data.importance.copy(),
            data.type_idx.copy(),
            data.src.copy(),
            data.dst.copy(),
        )
        self.context.runner.run(
            lambda _control: detect(*snapshot),
            on_done=self._communities_found,
            key=f"graph-communities-{id(self)}",
        )

    def _communities_found(self, communities: Communities) -> None:
        self.communities = communities
        self.sigCommunities.emit()

    def _structure_changed(self) -> None:
        self._community_timer.start()

    def apply(self, change: ChangeRecord) -> None:
        if self.across and not change.empty:
            if change.chat_id in self.chats or change.chat_id in self._chat_of.values():
                self._reload_timer.start()  # a chat shown changed: read them again after the burst
            else:  # a chat that lent nothing yet: a new chat of the character, or its first shared memory
                chat_id, ids = self.chat_id, sorted(change.nodes_added | change.nodes_changed)
                self.context.call(
                    lambda s: s.lends_to_character(chat_id, change.chat_id, ids),
                    lambda lends: self._lends(chat_id, lends),
                )
            return
        if change.chat_id != self.chat_id or change.empty:
            return
        self.context.call(lambda s: _fetch(s, change), self.apply_fetched)

    def _lends(self, chat_id: str, lends: bool) -> None:
        if lends and self.across and chat_id == self.chat_id:
            self._reload_timer.start()

    def apply_fetched(self, fetched: _Fetched) -> None:
        """Upsert what a change record touched (GUI thread; public for tests)."""
        if fetched.chat_id != self.chat_id or self.across:
            return
        change = fetched.change
        added, changed = self.data.upsert_nodes(fetched.nodes)
        self.data.remove_edges(change.edges_removed)
        self.data.upsert_edges(fetched.edges)
        if added.size:
            self.sigNodesAdded.emit(added)
        if changed.size:
            self.sigNodesChanged.emit(changed)
        if change.edges_added or change.edges_changed or change.edges_removed:
            self.sigEdgesChanged.emit()
        if added.size or change.edges_added or change.edges_removed or change.edges_changed:
            self._structure_changed()
        doomed = {i for i in change.nodes_removed if i in self.data.row}
        if doomed:
            self._doomed |= doomed
            self.sigNodesRemoving.emit(self.data.rows_of(doomed))
            self._remove_timer.start()

    def _remove_doomed(self) -> None:
        doomed, self._doomed = self._doomed, set()
        if doomed:
            remap: IntArray = self.data.remove_nodes(doomed)
            if np.any(remap < 0):
                self.sigNodesRemoved.emit(remap)
                self.sigEdgesChanged.emit()
                self._structure_changed()
