"""Consolidation of near-duplicates and the hierarchical summaries."""

from __future__ import annotations

from typing import Any

from lifecycle_helpers import CHAT, auto_node, get

from bme_desktop.core.clock import ManualClock
from bme_desktop.core.lifecycle import undo_lifecycle_batch
from bme_desktop.core.lifecycle.similarity import lexical_similarity
from bme_desktop.core.model import MessageIn
from bme_desktop.core.service import MemoryService


def test_near_duplicates_merge_with_the_evidence_of_both(service: MemoryService, clock: ManualClock) -> None:
    old = auto_node(
        service,
        "fact",
        {"statement": "Mira keeps a silver key on a red cord", "category": "fact"},
        source_indices=[3],
    )
    clock.advance(60)
    new = auto_node(
        service,
        "fact",
        {"statement": "Mira keeps a silver key on a red cord.", "category": "fact", "subject": "Mira"},
        source_indices=[9],
    )
    other = auto_node(service, "fact", {"statement": "The ferry leaves at noon", "category": "fact"})
    change = service.run_maintenance(CHAT, "consolidate").value
    survivor, gone = get(service, old.id), get(service, new.id)
    assert survivor.source_indices == [3, 9] and survivor.fields["subject"] == "Mira"
    assert gone.tier == "archived" and gone.flags["merged_into"] == old.id
    assert get(service, other.id).tier == "long_term"
    assert change.batch_id is not None
    again = service.run_maintenance(CHAT, "consolidate").value
    assert again.empty


def test_near_misses_are_logged_not_merged(service: MemoryService) -> None:
    a = auto_node(service, "fact", {"statement": "Mira keeps a silver key on a red cord", "category": "fact"})
    b = auto_node(
        service, "fact", {"statement": "Mira keeps a silver key on a blue string", "category": "fact"}
    )
    sim = lexical_similarity(
        "Mira keeps a silver key on a red cord", "Mira keeps a silver key on a blue string"
    )
    assert 0.75 <= sim < 0.85
    service.run_maintenance(CHAT, "consolidate")
    assert get(service, a.id).tier == get(service, b.id).tier == "long_term"
    log = service.read(lambda r: r.audit(CHAT))
    assert any(e["action"] == "consolidate.near_miss" for e in log)


def test_short_term_duplicates_are_left_alone_and_a_merge_can_be_undone(
    service: MemoryService, clock: ManualClock
) -> None:
    s1 = auto_node(service, "event", {"summary": "They argue about the map"}, tier="short_term")
    s2 = auto_node(service, "event", {"summary": "They argue about the map"}, tier="short_term")
    l1 = auto_node(service, "event", {"summary": "The tower bell rang twice"})
    clock.advance(60)
    l2 = auto_node(service, "event", {"summary": "The tower bell rang twice"})
    change = service.run_maintenance(CHAT, "consolidate").value
    assert get(service, s1.id).tier == get(service, s2.id).tier == "short_term"
    assert get(service, l2.id).tier == "archived"
    assert change.batch_id is not None
    undo_lifecycle_batch(service, CHAT, change.batch_id)
    assert get(service, l1.id).tier == get(service, l2.id).tier == "long_term"


def _extraction(service: MemoryService, start: int, end: int, summary: str) -> None:
    def op(uow: Any) -> None:
        from bme_desktop.core import editing

        uow.begin_batch(CHAT, "extract", actor="test", read_from=start, read_to=end)
        editing.create_node(
            uow,
            CHAT,
            editing.NodeDraft(type="event", fields={"summary": summary}, source_indices=[end]),
            manual=False,
        )
        uow.end_batch()

    service.write(op)


def test_a_small_summary_every_three_extractions_and_folding_above_three(service: MemoryService) -> None:
    service.sync(
        CHAT, [MessageIn(i, "user" if i % 2 == 0 else "assistant", f"message {i}.") for i in range(24)]
    )
    for k in range(12):
        _extraction(service, 2 * k, 2 * k + 1, f"Event {k} happened at the gate. Minor detail {k}.")
        service.run_maintenance(CHAT, "summarize")
    level0 = service.read(lambda r: r.summaries(CHAT))
    assert [(s.start_index, s.end_index) for s in level0 if s.level == 0] == [
        (0, 5),
        (6, 11),
        (12, 17),
        (18, 23),
    ]
    assert "Event 0 happened at the gate." in level0[0].text
    service.run_maintenance(CHAT, "fold")
    after = service.read(lambda r: r.summaries(CHAT))
    active = [s for s in after if s.status == "active"]
    assert sorted((s.level, s.start_index, s.end_index) for s in active) == [(0, 18, 23), (1, 0, 17)]
    assert sum(1 for s in after if s.status == "folded") == 3
