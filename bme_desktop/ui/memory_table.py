"""The table view shared by the memory panels: row selection, compact rows, the title stretching."""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from .memory_model import COLUMNS, MemoryTableModel


def make_memory_table(model: MemoryTableModel, *, multi: bool = False, hidden: tuple[str, ...] = (),
                      parent: QWidget | None = None) -> QTableView:
    """``hidden``: column ids (see ``COLUMNS``) to leave out of this view."""
    table = QTableView(parent)
    table.setModel(model)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection if multi
                           else QAbstractItemView.SelectionMode.SingleSelection)
    table.setAlternatingRowColors(True)
    table.setShowGrid(False)
    table.setWordWrap(False)
    table.verticalHeader().hide()
    table.verticalHeader().setDefaultSectionSize(26)
    header = table.horizontalHeader()
    header.setHighlightSections(False)
    for column, (name, _key) in enumerate(COLUMNS):
        mode = QHeaderView.ResizeMode.Stretch if name == "title" else QHeaderView.ResizeMode.ResizeToContents
        header.setSectionResizeMode(column, mode)
        table.setColumnHidden(column, name in hidden)
    return table
