"""Compression: crowded groups fold their oldest memories (beyond keep-recent) one level up."""

from __future__ import annotations

from typing import Any

from lifecycle_helpers import CHAT, auto_node, get, node_rows
from sqlalchemy import select

from bme_desktop.core import editing
from bme_desktop.core.clock import ManualClock
from bme_desktop.core.lifecycle import undo_lifecycle_batch
from bme_desktop.core.model import Scope
from bme_desktop.core.service import MemoryService
from bme_desktop.core.store import tables as t


def _edge_rows(service: MemoryService) -> dict[str, dict[str, Any]]:
    return service.read(
        lambda r: {row["id"]: dict(row) for row in r.conn.execute(select(t.edges)).mappings()}
    )


def _events(service: MemoryService, clock: ManualClock, n: int) -> list[str]:
    ids = []
    for k in range(n):
        ids.append(
            auto_node(
                service,
                "event",
                {"summary": f"Event {k} at the gate", "title": f"E{k}"},
                importance=3 + k % 5,
                source_indices=[k],
            ).id
        )
        clock.advance(60)
    return ids


def test_the_oldest_beyond_keep_recent_fold_and_undo_restores_exactly(
    service: MemoryService, clock: ManualClock
) -> None:
    ids = _events(service, clock, 10)  # event: threshold 9, fan-in 3, keep recent 6 → 4 foldable, 1 chunk
    place = auto_node(service, "location", {"name": "Gate"})
    service.write(
        lambda uow: [
            editing.link(uow, CHAT, ids[0], place.id, "occurred_at", manual=False),
            editing.link(uow, CHAT, ids[0], ids[1], "related", manual=False),
        ]
    )
    before_nodes, before_edges = node_rows(service), _edge_rows(service)
    change = service.run_maintenance(CHAT, "compress").value
    assert change.batch_id is not None
    folded = [get(service, i) for i in ids[:3]]
    assert all(n.tier == "archived" for n in folded)
    assert all(get(service, i).tier == "long_term" for i in ids[3:])
    parent = get(service, folded[0].flags["compressed_into"])
    assert parent.level == 1 and parent.flags["children"] == ids[:3]
    assert parent.source_indices == [0, 1, 2] and parent.importance == max(n.importance for n in folded)
    assert parent.fields["summary"] == "Event 0 at the gate; Event 1 at the gate; Event 2 at the gate"
    live = [e for e in service.edges(CHAT) if e.deleted_at is None]
    assert [(e.from_id, e.to_id, e.relation) for e in live] == [(parent.id, place.id, "occurred_at")]
    assert service.run_maintenance(CHAT, "compress").value.empty  # 8 active events now: under threshold
    undo_lifecycle_batch(service, CHAT, change.batch_id)
    assert node_rows(service) == before_nodes and _edge_rows(service) == before_edges


def test_groups_are_per_point_of_view_and_below_threshold_nothing_happens(
    service: MemoryService, clock: ManualClock
) -> None:
    def pov(owner: str, k: int) -> None:
        def op(uow: Any) -> None:
            uow.begin_batch(CHAT, "extract", actor="test")
            editing.create_node(
                uow,
                CHAT,
                editing.NodeDraft(
                    type="pov_memory", fields={"summary": f"{owner} remembers {k}"}, scope=Scope("pov", owner)
                ),
                manual=False,
            )
            uow.end_batch()

        service.write(op)
        clock.advance(60)

    for k in range(8):  # pov_memory: threshold 8 → exactly 8 per owner never folds
        pov("Mira", k)
        pov("Tom", k)
    assert service.run_maintenance(CHAT, "compress").value.empty
    pov("Mira", 8)  # 9 > 8: 9 - keep 4 = 5 foldable → one chunk of 3 for Mira only
    service.run_maintenance(CHAT, "compress")
    rows = [r for r in node_rows(service).values() if r["type"] == "pov_memory"]
    archived = sorted(r["fields"]["summary"] for r in rows if r["tier"] == "archived")
    assert archived == ["Mira remembers 0", "Mira remembers 1", "Mira remembers 2"]
