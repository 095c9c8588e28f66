"""Three simulated months of daily use: the whole life cycle runs on a manual clock."""

from __future__ import annotations

from dataclasses import replace

from lifecycle_helpers import CHAT, DAY, auto_node, node_rows, working_memory_lines

from bme_desktop.core.clock import ManualClock
from bme_desktop.core.lifecycle import run_upkeep
from bme_desktop.core.lifecycle.patrol import patrol_report
from bme_desktop.core.lifecycle.persona import current_persona
from bme_desktop.core.lifecycle.review import approve_all
from bme_desktop.core.lifecycle.tasks import after_extraction_steps, run_step
from bme_desktop.core.model import MessageIn
from bme_desktop.core.service import MemoryService


def test_ninety_days_of_use_stay_bounded_and_lose_nothing(service: MemoryService, clock: ManualClock) -> None:
    service.settings = replace(
        service.settings,
        lifecycle=replace(
            service.settings.lifecycle,
            auto_compress=True,
            auto_reflect=True,
            reflect_every=10,
            auto_persona=True,
        ),
    )
    messages: list[MessageIn] = []
    for day in range(90):
        text = "I'll feed the cat." if day == 0 else f"Day {day} with Mira."
        messages.append(MessageIn(len(messages), "user", text))
        service.sync(CHAT, list(messages))
        auto_node(
            service,
            "event",
            {"summary": f"Day {day}: Mira and Tom walk", "participants": "Mira, Tom"},
            source_indices=[day],
        )
        if day % 30 == 0:
            auto_node(service, "fact", {"statement": f"Likes walk number {day}", "category": "preference"})
        for step in after_extraction_steps().values():
            run_step(service, CHAT, step)
        run_upkeep(service, CHAT)
        approve_all(service, CHAT)
        clock.advance(DAY)
    rows = list(node_rows(service).values())
    assert len(rows) >= 90 + 3 and all(r["deleted_at"] is None for r in rows)  # nothing ever deleted
    active_level0 = [
        r
        for r in rows
        if r["type"] == "event" and r["level"] == 0 and r["tier"] in ("short_term", "long_term")
    ]
    assert len(active_level0) <= 9  # compression keeps the raw event layer bounded
    assert any(r["type"] == "event" and r["level"] >= 1 for r in rows)
    assert any(r["type"] == "reflection" for r in rows)
    persona = current_persona(service, CHAT)
    assert persona is not None and len(persona.by_kind()["preference"]) == 3
    assert working_memory_lines(service, CHAT) == []  # the cat to-do expired long ago
    assert patrol_report(service, CHAT).chat_id == CHAT
