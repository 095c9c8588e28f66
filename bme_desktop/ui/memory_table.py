"""The table view shared by the memory panels: row selection, compact rows, the title taking the rest.

Column widths come from what a column can hold — the longest translated type, tier and review
label, a date, the header text — measured with the table's own font and style sheet, never from
the rows: ``ResizeToContents`` asked the model for up to 1,000 rows of every column each time
the view was polished, so a theme switch with a few thousand memories loaded made ~600,000
``data()`` calls (issue 19). The widths are measured again when the table's font or style
changes (a theme switch, a font change); with rows of one fixed height, a repaint asks only for
the rows on screen.

The title takes what the other columns leave, but never less than ``MIN_TITLE_CHARS`` average
characters: a narrow panel scrolls sideways rather than squeezing the title to nothing (with a
Stretch title, the Scope column's arrival left it three letters wide in a docked panel).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPersistentModelIndex, QSize, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QStyle,
    QStyleOptionViewItem,
    QTableView,
    QWidget,
)

from ..core.schema import NODE_TYPES, REVIEW_STATUSES, TIERS
from ..core.scopes import SCOPE_KINDS
from .format import format_time
from .labels import lorebook_badge, node_type_label, review_label, scope_label, tier_label
from .memory_model import COLUMNS, MemoryTableModel

ROW_HEIGHT = 26
MIN_TITLE_CHARS = 18
TITLE_COLUMN = [name for name, _key in COLUMNS].index("title")


def column_samples(column: str) -> tuple[list[str], bool]:
    """The widest texts column ``column`` can show, and whether its cells carry a decoration."""
    if column == "type":
        return [node_type_label(t) for t in NODE_TYPES], True
    if column == "scope":
        return [scope_label(k) for k in SCOPE_KINDS] + [lorebook_badge()], False
    if column == "tier":
        return [tier_label(t) for t in TIERS], False
    if column == "review":
        return [review_label(s) for s in REVIEW_STATUSES], False
    if column == "importance":
        return ["10.0"], False
    if column == "recalls":
        return ["99999"], False
    if column == "updated":
        return [format_time(4_102_444_740.0)], False  # 2099-12-31 23:59, as wide as any date
    return [], False


def _cell_width(table: QTableView, text: str, decorated: bool) -> int:
    option = QStyleOptionViewItem()
    option.initFrom(table)
    option.font = table.font()
    option.fontMetrics = table.fontMetrics()
    option.text = text
    option.features = QStyleOptionViewItem.ViewItemFeature.HasDisplay
    if decorated:
        option.features |= QStyleOptionViewItem.ViewItemFeature.HasDecoration
        extent = table.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize, None, table)
        option.decorationSize = table.iconSize() if table.iconSize().isValid() else QSize(extent, extent)
    size = table.style().sizeFromContents(QStyle.ContentsType.CT_ItemViewItem, option, QSize(), table)
    return size.width() + (1 if table.showGrid() else 0)


def fit_columns(table: QTableView) -> None:
    """Size every column but the stretching title to the widest text it can hold (see module doc)."""
    header = table.horizontalHeader()
    for column, (name, _key) in enumerate(COLUMNS):
        if name == "title":  # a hidden column too: Qt keeps the width for when it is shown
            continue
        texts, decorated = column_samples(name)
        width = max([header.sectionSizeHint(column)] + [_cell_width(table, t, decorated) for t in texts])
        if header.sectionSize(column) != width:
            header.resizeSection(column, width)
    fit_title(table)


def fit_title(table: QTableView) -> None:
    """Give the title what the visible columns leave of the viewport, at least ``MIN_TITLE_CHARS``."""
    header = table.horizontalHeader()
    others = sum(
        header.sectionSize(c)
        for c in range(len(COLUMNS))
        if c != TITLE_COLUMN and not table.isColumnHidden(c)
    )
    floor = table.fontMetrics().averageCharWidth() * MIN_TITLE_CHARS
    width = max(floor, table.viewport().width() - others)
    if header.sectionSize(TITLE_COLUMN) != width:
        header.resizeSection(TITLE_COLUMN, width)


class _ColumnFitter(QObject):
    """Measures the columns again when the table's or its header's font or style changes: once,
    when the event loop next runs (a theme switch sends each of them several such events)."""

    _EVENTS = (
        QEvent.Type.Polish,
        QEvent.Type.StyleChange,
        QEvent.Type.FontChange,
        QEvent.Type.LanguageChange,
    )

    def __init__(self, table: QTableView) -> None:
        super().__init__(table)
        self._table = table
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(lambda: fit_columns(self._table))
        self._title_timer = QTimer(self)  # a resize: the title takes the new width once the viewport has it
        self._title_timer.setSingleShot(True)
        self._title_timer.setInterval(0)
        self._title_timer.timeout.connect(lambda: fit_title(self._table))
        table.installEventFilter(self)
        table.horizontalHeader().installEventFilter(self)
        table.horizontalHeader().sectionResized.connect(self._section_resized)

    def _section_resized(self, column: int, _old: int, _new: int) -> None:
        if column != TITLE_COLUMN:  # a column dragged wider or narrower: the title takes up the rest
            fit_title(self._table)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in self._EVENTS and not self._timer.isActive():
            self._timer.start()
        elif (
            event.type() == QEvent.Type.Resize and watched is self._table and not self._title_timer.isActive()
        ):
            self._title_timer.start()
        return False


class _PlaceKeeper(QObject):
    """Rows inserted above the selected memory (a sync in progress, an undo) scroll the view by
    their height, so the selected row stays where it was on screen and under the pointer; rows
    inserted above the top of the view, with nothing selected on screen, keep the view still (at
    the very top they show up)."""

    def __init__(self, table: QTableView) -> None:
        super().__init__(table)
        self._table = table
        self._anchor: QPersistentModelIndex | None = None
        self._anchor_y = 0
        model = table.model()
        model.rowsAboutToBeInserted.connect(self._before)
        model.rowsInserted.connect(self._after)

    def _before(self, _parent: QModelIndex, _first: int, _last: int) -> None:
        table = self._table
        current = table.currentIndex()
        row = (
            current.row()
            if current.isValid() and table.selectionModel().isRowSelected(current.row(), QModelIndex())
            else -1
        )
        y = table.rowViewportPosition(row) if row >= 0 else -1
        if row < 0 or not 0 <= y < table.viewport().height():  # no selected row on screen: the top one,
            if table.verticalScrollBar().value() == 0:  # unless at the top: new rows show up there
                self._anchor = None
                return
            row = table.rowAt(0)
            y = table.rowViewportPosition(row) if row >= 0 else 0
        self._anchor = QPersistentModelIndex(table.model().index(row, 0)) if row >= 0 else None
        self._anchor_y = y

    def _after(self, _parent: QModelIndex, first: int, last: int) -> None:
        anchor, self._anchor = self._anchor, None
        if anchor is None or not anchor.isValid() or first > anchor.row():
            return
        table = self._table
        table.updateGeometries()  # the scroll range must include the new rows now
        bar = table.verticalScrollBar()
        if table.verticalScrollMode() == QAbstractItemView.ScrollMode.ScrollPerItem:
            bar.setValue(bar.value() + last - first + 1)
        else:
            bar.setValue(bar.value() + table.rowViewportPosition(anchor.row()) - self._anchor_y)


def make_memory_table(
    model: MemoryTableModel,
    *,
    multi: bool = False,
    hidden: tuple[str, ...] = (),
    parent: QWidget | None = None,
) -> QTableView:
    """``hidden``: column ids (see ``COLUMNS``) to leave out of this view."""
    table = QTableView(parent)
    table.setModel(model)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(
        QAbstractItemView.SelectionMode.ExtendedSelection
        if multi
        else QAbstractItemView.SelectionMode.SingleSelection
    )
    table.setAlternatingRowColors(True)
    table.setShowGrid(False)
    table.setWordWrap(False)
    vertical = table.verticalHeader()
    vertical.hide()
    vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    vertical.setDefaultSectionSize(ROW_HEIGHT)
    header = table.horizontalHeader()
    header.setHighlightSections(False)
    header.setResizeContentsPrecision(50)  # a double-click on a divider measures 50 rows, not 1,000
    for column, (name, _key) in enumerate(COLUMNS):
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
        table.setColumnHidden(column, name in hidden)
    fit_columns(table)
    _ColumnFitter(table)
    _PlaceKeeper(table)
    return table
