"""MemoryTableModel: a page-by-page table over ``MemoryService.search_nodes``.

Rows arrive in pages (``fetchMore``) from a worker, so 100k memories cost one page of
work at a time and no widget per row. Sorting and filtering re-query the store. Change
records update only the rows they name, in place. New rows (a sync in progress, an undo that
brings a memory back into a filtered list) are merged in where the store's order puts them,
as row insertions: the rows already shown keep their order and the selection stays on the
same memory (issue 19: "clicked Kael, got another memory").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor

from ..core.events import ChangeRecord
from ..core.lorebook import is_read_only, lore_of
from ..core.model import Node, NodeQuery
from ..core.service import MemoryService
from .context import AppContext
from .format import format_time
from .labels import lorebook_badge, node_type_label, review_label, scope_label, tier_label
from .lifetime import subscribe
from .theming.qt import qcolor

Index = QModelIndex | QPersistentModelIndex
# (column id, sort key in the store or None when the store cannot sort by it)
COLUMNS: tuple[tuple[str, str | None], ...] = (
    ("type", "type"),
    ("title", "title"),
    ("scope", None),
    ("tier", "tier"),
    ("importance", "importance"),
    ("review", None),
    ("recalls", "recall_count"),
    ("updated", "updated_at"),
)
NODE_ID_ROLE = Qt.ItemDataRole.UserRole + 1


_TITLES: dict[str, Callable[[], str]] = {
    "type": lambda: QCoreApplication.translate("MemoryTable", "Type"),
    "title": lambda: QCoreApplication.translate("MemoryTable", "Title"),
    "scope": lambda: QCoreApplication.translate("MemoryTable", "Scope"),
    "tier": lambda: QCoreApplication.translate("MemoryTable", "Tier"),
    "importance": lambda: QCoreApplication.translate("MemoryTable", "Importance"),
    "review": lambda: QCoreApplication.translate("MemoryTable", "Review"),
    "recalls": lambda: QCoreApplication.translate("MemoryTable", "Recalls"),
    "updated": lambda: QCoreApplication.translate("MemoryTable", "Updated"),
}


def scope_badge(node: Node) -> str:
    """The scope a memory is in, or "Lorebook" for one a SillyTavern lorebook gives (a world
    memory, read-only here: the tooltip says so)."""
    return lorebook_badge() if is_read_only(node) else scope_label(node.scope.kind)


def scope_tooltip(node: Node) -> str:
    lore = lore_of(node)
    if lore is None:
        return {
            "chat": QCoreApplication.translate("MemoryTable", "Only this chat remembers it"),
            "character": QCoreApplication.translate(
                "MemoryTable", "Every chat with this character remembers it"
            ),
            "persona": QCoreApplication.translate("MemoryTable", "Every chat of your persona remembers it"),
            "world": QCoreApplication.translate("MemoryTable", "Every chat in this world remembers it"),
        }.get(node.scope.kind, node.scope.kind)
    if lore.get("source") == "sillytavern":
        return QCoreApplication.translate(
            "MemoryTable", "From the SillyTavern lorebook “{0}” (read-only here)"
        ).format(lore.get("book"))
    return QCoreApplication.translate("MemoryTable", "Imported from the World Info file “{0}”").format(
        lore.get("book")
    )


def column_title(column: str) -> str:
    return _TITLES[column]()  # one translation, not seven: the header asks on every polish


class MemoryTableModel(QAbstractTableModel):
    sigLoaded = Signal(int)  # total matching rows, after each (re)load

    def __init__(
        self,
        context: AppContext,
        *,
        page_size: int = 200,
        fixed: NodeQuery | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._context = context
        self._page = page_size
        self._query = fixed or NodeQuery()
        self._rows: list[Node] = []
        self._total = 0
        self._loading = False
        self._generation = 0
        self._chat_id = ""
        self._colors: dict[str, QColor] = {}  # the colours of theme ``_colors_of`` by key, built as asked
        self._colors_of: object = None
        subscribe(self, context.events.sigGraphChanged, self.apply_change)
        subscribe(self, context.themes.sigThemeChanged, self._repaint)

    # query ---------------------------------------------------------------------------------
    @property
    def total(self) -> int:
        return self._total

    @property
    def query(self) -> NodeQuery:
        return self._query

    def set_chat(self, chat_id: str) -> None:
        self._chat_id = chat_id
        self.reload()

    def set_filter(self, **changes: Any) -> None:
        """Change query fields (``q``, ``type``, ``tier``, ``review_status`` …) and re-query."""
        self._query = replace(self._query, **changes, offset=0)
        self.reload()

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        key = COLUMNS[column][1] if 0 <= column < len(COLUMNS) else None
        if key is None:
            return
        self._query = replace(self._query, order_by=key, descending=order == Qt.SortOrder.DescendingOrder)
        self.reload()

    def _search(self, offset: int, limit: int) -> Any:
        chat_id, query = self._chat_id, replace(self._query, offset=offset, limit=limit)

        def run(service: MemoryService) -> tuple[list[Node], int]:
            return service.search_nodes(chat_id, query)

        return run

    def reload(self) -> None:
        self._generation += 1
        generation = self._generation
        if not self._chat_id:
            self._apply_reset(generation, ([], 0))
            return
        self._loading = True
        limit = max(self._page, min(len(self._rows), 2000))
        self._context.call(
            self._search(0, limit),
            lambda res: self._apply_reset(generation, res),
            key=f"memory-model-{id(self)}",
        )

    def _apply_reset(self, generation: int, result: tuple[list[Node], int]) -> None:
        if generation != self._generation:
            return
        self.beginResetModel()
        self._rows, self._total = list(result[0]), result[1]
        self._loading = False
        self.endResetModel()
        self.sigLoaded.emit(self._total)

    def canFetchMore(self, parent: Index = QModelIndex()) -> bool:  # noqa: B008
        return not parent.isValid() and not self._loading and len(self._rows) < self._total

    def fetchMore(self, parent: Index = QModelIndex()) -> None:  # noqa: B008
        if not self.canFetchMore(parent):
            return
        self._loading = True
        generation = self._generation
        self._context.call(
            self._search(len(self._rows), self._page),
            lambda res: self._append(generation, res),
            key=f"memory-model-{id(self)}",
        )

    def _append(self, generation: int, result: tuple[list[Node], int]) -> None:
        if generation != self._generation:
            return
        self._loading = False
        known = {n.id for n in self._rows}
        fresh = [n for n in result[0] if n.id not in known]
        if fresh:
            self.beginInsertRows(QModelIndex(), len(self._rows), len(self._rows) + len(fresh) - 1)
            self._rows.extend(fresh)
            self.endInsertRows()

    # change records ------------------------------------------------------------------------
    def apply_change(self, change: ChangeRecord) -> None:
        if change.chat_id != self._chat_id:
            return
        if change.nodes_removed and self._query.only_deleted:
            self.refresh()
            return
        for node_id in change.nodes_removed:
            self._remove(node_id)
        ids = self._ids()
        loaded = [n for n in change.nodes_changed if n in ids]
        if loaded:
            chat_id = self._chat_id
            self._context.call(
                lambda s: [s.get_node(chat_id, n, include_deleted=True) for n in loaded], self._update_rows
            )
        if change.nodes_added or (self._filtered() and len(loaded) < len(change.nodes_changed)):
            self.refresh()  # new rows, or changed ones that may match the filter now

    def _filtered(self) -> bool:
        q = self._query
        return any(
            v is not None for v in (q.q, q.type, q.tier, q.review_status, q.pinned, q.owner, q.region, q.kind)
        )

    def _ids(self) -> dict[str, int]:
        return {n.id: i for i, n in enumerate(self._rows)}

    def refresh(self) -> None:
        """Query the loaded window again and merge: new rows are inserted where the store's
        order puts them, vanished ones removed, the others updated in place (never moved)."""
        if not self._chat_id:
            return
        generation = self._generation
        self._loading = True
        limit = max(self._page, len(self._rows) + 50)
        self._context.call(
            self._search(0, limit),
            lambda res: self._merge(generation, limit, res),
            key=f"memory-model-{id(self)}",
        )

    def _merge(self, generation: int, limit: int, result: tuple[list[Node], int]) -> None:
        if generation != self._generation:
            return
        self._loading = False
        fresh, total = list(result[0]), result[1]
        complete = len(fresh) < limit  # the query returned every matching row
        fresh_ids = {n.id for n in fresh}
        if complete:  # a loaded row the store no longer lists (deleted, no longer matching)
            for node in [n for n in self._rows if n.id not in fresh_ids]:
                self._remove(node.id)
        ids = self._ids()
        following: str | None = None  # the nearest loaded row after the current one, in the store's order
        inserts: list[tuple[str | None, Node]] = []
        for node in reversed(fresh):
            if node.id in ids:
                following = node.id
            else:
                inserts.append((following, node))
        for following_id, node in reversed(inserts):
            if following_id is None and not (complete or len(self._rows) >= total):
                continue  # beyond the loaded rows: a later page brings it
            row = self.row_of(following_id) if following_id is not None else len(self._rows)
            self.beginInsertRows(QModelIndex(), row, row)
            self._rows.insert(row, node)
            self.endInsertRows()
        self._total = max(total, len(self._rows))
        self._update_rows([n for n in fresh if n.id in ids])
        self.sigLoaded.emit(self._total)

    def _matches(self, node: Node) -> bool:
        q = self._query
        return (
            (q.type is None or node.type == q.type)
            and (q.tier is None or node.tier == q.tier)
            and (q.kind is None or node.scope.kind == q.kind)
            and (q.review_status is None or node.review_status == q.review_status)
            and (node.deleted_at is None or q.include_deleted or q.only_deleted)
        )

    def _update_rows(self, nodes: list[Node]) -> None:
        for node in nodes:
            row = self.row_of(node.id)
            if row < 0:
                continue
            if not self._matches(node):
                self._remove(node.id)
                continue
            if self._rows[row] == node:
                continue
            self._rows[row] = node
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))

    def _remove(self, node_id: str) -> None:
        row = self.row_of(node_id)
        if row >= 0:
            self.beginRemoveRows(QModelIndex(), row, row)
            del self._rows[row]
            self._total = max(0, self._total - 1)
            self.endRemoveRows()

    def _repaint(self, _theme: object) -> None:
        """A new theme: views repaint what they show (only the colour roles changed)."""
        if self._rows:
            self.dataChanged.emit(
                self.index(0, 0),
                self.index(len(self._rows) - 1, len(COLUMNS) - 1),
                [Qt.ItemDataRole.DecorationRole, Qt.ItemDataRole.ForegroundRole],
            )

    def _color(self, key: str) -> QColor:
        """``node:<type>`` or a theme colour token, as a QColor made once per theme."""
        theme = self._context.themes.current
        if theme is not self._colors_of:
            self._colors, self._colors_of = {}, theme
        color = self._colors.get(key)
        if color is None:
            color = qcolor(theme.node_color(key[5:]) if key.startswith("node:") else theme.color(key))
            self._colors[key] = color
        return color

    # access --------------------------------------------------------------------------------
    def node_at(self, row: int) -> Node | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def row_of(self, node_id: str) -> int:
        return next((i for i, n in enumerate(self._rows) if n.id == node_id), -1)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return column_title(COLUMNS[section][0])
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        node = self.node_at(index.row())
        if node is None:
            return None
        column = COLUMNS[index.column()][0]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(node, column)
        if role == NODE_ID_ROLE:
            return node.id
        if role == Qt.ItemDataRole.DecorationRole and column == "type":
            return self._color(f"node:{node.type}")
        if role == Qt.ItemDataRole.ForegroundRole and column == "review" and node.review_status != "approved":
            return self._color("warning" if node.review_status == "pending" else "error")
        if role == Qt.ItemDataRole.ToolTipRole and column == "title":
            return "\n".join(f"{k}: {v}" for k, v in node.fields.items())
        if role == Qt.ItemDataRole.ToolTipRole and column == "scope":
            return scope_tooltip(node)
        if role == Qt.ItemDataRole.ForegroundRole and column == "scope" and node.scope.kind != "chat":
            return self._color("accent")
        if role == Qt.ItemDataRole.TextAlignmentRole and column in ("importance", "recalls"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    @staticmethod
    def _display(node: Node, column: str) -> str:
        if column == "type":
            return node_type_label(node.type)
        if column == "title":
            return ("★ " if node.pinned else "") + node.title
        if column == "scope":
            return scope_badge(node)
        if column == "tier":
            return tier_label(node.tier)
        if column == "importance":
            return f"{node.importance:.1f}"
        if column == "review":
            return review_label(node.review_status)
        if column == "recalls":
            return str(node.recall_count)
        return format_time(node.updated_at)
