"""Persona snapshots: synthesised from approved long-term memories, citing evidence; rejections stick."""

from __future__ import annotations

from typing import Any

from lifecycle_helpers import CHAT, auto_node

from bme_desktop.core.clock import ManualClock
from bme_desktop.core.lifecycle import undo_lifecycle_batch
from bme_desktop.core.lifecycle.persona import current_persona, persona_history, reject_trait, unreject_trait
from bme_desktop.core.model import MessageIn
from bme_desktop.core.service import MemoryService


def _facts(service: MemoryService) -> dict[str, str]:
    service.write(lambda uow: uow.ensure_chat(CHAT, "Aria", "Lin"))
    first = auto_node(service, "fact", {"statement": "Prefers green tea", "category": "preference"}).id
    service.clock.advance(1)  # type: ignore[attr-defined]
    made = {
        "tea": first,
        "tea2": auto_node(
            service, "fact", {"statement": "prefers green tea.", "category": "preference", "subject": "Lin"}
        ).id,
        "paris": auto_node(service, "fact", {"statement": "Wants to move to Paris", "category": "goal"}).id,
        "other": auto_node(
            service, "fact", {"statement": "Is stubborn", "category": "trait", "subject": "Aria"}
        ).id,
        "lin": auto_node(service, "character", {"name": "Lin", "traits": "curious, patient"}).id,
        "draft": auto_node(
            service, "fact", {"statement": "Likes jazz", "category": "preference"}, tier="short_term"
        ).id,
    }
    return made


def test_a_snapshot_cites_its_evidence_and_is_written_only_when_it_changes(service: MemoryService) -> None:
    ids = _facts(service)
    change = service.run_maintenance(CHAT, "persona").value
    persona = current_persona(service, CHAT)
    assert persona is not None and persona.version == 1 and change.batch_id == persona.batch_id
    assert persona.by_kind() == {
        "trait": ["curious", "patient"],
        "preference": ["Prefers green tea"],
        "goal": ["Wants to move to Paris"],
        "decision": [],
    }
    evidence = {tr.text: tr.evidence for tr in persona.traits}
    assert evidence["Prefers green tea"] == [ids["tea"], ids["tea2"]] and evidence["curious"] == [ids["lin"]]
    assert service.run_maintenance(CHAT, "persona").value.batch_id is None  # nothing changed: no new version
    assert len(persona_history(service, CHAT)) == 1


def test_a_rejected_trait_never_returns_and_unapproved_evidence_drops_out(
    service: MemoryService, clock: ManualClock
) -> None:
    ids = _facts(service)
    service.run_maintenance(CHAT, "persona")
    reject_trait(service, CHAT, "Wants to move to Paris")
    persona = current_persona(service, CHAT)
    assert persona is not None and persona.by_kind()["goal"] == []
    for k in range(3):
        clock.advance(86400)
        auto_node(service, "fact", {"statement": f"Decides by gut feeling {k}", "category": "decision"})
        service.run_maintenance(CHAT, "persona")
        latest = current_persona(service, CHAT)
        assert latest is not None and "Wants to move to Paris" not in [t.text for t in latest.traits]
        assert "Wants to move to Paris" not in [t.text for t in persona_history(service, CHAT)[-1].traits]
    service.delete_node(CHAT, ids["lin"])  # evidence gone: its traits leave the current profile at once
    latest = current_persona(service, CHAT)
    assert latest is not None and latest.by_kind()["trait"] == []
    unreject_trait(service, CHAT, "wants to move to paris")
    service.run_maintenance(CHAT, "persona")
    latest = current_persona(service, CHAT)
    assert latest is not None and latest.by_kind()["goal"] == ["Wants to move to Paris"]


def test_undo_and_history_rollback_take_the_snapshot_away(service: MemoryService) -> None:
    service.sync(CHAT, [MessageIn(i, "user", f"m{i}") for i in range(4)])
    _facts(service)
    first = service.run_maintenance(CHAT, "persona").value
    auto_node(service, "fact", {"statement": "Decides slowly", "category": "decision"})
    second = service.run_maintenance(CHAT, "persona").value
    assert second.batch_id is not None and len(persona_history(service, CHAT)) == 2
    undo_lifecycle_batch(service, CHAT, second.batch_id)
    assert [p.version for p in persona_history(service, CHAT)] == [1]

    def extract(uow: Any) -> None:
        uow.begin_batch(CHAT, "extract", actor="test", read_from=2, read_to=3)
        uow.end_batch()

    service.write(extract)
    assert first.batch_id is not None
    service.run_maintenance(CHAT, "persona")  # "Decides slowly" is still there: version 2 again
    auto_node(service, "fact", {"statement": "Decides fast", "category": "decision"})
    service.run_maintenance(CHAT, "persona")
    assert [p.version for p in persona_history(service, CHAT)] == [1, 2, 3]
    service.sync(CHAT, [MessageIn(i, "user", f"m{i}" if i < 3 else "edited") for i in range(4)])
    assert [p.version for p in persona_history(service, CHAT)] == [1]
