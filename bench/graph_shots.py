"""Screenshots of the graph views (2D and nebula) in every theme, at any size, as a person sees them.

    QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1600x1000x24" .venv/bin/python bench/graph_shots.py \
        --nodes 10000 --out /tmp/shots            # a synthetic story (bench/story_graph.py)
    ... bench/graph_shots.py --demo --out /tmp/shots   # the demo story's main chat (~290 memories)

Opens the main window (1440×900) on the chat, shows each view until its layout has settled and
its communities are known, then saves ``<prefix>-<view>-<theme>.png`` for each theme (the layout
is computed once per view; a theme switch only restyles). Prints how long the layout and the
community detection took.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("QT_QPA_PLATFORM", "xcb")

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication

from bme_desktop.core.service import MemoryService
from bme_desktop.core.settings import Settings
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.main_window import MainWindow
from bme_desktop.ui.resources import themes_dir
from bme_desktop.ui.theming import ThemeManager
from bme_desktop.ui.wait_idle import settle

THEMES = ("crimson-synth", "neon-cyan", "amber-console", "violet-haze")


def wait(until: object, timeout: float) -> bool:
    end = time.monotonic() + timeout
    while not until():  # type: ignore[operator]
        QCoreApplication.processEvents()
        time.sleep(0.01)
        if time.monotonic() > end:
            return False
    return True


def main() -> int:
    from bme_desktop.runtime_tuning import limit_blas

    limit_blas()  # the process-wide BLAS cap, as the entry points apply it
    parser = argparse.ArgumentParser()
    parser.add_argument("--nodes", type=int, default=0, help="a synthetic story of this many memories")
    parser.add_argument("--demo", action="store_true", help="the demo story's main chat")
    parser.add_argument("--data-dir", type=Path, help="reuse a data folder (seeded once)")
    parser.add_argument("--out", type=Path, default=Path("/tmp/graph-shots"))
    parser.add_argument("--prefix", default="")
    parser.add_argument("--views", default="graph2d,nebula")
    parser.add_argument("--themes", default=",".join(THEMES))
    parser.add_argument("--lang", choices=("en", "zh"), default="en")
    args = parser.parse_args()
    app = QApplication(sys.argv[:1])
    data_dir = args.data_dir or Path(tempfile.mkdtemp(prefix="bme-shots-"))
    service = MemoryService.open(data_dir, attach=False)
    if args.demo:
        service.build_demo()
        chat = "demo-ember-road"
    else:
        from story_graph import seed_story

        chat = "bench-story"
        seed_story(service, chat, args.nodes)
    if args.lang == "zh":
        from bme_desktop.ui.i18n import install_translator
        from bme_desktop.ui.resources import translations_dir

        install_translator(app, "zh", translations_dir())
    themes = ThemeManager(themes_dir())
    names = args.themes.split(",")
    themes.apply(names[0], app)
    context = AppContext(service, themes, Settings(), data_dir)
    window = MainWindow(context)
    window.resize(1440, 900)
    window.show()
    context.set_chat(chat)
    prefix = args.prefix or (f"{args.nodes // 1000}k" if args.nodes >= 1000 else str(args.nodes or "demo"))
    args.out.mkdir(parents=True, exist_ok=True)
    for key in args.views.split(","):
        window.show_panel(key)
        view = window.views[key]
        start = time.perf_counter()
        settle(context.runner)
        state = view.state
        wait(lambda: state.data.n > 0, 120)  # noqa: B023
        wait(lambda: state.communities.count > 0, 600)  # noqa: B023
        found = time.perf_counter() - start
        link = getattr(view, "link", None)
        if link is not None:
            wait(lambda: link.settled, 900)  # noqa: B023
        settled = time.perf_counter() - start
        print(
            f"{key}: {state.data.n} memories, {state.data.m} links; communities after {found:.1f} s "
            f"({state.communities.count}), layout settled after {settled:.1f} s",
            flush=True,
        )
        fit = getattr(view, "fit", None)
        for theme in names:
            themes.apply(theme, app)
            if fit is not None:
                fit()
            settle(context.runner)
            wait(lambda: False, 1.0)  # let the label timer and a repaint run
            path = args.out / f"{prefix}-{key}-{theme}{'-zh' if args.lang == 'zh' else ''}.png"
            window.grab().save(str(path), "PNG")
            print(path, flush=True)
    context.close()
    window.close()
    service.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
