"""The demo story fills an empty store with every kind of memory; it leaves a used store alone."""

from __future__ import annotations

from collections.abc import Callable

from bme_desktop.core.schema import NODE_TYPES
from bme_desktop.core.service import MemoryService
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.demo_story import USER_ARC


def test_demo_fills_an_empty_store_with_every_type_links_reviews_and_recalls(service: MemoryService) -> None:
    report = service.build_demo(scale=2).value
    assert report.chats == 2 and report.nodes > 100 and report.edges > 100
    stats = service.chat_stats("demo-ember-road")
    assert set(stats.nodes_by_type) == set(NODE_TYPES)
    assert stats.pending_reviews > 0 and len(stats.nodes_by_tier) >= 3
    assert service.recall_records("demo-ember-road")
    assert any(n.scope.layer == "pov" for n in service.all_nodes("demo-ember-road"))
    assert service.build_demo().value.chats == 0


def test_demo_story_does_not_import_qt() -> None:
    import ast
    import inspect

    import bme_desktop.ui.demo_story as module

    imported = {
        n.module or ""
        for n in ast.walk(ast.parse(inspect.getsource(module)))
        if isinstance(n, ast.ImportFrom)
    }
    assert not any("PySide6" in name or "pyqtgraph" in name for name in imported)


def test_demo_gives_the_user_a_persona_that_grew_over_three_snapshots(service: MemoryService) -> None:
    from bme_desktop.core.lifecycle.persona import KINDS, current_persona, persona_history
    from bme_desktop.core.lifecycle.tiers import is_injectable

    service.build_demo(scale=2)
    history = persona_history(service, "demo-ember-road")
    assert [p.version for p in history] == [1, 2, 3]
    assert [p.at for p in history] == sorted(p.at for p in history)
    assert [len(p.traits) for p in history] == sorted(len(p.traits) for p in history)
    current = current_persona(service, "demo-ember-road")
    assert current is not None and current.version == 3
    assert {tr.kind for tr in current.traits} == set(KINDS)
    patient = next(tr for tr in current.traits if tr.text == "patient with strangers")
    assert len(patient.evidence) == 2  # said twice, one trait with both memories as evidence
    for node in service.read(
        lambda r: r.nodes_by_ids("demo-ember-road", {i for tr in current.traits for i in tr.evidence})
    ):
        assert is_injectable(node) and node.created_at <= current.at


def test_the_persona_panel_shows_the_demo_profile_and_its_timeline(
    qtbot, context: AppContext, service: MemoryService, settled: Callable[[], None]
) -> None:
    from bme_desktop.ui.panels.persona import PersonaPanel

    service.build_demo(scale=2)
    panel = PersonaPanel(context)
    qtbot.addWidget(panel)
    context.set_chat("demo-ember-road")
    settled()
    assert panel.profile.topLevelItemCount() == 4  # traits, preferences, goals, decision style
    assert "patient with strangers" in panel.reject_buttons
    assert panel.timeline.topLevelItemCount() == 3


def test_an_upkeep_pass_after_the_demo_keeps_the_persona_evidence_approved(service: MemoryService) -> None:
    from bme_desktop.core.lifecycle.persona import current_persona
    from bme_desktop.core.lifecycle.tasks import run_upkeep

    service.build_demo(scale=2)
    before = current_persona(service, "demo-ember-road")
    run_upkeep(service, "demo-ember-road")  # the app runs one at start: new memories go to review
    after = current_persona(service, "demo-ember-road")
    assert after is not None and before is not None
    arc = {text for _age, statements in USER_ARC for _kind, text in statements}
    assert arc <= {tr.text for tr in before.traits}
    assert arc <= {tr.text for tr in after.traits}
