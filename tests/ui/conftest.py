"""UI test fixtures: offscreen Qt, a temporary data folder per test, a real store."""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # before any QApplication exists

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.model import MessageIn, Node
from bme_desktop.core.service import MemoryService
from bme_desktop.core.settings import Settings, load_settings
from bme_desktop.ui.app import DesktopApp
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.resources import themes_dir
from bme_desktop.ui.theming import ThemeManager
from bme_desktop.ui.wait_idle import settle, timers_pending

CHAT = "chat-1"


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    monkeypatch.setenv("BME_DATA_DIR", str(folder))  # never the user's real folder
    return folder


@pytest.fixture
def service(data_dir: Path) -> Iterator[MemoryService]:
    svc = MemoryService.open(data_dir, attach=False)
    yield svc
    svc.close()


@pytest.fixture
def seed(service: MemoryService) -> Callable[..., Node]:
    """``seed(type, fields, **draft)`` creates a memory in chat ``CHAT`` (the chat exists after a sync)."""
    service.sync(
        CHAT,
        [MessageIn(index=0, role="user", text="hello"), MessageIn(index=1, role="assistant", text="hi")],
        complete=True,
        character="Lyra",
    )

    def make(type_id: str = "fact", fields: dict[str, str] | None = None, **draft: object) -> Node:
        return service.create_node(
            CHAT, NodeDraft(type=type_id, fields=fields or {"statement": "x"}, **draft), actor="test"
        ).value  # type: ignore[arg-type]

    return make


@pytest.fixture
def context(qapp: object, service: MemoryService, data_dir: Path) -> Iterator[AppContext]:
    ctx = AppContext(service, ThemeManager(themes_dir()), Settings(), data_dir)
    yield ctx
    ctx.close()


@pytest.fixture
def settled(context: AppContext) -> Callable[[], None]:
    """Call to run the event loop until the context's workers and their follow-ups are done."""

    def wait() -> None:
        # coalescing timers (the counts' 250 ms) are waited for, not outlasted by a quiet period
        assert settle(context.runner, quiet_ms=150, pending=timers_pending(context)), (
            "background work did not finish"
        )

    return wait


@pytest.fixture
def desktop(qapp: object, data_dir: Path) -> Iterator[DesktopApp]:
    """The whole app over an empty data folder (no bridge, no pipelines), English first."""
    args = argparse.Namespace(
        database_url=None,
        screenshot=None,
        theme="violet-haze",
        panel=None,
        lang="en",
        demo=False,
        no_bridge=True,
    )
    settings = load_settings(data_dir)
    service = MemoryService.open(data_dir, settings=settings, attach=False)
    app = DesktopApp(qapp, data_dir, args, settings, service, ThemeManager(themes_dir()))  # type: ignore[arg-type]
    try:
        yield app
    finally:
        app.set_language("en")  # leave no Chinese translator installed for later tests
        app.close()
        service.close()


@pytest.fixture
def story_view(qtbot: object, context: AppContext) -> Callable[..., object]:
    """``story_view(n, shown=True, size=(700, 500))``: a Graph2DView over its own GraphSource
    holding the ``n``-memory synthetic story (bench/story_graph.py)."""
    from bench.story_graph import story
    from bme_desktop.ui.views.graph2d import Graph2DView
    from bme_desktop.ui.views.graph_data import GraphData
    from bme_desktop.ui.views.graph_source import GraphSource

    def make(n: int, shown: bool = True, size: tuple[int, int] = (700, 500)) -> Graph2DView:
        source = GraphSource(context)
        view = Graph2DView(context, source=source)
        qtbot.addWidget(view)  # type: ignore[attr-defined]
        view.resize(*size)
        if shown:
            view.show()
        source.set_data(GraphData.from_records(*story(n)))
        return view

    return make
