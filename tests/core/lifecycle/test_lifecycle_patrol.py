"""The patrol report lists without changing anything; meta-memory reports without reinforcing."""

from __future__ import annotations

import json
from typing import Any

from lifecycle_helpers import CHAT, DAY, auto_node
from sqlalchemy import select

from bme_desktop.core import editing
from bme_desktop.core.clock import ManualClock
from bme_desktop.core.lifecycle import record_recall_hits, run_upkeep
from bme_desktop.core.lifecycle.knowledge import what_do_i_know
from bme_desktop.core.lifecycle.patrol import patrol_report
from bme_desktop.core.lifecycle.working_memory import update_working_memory
from bme_desktop.core.model import MessageIn
from bme_desktop.core.service import MemoryService
from bme_desktop.core.store import tables as t


def _dump(service: MemoryService) -> str:
    def op(r: Any) -> str:
        out = {
            name: [dict(row) for row in r.conn.execute(select(table)).mappings()]
            for name, table in (
                ("nodes", t.nodes),
                ("edges", t.edges),
                ("batches", t.batches),
                ("chats", t.chats),
                ("audit", t.audit_log),
                ("summaries", t.summaries),
            )
        }
        return json.dumps(out, sort_keys=True, default=str)

    return service.read(op)


def test_the_patrol_report_finds_each_kind_and_never_writes(
    service: MemoryService, clock: ManualClock
) -> None:
    service.sync(CHAT, [MessageIn(0, "user", "I'll renew my passport.")])
    update_working_memory(service, CHAT)
    old = auto_node(service, "event", {"summary": "The old harbour fire"})
    dup1 = auto_node(service, "fact", {"statement": "Mira keeps a silver key", "category": "fact"})
    dup2 = auto_node(service, "fact", {"statement": "Mira keeps a silver key.", "category": "fact"})
    bridge1 = auto_node(
        service, "fact", {"statement": "The bridge is open", "subject": "Bridge", "category": "fact"}
    )
    bridge2 = auto_node(
        service, "fact", {"statement": "The bridge is closed", "subject": "bridge", "category": "fact"}
    )
    loose = auto_node(service, "fact", {"statement": "Snow in June"})
    a = auto_node(service, "rule", {"title": "No magic", "constraint": "Magic is forbidden"})
    b = auto_node(service, "rule", {"title": "Magic allowed", "constraint": "Magic is fine at night"})
    service.write(lambda uow: editing.link(uow, CHAT, a.id, b.id, "contradicts", manual=False))
    clock.advance(55 * DAY)  # the event (fast pool) falls dormant around day 65.7
    run_upkeep(service, CHAT)
    before = _dump(service)
    report = patrol_report(service, CHAT)
    assert _dump(service) == before
    assert [i.ids for i in report.fading] == [[old.id]]
    assert old.id in {i.ids[0] for i in report.long_unused}
    assert [sorted(i.ids) for i in report.duplicates] == [sorted([dup1.id, dup2.id])]
    assert {tuple(sorted(i.ids)) for i in report.contradictions} == {
        tuple(sorted([a.id, b.id])),
        tuple(sorted([bridge1.id, bridge2.id])),
    }
    assert [i.ids for i in report.unclassified] == [[loose.id]]
    assert report.stale_todos == []  # 55 days unmentioned: expired, no longer open
    assert json.loads(json.dumps(report.to_json()))["chat_id"] == CHAT


def test_stale_todos_are_listed(service: MemoryService, clock: ManualClock) -> None:
    service.sync(CHAT, [MessageIn(0, "user", "I'll renew my passport.")])
    update_working_memory(service, CHAT)
    assert patrol_report(service, CHAT).stale_todos == []
    clock.advance(2 * DAY)
    assert patrol_report(service, CHAT).stale_todos == ["renew my passport"]


def test_meta_memory_reports_counts_strength_and_neighbours_without_reinforcing(
    service: MemoryService, clock: ManualClock
) -> None:
    mira = auto_node(service, "character", {"name": "Mira", "state": "guarding the gate"})
    fact = auto_node(service, "fact", {"statement": "Mira keeps a silver key", "category": "fact"})
    auto_node(service, "fact", {"statement": "Tom sails at dawn", "category": "fact"})
    service.write(lambda uow: editing.link(uow, CHAT, fact.id, mira.id, "related", manual=False))
    run_upkeep(service, CHAT)
    clock.advance(2 * DAY)
    record_recall_hits(service, CHAT, [fact.id])
    clock.advance(3 * DAY)
    record_recall_hits(service, CHAT, [fact.id])
    clock.advance(1 * DAY)
    before = _dump(service)
    known = what_do_i_know(service, CHAT, "mira")
    assert _dump(service) == before
    assert {h.id for h in known.hits} == {mira.id, fact.id}
    by_id = {h.id: h for h in known.hits}
    assert by_id[fact.id].confirmations == 2 and by_id[mira.id].confirmations == 0
    assert by_id[fact.id].neighbours == 1 and by_id[fact.id].tier == "long_term"
    assert by_id[fact.id].age_days == 6.0 and 0.0 < by_id[fact.id].strength <= 1.0
    assert by_id[mira.id].strength == 1.0  # characters never fade
    assert known.confirmations == 2 and what_do_i_know(service, CHAT, "nobody").hits == []


def test_a_chat_of_many_alike_memories_lists_at_most_max_items_duplicates(
    service: MemoryService, clock: ManualClock
) -> None:
    from bme_desktop.core.editing import NodeDraft
    from bme_desktop.core.lifecycle.patrol import MAX_ITEMS, patrol_report
    from bme_desktop.core.model import MessageIn

    service.sync("alike", [MessageIn(0, "user", "hi"), MessageIn(1, "assistant", "hello")])

    def op(uow: object) -> None:
        from bme_desktop.core import editing

        for i in range(60):
            editing.create_node(
                uow,
                "alike",
                NodeDraft("event", {"summary": f"Lena hides the brass key {i % 3}"}, source_indices=[0]),
                manual=False,
            )  # type: ignore[arg-type]

    service.write(op)  # type: ignore[arg-type]
    report = patrol_report(service, "alike")
    assert len(report.duplicates) == MAX_ITEMS and report.omitted["duplicates"] > 0
    sims = [float(d.note.split()[-1]) for d in report.duplicates]
    assert sims == sorted(sims, reverse=True)
