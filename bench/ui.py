"""Time to open a big data folder to an interactive window, and to filter the memory table,
each beside a bare QTableView over a QStandardItemModel of the same rows (the floor).

    .venv/bin/python bench/ui.py [--nodes 100000] [--repeat 3]

Seeds N memories straight through the store in one transaction (once per data folder), then:
* open — MemoryService.open + ThemeManager + AppContext + MainWindow shown, until the Memories
  table has its first page and has painted; floor: the same first-page query into a
  QStandardItemModel in a bare QTableView, painted.
* filter — a search typed into the Memories panel (debounce skipped) until the model has its
  rows; floor: the same search_nodes query into a QStandardItemModel, painted.
* theme switch — ``ThemeManager.apply`` (the app's own path: View → Theme and Settings call it)
  through the four themes, each until the posted events (polish, layout, paint) are done, with
  the Memories table scrolled to its last loaded rows; the MemoryTableModel.data calls each
  switch made are counted (a switch should ask for the rows on screen, not every loaded row).
  Floor: the same QSS and palette set on a bare QTableView window over a QStandardItemModel of
  as many rows.
Offscreen (QT_QPA_PLATFORM=offscreen unless set). ``--json FILE`` writes the medians (ms) and
the data() counts.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QApplication, QTableView

from bme_desktop.core.editing import new_id
from bme_desktop.core.model import MessageIn, Node, NodeQuery
from bme_desktop.core.schema import node_title
from bme_desktop.core.service import MemoryService
from bme_desktop.core.settings import Settings
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.main_window import MainWindow
from bme_desktop.ui.memory_model import MemoryTableModel
from bme_desktop.ui.panels.memories import MemoriesPanel
from bme_desktop.ui.resources import themes_dir
from bme_desktop.ui.theming import ThemeManager
from bme_desktop.ui.theming.icons import ColoredIcons
from bme_desktop.ui.theming.manager import restyle
from bme_desktop.ui.theming.qt import palette_for, stylesheet_for

CHAT = "bench-ui"
WORDS = ("lantern", "harbour", "tide", "ember", "raven", "salt", "bell", "rope", "moth", "glass")
THEMES = ("neon-cyan", "amber-console", "violet-haze", "crimson-synth")
app = QApplication(sys.argv[:1])
DATA_CALLS = [0]
_data = MemoryTableModel.data


def _counted_data(self: MemoryTableModel, *args: object) -> object:
    DATA_CALLS[0] += 1
    return _data(self, *args)  # type: ignore[arg-type]


MemoryTableModel.data = _counted_data  # type: ignore[method-assign]  # before any model exists


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
    themes = ThemeManager(themes_dir())
    themes.apply(THEMES[-1], app)  # as ui/app.py does before the window exists
    context = AppContext(service, themes, Settings(), data_dir)
    window = MainWindow(context)
    window.resize(1440, 900)
    window.show()
    context.set_chat(CHAT)
    panel = window.panel("memories")
    assert isinstance(panel, MemoriesPanel)
    wait_until(lambda: panel.model.rowCount() > 0)
    panel.table.viewport().repaint()
    return time.perf_counter() - start, window, context, service


def bare_table(rows: list[Node]) -> QTableView:
    """A plain QTableView over a QStandardItemModel of ``rows``, shown."""
    model = QStandardItemModel(len(rows), 5)
    for r, node in enumerate(rows):
        for c, text in enumerate((node.type, node.title, node.tier, f"{node.importance:.1f}", node.review_status)):
            model.setItem(r, c, QStandardItem(text))
    view = QTableView()
    view.setModel(model)
    model.setParent(view)
    view.resize(1000, 700)
    view.show()
    return view


def floor_table(rows: list[Node]) -> float:
    start = time.perf_counter()
    view = bare_table(rows)
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


def drain() -> None:
    """Run what the last change posted (polish, layout requests, paint) until nothing is left."""
    for _ in range(3):
        QCoreApplication.sendPostedEvents()
        QCoreApplication.processEvents()


def load_all(panel: MemoriesPanel, rows: int) -> None:
    """Scroll the Memories table down until ``rows`` are loaded (as a user paging through)."""
    while panel.model.rowCount() < min(rows, panel.model.total):
        before = panel.model.rowCount()
        panel.table.scrollToBottom()
        panel.model.fetchMore()
        wait_until(lambda before=before: panel.model.rowCount() > before or panel.model.rowCount() >= panel.model.total)
        if panel.model.rowCount() == before:
            break
    panel.table.scrollToBottom()
    drain()


def theme_switch_times(context: AppContext) -> tuple[list[float], list[float], list[int]]:
    """Wall and CPU seconds and data() calls of each switch (CPU: this process, all threads)."""
    times, cpu, calls = [], [], []
    for name in THEMES:
        drain()
        DATA_CALLS[0] = 0
        start, start_cpu = time.perf_counter(), time.process_time()
        context.themes.apply(name)
        drain()
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        calls.append(DATA_CALLS[0])
    return times, cpu, calls


def floor_theme(rows: list[Node], themes: ThemeManager) -> float:
    """The same style sheets set (as ThemeManager sets them) on a bare window holding a QTableView
    of the same rows, with no other widget alive."""
    view = bare_table(rows)
    view.scrollToBottom()
    icons, template = ColoredIcons(), themes_dir() / "base.qss"
    sheets = [(palette_for(themes.themes[n]), stylesheet_for(themes.themes[n], template, icons)) for n in THEMES]
    old_sheet, old_palette = app.styleSheet(), app.palette()
    drain()
    times = []
    for palette, sheet in sheets:
        start = time.perf_counter()
        restyle(app, palette, sheet)
        drain()
        times.append(time.perf_counter() - start)
    view.close()
    app.setPalette(old_palette)
    app.setStyleSheet(old_sheet)
    drain()
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--nodes", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--data-dir", type=Path, default=Path(tempfile.gettempdir()) / "bme-bench-ui")
    parser.add_argument("--theme-rows", type=int, default=10_000,
                        help="rows loaded into the Memories table (scrolled down) before the theme switches")
    parser.add_argument("--only-theme", action="store_true", help="skip the open and filter floors")
    parser.add_argument("--json", type=Path, help="write the medians here")
    args = parser.parse_args()
    args.data_dir.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    seed(args.data_dir, args.nodes)
    print(f"seeded {args.nodes} memories in {time.perf_counter() - started:.1f} s ({args.data_dir})")
    opens, open_floors, filters, filter_floors = [], [], [], []
    switches: list[float] = []
    switch_calls: list[int] = []
    switch_cpu: list[float] = []
    switch_floors: list[float] = []
    loaded_rows = 0
    searches = () if args.only_theme else ("lantern", "raven salt", "number 4242")
    for _ in range(args.repeat):
        elapsed, window, context, service = open_window(args.data_dir)
        opens.append(elapsed)
        panel = window.panel("memories")
        assert isinstance(panel, MemoriesPanel)
        load_all(panel, args.theme_rows)
        loaded_rows = panel.model.rowCount()
        times, cpu, calls = theme_switch_times(context)
        switches += times
        switch_cpu += cpu
        switch_calls += calls
        floor_rows = [n for n in (panel.model.node_at(r) for r in range(loaded_rows)) if n]
        for text in searches:
            filters.append(filter_time(panel, text))
            start = time.perf_counter()
            rows, _total = service.search_nodes(CHAT, NodeQuery(q=text, limit=200, order_by="updated_at",
                                                                descending=True))
            filter_floors.append(time.perf_counter() - start + floor_table(rows))
        if not args.only_theme:
            start = time.perf_counter()
            rows, _total = service.search_nodes(CHAT, NodeQuery(limit=200, order_by="updated_at", descending=True))
            open_floors.append(time.perf_counter() - start + floor_table(rows))
        window.close()
        window.deleteLater()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        QCoreApplication.processEvents()
        switch_floors.append(floor_theme(floor_rows, context.themes))  # the main window gone
        context.close()
        service.close()
    report: dict[str, float | int] = {"nodes": args.nodes}
    for name, key, times, floors in (("open to first painted page", "open_ms", opens, open_floors),
                                     ("filter (search → rows)", "filter_ms", filters, filter_floors),
                                     ("theme switch", "theme_switch_ms", switches, switch_floors)):
        if not times or not floors:
            continue
        t, f = statistics.median(times), statistics.median(floors)
        report[key], report[key.replace("_ms", "_floor_ms")] = round(t * 1000, 1), round(f * 1000, 1)
        print(f"{name:28s} {t * 1000:8.1f} ms   floor {f * 1000:8.1f} ms   ratio {t / f:5.1f}×")
    report["theme_switch_max_ms"] = round(max(switches) * 1000, 1)
    report["theme_switch_cpu_ms"] = round(statistics.median(switch_cpu) * 1000, 1)
    report["theme_switch_data_calls"] = int(statistics.median(switch_calls))
    report["theme_switch_rows_loaded"] = loaded_rows
    print(f"theme switch: slowest {max(switches) * 1000:.1f} ms, CPU median "
          f"{statistics.median(switch_cpu) * 1000:.1f} ms; MemoryTableModel.data calls per switch "
          f"median {int(statistics.median(switch_calls)):,} (max {max(switch_calls):,}) with {loaded_rows:,} rows "
          f"loaded in the Memories table")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
