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
* the scripted flow (``--flow``, on by default) — the app as a user drives it, through the real
  DesktopApp (menus, the Memories panel, the editor, the Actions panel): open a chat, filter,
  select, edit + save, four theme switches, a language switch there and back, the 2D graph with
  its layout running, four theme switches with the graph on screen (``theme_switch_graph_cpu_ms``:
  the GUI thread's CPU per switch, median; each switch, picked from the menu, waited for to its
  last turn: ``ThemeManager.switching``), Rebuild graph (confirmed) and its undo. A 5 ms timer on the GUI
  thread
  records every gap between its ticks: ``max_gui_stall_ms`` is the longest gap less the interval,
  i.e. the longest time the event loop did not run, with the step it happened in
  (``stall_by_step_ms``); ``max_gui_stall_cpu_ms`` is the GUI thread's own CPU time in its busiest
  gap (``time.thread_time``), which machine load does not inflate (a wait for the GIL is not in it).
  ``language_switch_ms`` is the language switch (translated in place) until the window has
  painted in the new language (no floor: nothing simpler does the same).
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
from PySide6.QtCore import QCoreApplication, QEvent, QEventLoop, Qt, QTimer
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QApplication, QPlainTextEdit, QTableView

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
                fields = {
                    "statement": f"{WORDS[i % 10]} {WORDS[i // 10 % 10]} number {i}",
                    "subject": f"{WORDS[i % 7]} {i}",
                }
                uow.put_node(
                    Node(
                        id=new_id(),
                        chat_id=CHAT,
                        type="fact",
                        title=node_title("fact", fields),  # type: ignore[attr-defined]
                        fields=fields,
                        importance=float(i % 10),
                        tier="long_term",
                        created_at=now + i,
                        updated_at=now + i,
                        source_indices=[0],
                    )
                )

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
        for c, text in enumerate(
            (node.type, node.title, node.tier, f"{node.importance:.1f}", node.review_status)
        ):
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
        wait_until(
            lambda before=before: (
                panel.model.rowCount() > before or panel.model.rowCount() >= panel.model.total
            )
        )
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
    sheets = [
        (palette_for(themes.themes[n]), stylesheet_for(themes.themes[n], template, icons)) for n in THEMES
    ]
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


def runqueue_s() -> float:
    """Seconds this thread has waited for a CPU while runnable (Linux schedstat; 0 elsewhere)."""
    try:
        with open("/proc/thread-self/schedstat", encoding="ascii") as f:
            return int(f.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


class StallMeter:
    """The longest gaps between ticks of a 5 ms timer on the GUI thread, by flow step: time the event
    loop did not run (a slot, a paint or a synchronous call in the GUI thread took that long).

    Each gap is split three ways: the GUI thread's own CPU, its wait for a CPU while runnable
    (the machine's load: other processes, and our own threads), and the rest, time it was blocked
    (waiting for the GIL held by a worker thread, for a lock, or for I/O)."""

    INTERVAL_MS = 5

    def __init__(self) -> None:
        self.timer = QTimer()
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(self.INTERVAL_MS)
        self.timer.timeout.connect(self._tick)
        self.step = ""
        self.worst: dict[str, float] = {}
        self.worst_cpu: dict[str, float] = {}  # the GUI thread's own CPU time in a gap (load-independent)
        self.long: list[
            tuple[str, float, float, float]
        ] = []  # (step, start s, gap ms, CPU ms) of gaps > 100 ms
        self.parts: dict[str, tuple[float, float, float]] = {}  # the worst gap's (CPU, runqueue, blocked) ms
        self.max_blocked = 0.0  # the longest time blocked (GIL, locks) in any one gap, ms
        self.origin = time.perf_counter()
        self._last = self._last_cpu = self._last_rq = 0.0

    def start(self, step: str) -> None:
        self.step = step
        self.worst.setdefault(step, 0.0)
        self.worst_cpu.setdefault(step, 0.0)
        self._last, self._last_cpu, self._last_rq = time.perf_counter(), time.thread_time(), runqueue_s()
        if not self.timer.isActive():
            self.timer.start()

    def _tick(self) -> None:
        now, cpu, rq = time.perf_counter(), time.thread_time(), runqueue_s()
        stall = (now - self._last) * 1000 - self.INTERVAL_MS
        busy = (cpu - self._last_cpu) * 1000
        queued = (rq - self._last_rq) * 1000
        blocked = max(0.0, (now - self._last) * 1000 - busy - queued)
        if stall > 100:
            self.long.append((self.step, self._last - self.origin, stall, busy))
        self._last, self._last_cpu, self._last_rq = now, cpu, rq
        self.max_blocked = max(self.max_blocked, blocked)
        if stall > self.worst.get(self.step, 0.0):
            self.parts[self.step] = (busy, queued, blocked)
        self.worst[self.step] = max(self.worst.get(self.step, 0.0), stall)
        self.worst_cpu[self.step] = max(self.worst_cpu.get(self.step, 0.0), busy)

    def stop(self) -> None:
        self._tick()
        self.timer.stop()


def wait_for(done: Callable[[], bool], timeout_s: float = 600.0) -> bool:
    """Run the event loop (never blocking it for long) until ``done()``."""
    end = time.perf_counter() + timeout_s
    while not done():
        if time.perf_counter() > end:
            return False
        QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 5)
        time.sleep(0.002)
    return True


def run_for(seconds: float) -> None:
    wait_for(lambda: False, seconds)


def scripted_flow(data_dir: Path, layout_s: float) -> dict[str, object]:
    """The flow of the module docstring through the real app; what each step measured."""
    from argparse import Namespace

    from PySide6.QtTest import QTest

    from bme_desktop.runtime_tuning import freeze_long_lived, thaw_long_lived, tune_interpreter
    from bme_desktop.ui.app import DesktopApp
    from bme_desktop.ui.panels.actions import ActionsPanel
    from bme_desktop.ui.views.graph_source import GraphSource

    tune_interpreter()  # as the app's entry point does
    settings = Settings()
    themes = ThemeManager(themes_dir())
    themes.apply(THEMES[-1], app)
    service = MemoryService.open(data_dir, settings=settings)  # attached: Rebuild graph is available
    desktop = DesktopApp(
        app, data_dir, Namespace(lang="en", demo=False, panel=None), settings, service, themes
    )
    desktop.window.resize(1440, 900)
    desktop.window.show()
    drain()
    freeze_long_lived()  # as gui_main does before its event loop runs
    meter = StallMeter()
    result: dict[str, object] = {}

    def memories() -> MemoriesPanel:
        panel = desktop.window.panel("memories")
        assert isinstance(panel, MemoriesPanel)
        return panel

    meter.start("open")
    desktop.context.set_chat(CHAT)
    source = GraphSource.for_context(desktop.context)
    wait_for(lambda: memories().model.rowCount() > 0 and source.data.n > 0)
    wait_for(lambda: not desktop.context.runner.busy)

    meter.start("filter")
    start = time.perf_counter()
    seen: list[int] = []
    memories().model.sigLoaded.connect(seen.append)
    QTest.keyClicks(memories().search, "raven")
    wait_for(lambda: bool(seen))
    result["flow_filter_ms"] = round((time.perf_counter() - start) * 1000, 1)
    wait_for(lambda: not desktop.context.runner.busy)

    meter.start("select")
    editor = memories().editor
    memories().table.selectRow(3)
    wait_for(lambda: editor.node is not None)
    wait_for(lambda: not desktop.context.runner.busy)

    meter.start("edit+save")
    saved: list[object] = []
    editor.sigSaved.connect(saved.append)
    edit = editor.field_edit("statement")
    if isinstance(edit, QPlainTextEdit):
        edit.setPlainText(edit.toPlainText() + " (edited)")
    else:
        edit.setText(edit.text() + " (edited)")
    editor.save_button.click()
    wait_for(lambda: bool(saved))
    wait_for(lambda: not desktop.context.runner.busy)

    themes_of = desktop.context.themes
    meter.start("theme switch")
    for action in desktop.window.menus.themes.actions():
        action.trigger()
        drain()
        wait_for(lambda: not themes_of.switching)  # a menu switch takes a few turns: all of them
    wait_for(lambda: not desktop.context.runner.busy)

    meter.start("language switch")
    switches = []
    for language in ("zh", "en"):
        start = time.perf_counter()
        desktop.set_language(language)
        # an older build made a new window: its old one's deleteLater runs only in a running exec() loop
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        wait_for(lambda: memories().model.rowCount() > 0)
        desktop.window.repaint()
        switches.append(time.perf_counter() - start)
        run_for(0.2)  # the loop turns: the stall meter ticks, so the switch's own gap is counted in this step
    result["language_switch_ms"] = round(statistics.median(switches) * 1000, 1)
    wait_for(lambda: not desktop.context.runner.busy)

    meter.start("start layout")
    desktop.window.show_panel("graph2d")
    run_for(layout_s)

    meter.start("theme switch, graph shown")  # the 10k graph on screen restyles too
    cpu = []
    for action in desktop.window.menus.themes.actions():
        start_cpu = time.thread_time()
        action.trigger()
        drain()
        wait_for(lambda: not themes_of.switching)
        cpu.append(time.thread_time() - start_cpu)
    result["theme_switch_graph_cpu_ms"] = round(statistics.median(cpu) * 1000, 1)
    wait_for(lambda: not desktop.context.runner.busy)

    meter.start("rebuild")
    actions = desktop.window.panel("actions")
    assert isinstance(actions, ActionsPanel)
    if actions.available("rebuild")[0]:
        actions.run("rebuild")
        wait_for(lambda: actions.confirm_box is not None and actions.confirm_box.isVisible())
        box = actions.confirm_box
        assert box is not None
        go = next(b for b in box.buttons() if box.buttonRole(b) == box.ButtonRole.DestructiveRole)
        go.click()
        wait_for(lambda: "rebuild" not in actions._running)
        wait_for(lambda: not desktop.context.runner.busy)
        meter.start("undo rebuild")
        desktop.window.menus.undo.trigger()
        wait_for(lambda: not desktop.context.runner.busy)
        run_for(1.0)
    else:
        result["rebuild"] = "not available: " + actions.available("rebuild")[1]
    meter.stop()
    result["stall_by_step_ms"] = {k: round(v, 1) for k, v in meter.worst.items()}
    result["max_gui_stall_ms"] = round(max(meter.worst.values()), 1)
    result["stall_cpu_by_step_ms"] = {k: round(v, 1) for k, v in meter.worst_cpu.items()}
    result["max_gui_stall_cpu_ms"] = round(max(meter.worst_cpu.values()), 1)
    result["worst_stall_parts_ms"] = {
        k: {"cpu": round(c, 1), "runqueue": round(q, 1), "blocked": round(b, 1)}
        for k, (c, q, b) in meter.parts.items()
    }
    result["max_gui_blocked_ms"] = round(meter.max_blocked, 1)
    result["flow_origin_epoch"] = round(time.time() - (time.perf_counter() - meter.origin), 3)
    result["stalls_over_100_ms"] = [
        {"step": step, "at_s": round(at, 3), "ms": round(ms, 1), "cpu_ms": round(cpu, 1)}
        for step, at, ms, cpu in meter.long
    ]
    desktop.window.close()
    desktop.close()
    service.close()
    thaw_long_lived()
    return result


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--nodes", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--data-dir", type=Path, default=Path(tempfile.gettempdir()) / "bme-bench-ui")
    parser.add_argument(
        "--theme-rows",
        type=int,
        default=10_000,
        help="rows loaded into the Memories table (scrolled down) before the theme switches",
    )
    parser.add_argument("--only-theme", action="store_true", help="skip the open and filter floors")
    parser.add_argument("--json", type=Path, help="write the medians here")
    parser.add_argument("--no-flow", dest="flow", action="store_false", help="skip the scripted flow")
    parser.add_argument(
        "--layout-seconds", type=float, default=8.0, help="how long the flow lets the 2D graph's layout run"
    )
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
            rows, _total = service.search_nodes(
                CHAT, NodeQuery(q=text, limit=200, order_by="updated_at", descending=True)
            )
            filter_floors.append(time.perf_counter() - start + floor_table(rows))
        if not args.only_theme:
            start = time.perf_counter()
            rows, _total = service.search_nodes(
                CHAT, NodeQuery(limit=200, order_by="updated_at", descending=True)
            )
            open_floors.append(time.perf_counter() - start + floor_table(rows))
        window.close()
        window.deleteLater()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        QCoreApplication.processEvents()
        switch_floors.append(floor_theme(floor_rows, context.themes))  # the main window gone
        context.close()
        service.close()
    report: dict[str, object] = {"nodes": args.nodes}
    for name, key, times, floors in (
        ("open to first painted page", "open_ms", opens, open_floors),
        ("filter (search → rows)", "filter_ms", filters, filter_floors),
        ("theme switch", "theme_switch_ms", switches, switch_floors),
    ):
        if not times or not floors:
            continue
        t, f = statistics.median(times), statistics.median(floors)
        report[key], report[key.replace("_ms", "_floor_ms")] = round(t * 1000, 1), round(f * 1000, 1)
        print(f"{name:28s} {t * 1000:8.1f} ms   floor {f * 1000:8.1f} ms   ratio {t / f:5.1f}×")
    report["theme_switch_max_ms"] = round(max(switches) * 1000, 1)
    report["theme_switch_cpu_ms"] = round(statistics.median(switch_cpu) * 1000, 1)
    report["theme_switch_data_calls"] = int(statistics.median(switch_calls))
    report["theme_switch_rows_loaded"] = loaded_rows
    print(
        f"theme switch: slowest {max(switches) * 1000:.1f} ms, CPU median "
        f"{statistics.median(switch_cpu) * 1000:.1f} ms; MemoryTableModel.data calls per switch "
        f"median {int(statistics.median(switch_calls)):,} (max {max(switch_calls):,}) with {loaded_rows:,} "
        "rows "
        f"loaded in the Memories table"
    )
    if args.flow:
        flow = scripted_flow(args.data_dir, args.layout_seconds)
        print(f"language switch (there and back, median) {flow['language_switch_ms']} ms")
        print(f"max GUI stall {flow['max_gui_stall_ms']} ms; by step: {flow['stall_by_step_ms']}")
        print(
            f"max GUI-thread CPU in one stall {flow['max_gui_stall_cpu_ms']} ms; by step: "
            f"{flow['stall_cpu_by_step_ms']}"
        )
        print(
            "each step's longest stall as (GUI CPU, waiting for a CPU, blocked: GIL/locks) ms: "
            + ", ".join(
                f"{k} {v['cpu']:.0f}/{v['runqueue']:.0f}/{v['blocked']:.0f}"
                for k, v in flow["worst_stall_parts_ms"].items()
            )
            + f"; longest blocked in any gap {flow['max_gui_blocked_ms']} ms"
        )
        report.update(flow)  # type: ignore[arg-type]
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
