"""GraphState: what a graph view shows — filter, search, focus, highlight, selection, fades.

Both graph views own one each (they may show different filters) over the shared
:class:`GraphSource`. Everything is a boolean mask over the node rows, recomputed with numpy
when the data or a setting changes; views redraw on ``sigStyleChanged`` and follow the row
structure through ``sigReset`` / ``sigAdded`` / ``sigRemoved``.
"""

from __future__ import annotations

import html
from collections.abc import Iterable

import numpy as np
from PySide6.QtCore import QObject, Signal

from ..labels import node_type_label, tier_label
from ..lifetime import subscribe
from .communities import Communities
from .fader import Fader
from .graph_colors import BY_COMMUNITY, colour_index
from .graph_data import TIER_NAMES, TYPE_NAMES, BoolArray, GraphData, IntArray
from .graph_query import GraphFilter, filter_mask, k_hop, search_mask
from .graph_source import GraphSource


class GraphState(QObject):
    sigReset = Signal()
    sigAdded = Signal(object)  # new rows (at the end)
    sigRemoved = Signal(object)  # remap old row -> new row / -1
    sigEdgesChanged = Signal()
    sigStyleChanged = Signal()  # masks, alpha or selection changed
    sigSelected = Signal(str)  # node id selected by the user in this view ("" for none)
    sigCommunities = Signal()  # new community labels (colours and legend may change)

    def __init__(self, source: GraphSource, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.source = source
        self.filter = GraphFilter()
        self.search_text = ""
        self.focus_id, self.focus_k = "", 1
        self.highlight_ids: frozenset[str] | None = None
        self.selected_id = ""
        self._local = False  # the focus is the local graph's (follows the selection)
        self.local_depth = 0  # >0: show only what lies within that many steps of the selection
        self.color_by = BY_COMMUNITY
        self.hover = -1  # row under the mouse: its neighbourhood is lit, the rest faded
        self.group: IntArray = np.zeros(0, np.int64)  # community per row (-1: not detected yet)
        self.fader = Fader(self)
        self.fader.sigChanged.connect(self.sigStyleChanged)
        self._masks()
        subscribe(self, source.sigReset, self._reset)
        subscribe(self, source.sigNodesAdded, self._added)
        subscribe(self, source.sigNodesChanged, lambda _rows: self._restyle())
        subscribe(self, source.sigNodesRemoving, self.fader.fade_out)
        subscribe(self, source.sigNodesRemoved, self._removed)
        subscribe(self, source.sigEdgesChanged, self._edges_changed)
        subscribe(self, source.sigCommunities, self._communities)
        self.fader.reset(self.data.n)
        self._regroup()

    @property
    def data(self) -> GraphData:
        return self.source.data

    @property
    def alpha(self) -> np.ndarray:
        return self.fader.alpha

    @property
    def communities(self) -> Communities:
        return self.source.communities

    def colours(self) -> IntArray:
        """Per row, its index in the palette of the current colouring."""
        return colour_index(self.color_by, self.data.type_idx, self.group, self.communities)

    # settings ------------------------------------------------------------------------------
    def set_filter(self, f: GraphFilter) -> None:
        self.filter = f
        self._restyle()

    def set_search(self, text: str) -> None:
        self.search_text = text
        self._restyle()

    def focus_on(self, node_id: str, k: int = 1) -> None:
        """Show only ``node_id`` and what lies within ``k`` edges of it ("" to show all again)."""
        self.focus_id, self.focus_k = node_id, k
        self._restyle()

    def set_highlight(self, ids: Iterable[str] | None) -> None:
        """Stress a set of nodes (say, the last recall's) and dim the rest; None clears it."""
        self.highlight_ids = None if ids is None else frozenset(ids)
        self._restyle()

    def set_color_by(self, mode: str) -> None:
        self.color_by = mode
        self._restyle()

    def set_local_depth(self, k: int) -> None:
        """The local graph: only the selection and what lies within ``k`` steps (0: everything)."""
        self.local_depth = max(0, k)
        self._follow_selection()
        self._restyle()

    def set_hover(self, row: int) -> None:
        row = row if 0 <= row < self.data.n else -1
        if row != self.hover:
            self.hover = row
            self._restyle()

    def select(self, node_id: str, *, by_user: bool = False) -> None:
        if node_id == self.selected_id:
            return
        self.selected_id = node_id if node_id in self.data.row else ""
        self._follow_selection()
        self._restyle()
        if by_user:
            self.sigSelected.emit(self.selected_id)

    def select_row(self, row: int) -> None:
        self.select(self.data.ids[row] if 0 <= row < self.data.n else "", by_user=True)

    def _follow_selection(self) -> None:
        if self.local_depth > 0:
            self.focus_id, self.focus_k = (
                (self.selected_id, self.local_depth) if self.selected_id else ("", 1)
            )
            self._local = True
        elif self._local:
            self.focus_id, self._local = "", False

    # masks ---------------------------------------------------------------------------------
    def _regroup(self) -> None:
        self.group = self.communities.labels_for(self.data.ids)

    def _communities(self) -> None:
        self._regroup()
        self.sigCommunities.emit()
        self.sigStyleChanged.emit()

    def _masks(self) -> None:
        data = self.data
        self.filtered: BoolArray = filter_mask(data, self.filter)
        self.search: BoolArray = search_mask(data, self.search_text)
        self.focus: BoolArray | None = None
        if self.focus_id in data.row:
            self.focus = k_hop(data, np.array([data.row[self.focus_id]]), self.focus_k)
        self.highlight: BoolArray | None = None
        if self.highlight_ids is not None:
            self.highlight = np.zeros(data.n, dtype=bool)
            self.highlight[data.rows_of(self.highlight_ids)] = True
        self.selected: int = data.row.get(self.selected_id, -1)
        if self.hover >= data.n:
            self.hover = -1
        self.near: BoolArray | None = None  # the hovered node and its neighbours
        if self.hover >= 0:
            self.near = k_hop(data, np.array([self.hover]), 1)

    def shown(self) -> BoolArray:
        """Nodes drawn at all: they pass the filter and the focus and have not faded out."""
        mask = self.filtered & (self.fader.alpha > 0.0)
        return mask & self.focus if self.focus is not None else mask

    def _restyle(self) -> None:
        self._masks()
        self.sigStyleChanged.emit()

    # structure -----------------------------------------------------------------------------
    def _reset(self) -> None:
        self.fader.reset(self.data.n)
        self.hover = -1
        self._regroup()
        self._masks()
        self.sigReset.emit()

    def _added(self, rows: IntArray) -> None:
        self.fader.add(rows.size)
        self.group = np.concatenate((self.group, np.full(rows.size, -1, np.int64)))
        self._masks()
        self.sigAdded.emit(rows)

    def _removed(self, remap: IntArray) -> None:
        self.fader.compact(remap)
        self.group = self.group[remap >= 0]
        self.hover = int(remap[self.hover]) if self.hover >= 0 else -1
        self._masks()
        self.sigRemoved.emit(remap)

    def _edges_changed(self) -> None:
        if self.focus is not None:
            self._masks()
        self.sigEdgesChanged.emit()

    # text ----------------------------------------------------------------------------------
    def tooltip(self, row: int) -> str:
        data = self.data
        type_name = TYPE_NAMES[data.type_idx[row]] if data.type_idx[row] < len(TYPE_NAMES) else ""
        text = data.texts[row]
        text = text if len(text) <= 280 else text[:279] + "…"
        return (
            f"<b>{html.escape(data.titles[row])}</b><br><i>{html.escape(node_type_label(type_name))}"
            f" · {html.escape(tier_label(TIER_NAMES[data.tier_idx[row]]))}</i>"
            f"<p>{html.escape(text)}</p>"
        )
