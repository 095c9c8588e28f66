"""Time to open a big data folder to an interactive window, and to filter the memory table,
each beside a bare QTableView over a QStandardItemModel of the same rows (the floor).

    .venv/bin/python bench/ui.py [--nodes 100000] [--repeat 3]

Seeds N memories straight through the store in one transaction (once per data folder), then:
* open — MemoryService.open + ThemeManager + AppContext + MainWindow shown, until the Memories
  table has its first page and has painted; floor: the same first-page query into a
  QStandardItemModel in a bare QTableView, painted.
* filter — a search typed into the Memories panel (debounce skipped) until the model has its
  rows; floor: the same search_nodes query into a QStandardItemModel, painted.
Offscreen (QT_QPA_PLATFORM=offscreen unless set).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QApplication, QTableView

from bme_desktop.core.editing import new_id
from bme_desktop.core.model import MessageIn, Node, NodeQuery
from bme_desktop.core.schema import node_title
from bme_desktop.core.service import MemoryService
from bme_desktop.core.settings import Settings
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.main_window import MainWindow
from bme_desktop.ui.panels.memories import MemoriesPanel
from bme_desktop.ui.resources import themes_dir
from bme_desktop.ui.theming import ThemeManager

CHAT = "bench-ui"
WORDS = ("lantern", "harbour", "tide", "ember", "raven", "salt", "bell", "rope", "moth", "glass")
app = QApplication(sys.argv[:1])


def seed(data_dir: Path, count: int) -> None:
    service = MemoryService.open(data_dir, attach=False)
    try:
        if service.has_chat(CHAT) and service.chat_stats(CHAT).node_count >= count:
            return
        service.sync(CHAT, [MessageIn(index=0, role="user", text="hello")], complete=True)
        now = service.now()

        def write(uow: object) -> None:
            for i in range(count):
                fields = {"statement": f"{WORDS[i % 10]} {WORDS[i // 10 % 10]} number {i}",
                          "subject": f"{WORDS[i % 7]} {i}"}
                uow.put_node(Node(id=new_id(), chat_id=CHAT, type="fact", title=node_title("fact", fields),  # type: ignore[attr-defined]
                                  fields=fields, importance=float(i % 10), tier="long_term",
                                  created_at=now + i, updated_at=now + i, source_indices=[0]))
        service.write(write)  # type: ignore[arg-type]
    finally:
        service.close()


def wait_until(done: Callable[[], bool]) -> None:
    while not done():
        QCoreApplication.processEvents()
        time.sleep(0.001)


def open_window(data_dir: Path) -> tuple[float, MainWindow, AppContext, MemoryService]:
    start = time.perf_counter()
    service = MemoryService.open(data_dir, attach=False)
    context = AppContext(service, ThemeManager(themes_dir()), Settings(), data_dir)
    window = MainWindow(context)
    window.resize(1440, 900)
    window.show()
    context.set_chat(CHAT)
    panel = window.panel("memories")
    assert isinstance(panel, MemoriesPanel)
    wait_until(lambda: panel.model.rowCount() > 0)
    panel.table.viewport().repaint()
    return time.perf_counter() - start, window, context, service


def floor_table(rows: list[Node]) -> float:
    start = time.perf_counter()
    model = QStandardItemModel(len(rows), 5)
    for r, node in enumerate(rows):
        for c, text in enumerate((node.type, node.title, node.tier, f"{node.importance:.1f}", node.review_status)):
            model.setItem(r, c, QStandardItem(text))
    view = QTableView()
    view.setModel(model)
    view.resize(1000, 700)
    view.show()
    view.viewport().repaint()
    elapsed = time.perf_counter() - start
    view.close()
    return elapsed


def filter_time(panel: MemoriesPanel, text: str) -> float:
    start = time.perf_counter()
    seen: list[int] = []
    panel.model.sigLoaded.connect(seen.append)
    panel.search.blockSignals(True)
    panel.search.setText(text)
    panel.search.blockSignals(False)
    panel._apply_filters()
    wait_until(lambda: bool(seen))
    panel.table.viewport().repaint()
    elapsed = time.perf_counter() - start
    panel.model.sigLoaded.disconnect(seen.append)
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--nodes", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--data-dir", type=Path, default=Path(tempfile.gettempdir()) / "bme-bench-ui")
    args = parser.parse_args()
    args.data_dir.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    seed(args.data_dir, args.nodes)
    print(f"seeded {args.nodes} memories in {time.perf_counter() - started:.1f} s ({args.data_dir})")
    opens, open_floors, filters, filter_floors = [], [], [], []
    searches = ("lantern", "raven salt", "number 4242")
    for _ in range(args.repeat):
        elapsed, window, context, service = open_window(args.data_dir)
        opens.append(elapsed)
        panel = window.panel("memories")
        assert isinstance(panel, MemoriesPanel)
        for text in searches:
            filters.append(filter_time(panel, text))
            start = time.perf_counter()
            rows, _total = service.search_nodes(CHAT, NodeQuery(q=text, limit=200, order_by="updated_at",
                                                                descending=True))
            filter_floors.append(time.perf_counter() - start + floor_table(rows))
        start = time.perf_counter()
        rows, _total = service.search_nodes(CHAT, NodeQuery(limit=200, order_by="updated_at", descending=True))
        open_floors.append(time.perf_counter() - start + floor_table(rows))
        window.close()
        context.close()
        service.close()
        window.deleteLater()
        QCoreApplication.processEvents()
    for name, times, floors in (("open to first painted page", opens, open_floors),
                                ("filter (search → rows)", filters, filter_floors)):
        t, f = statistics.median(times), statistics.median(floors)
        print(f"{name:28s} {t * 1000:8.1f} ms   floor {f * 1000:8.1f} ms   ratio {t / f:5.1f}×")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
