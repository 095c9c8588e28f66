"""The memory table's columns: the title takes what the others leave, never less than its floor."""

from __future__ import annotations

from bme_desktop.ui.context import AppContext
from bme_desktop.ui.memory_model import COLUMNS, MemoryTableModel
from bme_desktop.ui.memory_table import MIN_TITLE_CHARS, TITLE_COLUMN, make_memory_table


def _others(table: object) -> int:
    return sum(
        table.columnWidth(c)
        for c in range(len(COLUMNS))  # type: ignore[attr-defined]
        if c != TITLE_COLUMN and not table.isColumnHidden(c)
    )  # type: ignore[attr-defined]


def test_a_narrow_table_keeps_the_title_readable_and_scrolls_sideways(qtbot, context: AppContext) -> None:
    table = make_memory_table(MemoryTableModel(context), multi=True)
    qtbot.addWidget(table)
    table.resize(420, 300)  # a docked panel narrower than the other columns together
    table.show()
    qtbot.waitExposed(table)
    floor = table.fontMetrics().averageCharWidth() * MIN_TITLE_CHARS
    qtbot.waitUntil(lambda: table.columnWidth(TITLE_COLUMN) == floor)  # fitted once the loop has run
    assert table.viewport().width() - _others(table) < floor  # the old stretch would squeeze it below
    assert table.horizontalScrollBar().maximum() > 0


def test_a_wide_table_gives_the_title_the_rest_and_follows_a_resize(qtbot, context: AppContext) -> None:
    table = make_memory_table(MemoryTableModel(context), multi=True)
    qtbot.addWidget(table)
    table.resize(1400, 300)
    table.show()
    qtbot.waitExposed(table)
    qtbot.waitUntil(lambda: table.columnWidth(TITLE_COLUMN) == table.viewport().width() - _others(table))
    table.resize(1600, 300)
    qtbot.waitUntil(lambda: table.columnWidth(TITLE_COLUMN) == table.viewport().width() - _others(table))
    tier = [name for name, _key in COLUMNS].index("tier")
    table.horizontalHeader().resizeSection(tier, table.columnWidth(tier) + 60)  # the user widens a column
    assert table.columnWidth(TITLE_COLUMN) == table.viewport().width() - _others(table)
    assert table.horizontalScrollBar().maximum() == 0
