"""Reflection: insights about recurring patterns, each citing its evidence with evolves edges."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from lifecycle_helpers import CHAT, auto_node, get

from bme_desktop.core import editing
from bme_desktop.core.clock import ManualClock
from bme_desktop.core.lifecycle import undo_lifecycle_batch
from bme_desktop.core.lifecycle.reflect import auto_reflect_in, reflect, reflect_with_change
from bme_desktop.core.lifecycle.reflect_llm import parse_insights
from bme_desktop.core.lifecycle.tasks import run_step
from bme_desktop.core.service import MemoryService


def _story(service: MemoryService, clock: ManualClock) -> list[str]:
    ids = []
    for k, people in enumerate(["Mira, Tom", "Mira", "Tom, Mira", "Ann", "Mira 和 Tom"]):
        ids.append(
            auto_node(
                service, "event", {"summary": f"Scene {k}", "participants": people}, source_indices=[k]
            ).id
        )
        clock.advance(60)
    return ids


def test_a_chinese_chat_gets_chinese_reflections(service: MemoryService, clock: ManualClock) -> None:
    for k, people in enumerate(["林远, 苏青衣", "林远", "苏青衣, 林远", "小桃"]):
        auto_node(
            service,
            "event",
            {"summary": f"第{k}幕：两人在山门前说话", "participants": people},
            source_indices=[k],
        )
        clock.advance(60)
    made = [get(service, i) for i in reflect(service, CHAT).created]
    lin = next(n for n in made if n.fields["trigger"] == "反复出现的人物：林远")
    assert lin.fields["insight"] == "林远反复出现：最近 4 个事件中有 3 个。"
    assert lin.fields["suggestion"] == "及时更新林远的状态和目标。"


def _evolves_into(service: MemoryService, node_id: str) -> set[str]:
    return {
        e.from_id
        for e in service.edges(CHAT, node_id=node_id)
        if e.relation == "evolves" and e.to_id == node_id
    }


def test_recurring_participants_become_reflections_citing_their_events(
    service: MemoryService, clock: ManualClock
) -> None:
    ids = _story(service, clock)
    report = reflect(service, CHAT)
    made = {get(service, i).fields["trigger"]: get(service, i) for i in report.created}
    assert set(made) == {
        "recurring participant: Mira",
        "recurring participant: Tom",
        "co-occurring: Mira + Tom",
    }
    mira = made["recurring participant: Mira"]
    assert "4 of the last 5 events" in mira.fields["insight"]
    assert _evolves_into(service, mira.id) == {ids[0], ids[1], ids[2], ids[4]}
    assert _evolves_into(service, made["co-occurring: Mira + Tom"].id) == {ids[0], ids[2], ids[4]}
    assert reflect(service, CHAT).created == []  # known insights are not written twice
    assert report.batch_id is not None
    undo_lifecycle_batch(service, CHAT, report.batch_id)
    gone = service.read(lambda r: r.nodes_by_ids(CHAT, report.created))
    assert gone == [] and not any(e.relation == "evolves" for e in service.edges(CHAT))
    assert reflect(service, CHAT).created  # after the undo they can be found again


def test_contradictions_become_reflections(service: MemoryService) -> None:
    a = auto_node(service, "fact", {"statement": "The bridge is open", "subject": "bridge"})
    b = auto_node(service, "fact", {"statement": "The bridge is closed", "subject": "bridge"})
    service.write(lambda uow: editing.link(uow, CHAT, a.id, b.id, "contradicts", manual=False))
    change = service.run_maintenance(CHAT, "reflect").value
    (rid,) = change.nodes_added
    assert get(service, rid).fields["trigger"] == "contradiction" and _evolves_into(service, rid) == {
        a.id,
        b.id,
    }


def test_auto_reflection_waits_for_reflect_every_extractions(
    service: MemoryService, clock: ManualClock
) -> None:
    _story(service, clock)  # five extract-like batches
    service.settings = replace(
        service.settings, lifecycle=replace(service.settings.lifecycle, auto_reflect=True, reflect_every=6)
    )
    assert run_step(service, CHAT, auto_reflect_in)[0].created == []
    auto_node(service, "event", {"summary": "Scene 5", "participants": "Ann"})
    assert run_step(service, CHAT, auto_reflect_in)[0].created


def test_the_llm_seam_maps_evidence_numbers_and_falls_back_when_unreachable(
    service: MemoryService, clock: ManualClock
) -> None:
    parsed = parse_insights(
        {
            "insights": [
                {"insight": "Mira hides things", "evidence": [2, 9]},
                {"insight": "", "evidence": [1]},
            ]
        },
        ["a", "b"],
    )
    assert parsed is not None and [(p.insight, p.evidence) for p in parsed] == [("Mira hides things", ["b"])]
    assert parse_insights({"nope": 1}, ["a"]) is None
    _story(service, clock)
    llm: Any = replace(
        service.settings.llm,
        enabled=True,
        base_url="http://127.0.0.1:9/v1",
        model="m",
        timeout_s=1.0,
        max_retries=0,
    )
    service.settings = replace(service.settings, llm=llm)
    report, _ = reflect_with_change(service, CHAT)
    assert not report.used_llm and len(report.created) == 3
