"""The demo story fills an empty store with every kind of memory; it leaves a used store alone."""

from __future__ import annotations

from bme_desktop.core.schema import NODE_TYPES
from bme_desktop.core.service import MemoryService
from bme_desktop.ui.demo_story import build_demo


def test_demo_fills_an_empty_store_with_every_type_links_reviews_and_recalls(service: MemoryService) -> None:
    report = build_demo(service, scale=2)
    assert report.chats == 2 and report.nodes > 100 and report.edges > 100
    stats = service.chat_stats("demo-ember-road")
    assert set(stats.nodes_by_type) == set(NODE_TYPES)
    assert stats.pending_reviews > 0 and len(stats.nodes_by_tier) >= 3
    assert service.recall_records("demo-ember-road")
    assert any(n.scope.layer == "pov" for n in service.all_nodes("demo-ember-road"))
    assert build_demo(service).chats == 0


def test_demo_story_does_not_import_qt() -> None:
    import ast
    import inspect

    import bme_desktop.ui.demo_story as module
    imported = {n.module or "" for n in ast.walk(ast.parse(inspect.getsource(module))) if isinstance(n, ast.ImportFrom)}
    assert not any("PySide6" in name or "pyqtgraph" in name for name in imported)
