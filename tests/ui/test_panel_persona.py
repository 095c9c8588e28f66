"""The Persona panel shows the newest snapshot with its evidence, and Reject removes a trait."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bme_desktop.core.lifecycle.tasks import run_step
from bme_desktop.core.model import Node
from bme_desktop.core.service import MemoryService
from bme_desktop.ui.context import AppContext

persona = pytest.importorskip("bme_desktop.core.lifecycle.persona")

CHAT = "chat-1"


def test_a_snapshot_is_shown_and_evidence_selects_its_memory(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    from bme_desktop.ui.panels.persona import NODE_ROLE, PersonaPanel

    fact = seed("fact", {"statement": "Loves the sea", "category": "preference", "subject": "user"})
    run_step(service, CHAT, persona.persona_in)
    panel = PersonaPanel(context)
    qtbot.addWidget(panel)
    context.set_chat(CHAT)
    settled()
    assert "Loves the sea" in panel.reject_buttons
    group = panel.profile.topLevelItem(0)
    trait = group.child(0)
    evidence = trait.child(0)
    assert trait.text(0) == "Loves the sea" and evidence.data(0, NODE_ROLE) == fact.id
    assert panel.timeline.topLevelItemCount() == 1
    with qtbot.waitSignal(context.sigNodeSelected) as selected:
        panel.profile.itemClicked.emit(evidence, 0)
    assert selected.args == [fact.id]


def test_reject_removes_the_trait_from_the_profile(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    from bme_desktop.ui.panels.persona import PersonaPanel

    seed("fact", {"statement": "Hates mornings", "category": "trait", "subject": "user"})
    run_step(service, CHAT, persona.persona_in)
    panel = PersonaPanel(context)
    qtbot.addWidget(panel)
    context.set_chat(CHAT)
    settled()
    panel.reject_buttons["Hates mornings"].click()
    settled()
    assert "Hates mornings" not in panel.reject_buttons
    current = persona.current_persona(service, CHAT)
    assert current is None or all(t.text != "Hates mornings" for t in current.traits)
