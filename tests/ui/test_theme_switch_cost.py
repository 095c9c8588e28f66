"""A theme switch with a big table loaded asks the model for the rows on screen, not for every row
(issue 19: ``setStyleSheet`` re-measured ``ResizeToContents`` columns over up to 1,000 rows each,
590,221 ``MemoryTableModel.data`` calls at 9,127 memories). Counts, never wall-clock times."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QCoreApplication, QModelIndex
from PySide6.QtWidgets import QTableView

from bme_desktop.core.editing import new_id
from bme_desktop.core.model import MessageIn, Node
from bme_desktop.core.schema import NODE_TYPES, TIERS, node_title
from bme_desktop.core.service import MemoryService
from bme_desktop.core.store.unit_of_work import UnitOfWork
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.labels import node_type_label, tier_label
from bme_desktop.ui.memory_model import COLUMNS, MemoryTableModel
from bme_desktop.ui.memory_table import make_memory_table

CHAT = "chat-1"
ROWS = 2000
THEMES = ("neon-cyan", "amber-console", "violet-haze", "crimson-synth")
# Per cell on screen a paint asks 7 roles and a switch paints 3 times (measured); allow one more.
ROLES_PER_CELL = 8
PAINTS = 4


def _seed(service: MemoryService, count: int) -> None:
    service.sync(CHAT, [MessageIn(index=0, role="user", text="hello")], complete=True)
    now = service.now()

    def write(uow: UnitOfWork) -> None:
        for i in range(count):
            fields = {"statement": f"statement {i}", "subject": f"subject {i}"}
            uow.put_node(
                Node(
                    id=new_id(),
                    chat_id=CHAT,
                    type="fact",
                    title=node_title("fact", fields),
                    fields=fields,
                    importance=float(i % 10),
                    tier=TIERS[i % 2],
                    created_at=now + i,
                    updated_at=now + i,
                    review_status=("pending", "approved", "rejected")[i % 3],
                    source_indices=[0],
                )
            )

    service.write(write)


def _drain() -> None:
    for _ in range(3):
        QCoreApplication.sendPostedEvents()
        QCoreApplication.processEvents()


class Calls:
    def __init__(self) -> None:
        self.count = 0
        self.rows: set[int] = set()

    def clear(self) -> None:
        self.count, self.rows = 0, set()


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Calls:
    calls = Calls()
    original = MemoryTableModel.data

    def data(self: MemoryTableModel, index: QModelIndex, *args: object) -> object:
        calls.count += 1
        calls.rows.add(index.row())
        return original(self, index, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(MemoryTableModel, "data", data)  # before the model exists
    return calls


def _loaded_table(
    qtbot: object, context: AppContext, service: MemoryService
) -> tuple[MemoryTableModel, QTableView]:
    _seed(service, ROWS)
    context.themes.apply("crimson-synth")  # as the app does before its window exists
    model = MemoryTableModel(context, page_size=ROWS)
    table = make_memory_table(model, multi=True)
    qtbot.addWidget(table)  # type: ignore[attr-defined]
    table.resize(900, 600)
    table.show()
    model.set_chat(CHAT)
    qtbot.waitUntil(lambda: model.rowCount() == ROWS, timeout=20_000)  # type: ignore[attr-defined]
    table.scrollToBottom()
    _drain()
    return model, table


def test_a_theme_switch_asks_the_model_only_for_the_rows_on_screen(
    qtbot: object, context: AppContext, service: MemoryService, counted: Calls
) -> None:
    model, table = _loaded_table(qtbot, context, service)
    first = table.rowAt(0)
    last = table.rowAt(table.viewport().height() - 1)
    last = ROWS - 1 if last < 0 else last
    on_screen = last - first + 1
    assert 10 < on_screen < 40 and last == ROWS - 1  # scrolled to the bottom of 2,000 rows
    bound = PAINTS * ROLES_PER_CELL * on_screen * len(COLUMNS)  # ~4,000, whatever the model's size
    for name in THEMES:
        counted.clear()
        context.themes.apply(name)
        _drain()
        assert context.themes.current.name == name
        assert 0 < counted.count <= bound, f"{name}: {counted.count} data() calls, {on_screen} rows on screen"
        assert min(counted.rows) >= first - 1 and max(counted.rows) <= last + 1, sorted(counted.rows)
    # the colours the model hands out follow the theme
    row = next(
        r for r in range(ROWS) if model.node_at(r) is not None and model.node_at(r).review_status == "pending"
    )  # type: ignore[union-attr]
    color = model.data(model.index(row, [c for c, _ in COLUMNS].index("review")), 9)  # ForegroundRole
    assert color.name() == context.themes.current.color("warning")


def test_columns_fit_their_longest_label_without_measuring_rows(
    qtbot: object, context: AppContext, service: MemoryService, counted: Calls
) -> None:
    _model, table = _loaded_table(qtbot, context, service)
    names = [c for c, _ in COLUMNS]
    metrics = table.fontMetrics()
    for column, labels in (
        ("type", [node_type_label(t) for t in NODE_TYPES]),
        ("tier", [tier_label(t) for t in TIERS]),
    ):
        widest = max(metrics.horizontalAdvance(label) for label in labels)
        assert table.columnWidth(names.index(column)) > widest
    counted.clear()
    bigger = table.font()
    bigger.setPointSizeF(bigger.pointSizeF() * 1.5)
    before = table.columnWidth(names.index("type"))
    table.setFont(bigger)  # a font change measures the columns again, from the labels
    _drain()
    assert table.columnWidth(names.index("type")) > before
    assert counted.rows and max(counted.rows) - min(counted.rows) < 60  # the rows on screen only
