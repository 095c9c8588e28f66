"""Validating plans: whole operations only, labels resolved, limits enforced, reasons kept."""

from __future__ import annotations

from bme_desktop.core.extract.llm_parse import plan_from_json
from bme_desktop.core.extract.operations import MAX_ARCHIVES, MAX_OPS, LinkOp, NodeOp, Plan, validate_plan
from bme_desktop.core.model import Scope


def validate(plan: Plan, labels: dict[str, str] | None = None) -> Plan:
    return validate_plan(plan, labels=labels or {}, allowed_indices={0, 1, 2})


def test_invalid_operations_are_dropped_whole_with_reasons() -> None:
    plan = validate(
        Plan(
            "llm",
            ops=[
                NodeOp("create", "event", {"summary": "ok"}, ref="a", source_indices=[1]),
                NodeOp("create", "dragon", {"summary": "x"}),
                NodeOp("create", "rule", {"title": "no constraint"}),
                NodeOp("create", "event", {"summary": "far"}, source_indices=[99]),
                NodeOp("create", "pov_memory", {"summary": "x"}, scope=Scope(layer="pov")),
                NodeOp("create", "event", {"summary": "dup ref"}, ref="a"),
            ],
        )
    )
    assert [op.fields["summary"] for op in plan.ops] == ["ok"]
    assert len(plan.dropped) == 5
    assert any("unknown memory type 'dragon'" in d for d in plan.dropped)
    assert any("outside the messages read" in d for d in plan.dropped)


def test_labels_resolve_and_unknown_targets_and_links_are_dropped() -> None:
    plan = validate(
        Plan(
            "llm",
            ops=[
                NodeOp(
                    "update",
                    "character",
                    {"state": "tired"},
                    target="G1",
                    links=[LinkOp("G2", "related"), LinkOp("G1", "likes")],
                ),
                NodeOp("archive", "event", target="G7"),
            ],
        ),
        labels={"G1": "node-1", "G2": "node-2"},
    )
    (op,) = plan.ops
    assert op.target_id == "node-1" and [link.target for link in op.links] == ["G2"]
    assert any("unknown memory 'G7'" in d for d in plan.dropped)
    assert any("unknown relation 'likes'" in d for d in plan.dropped)


def test_operation_and_archive_limits() -> None:
    many = [NodeOp("create", "event", {"summary": f"e{i}"}) for i in range(MAX_OPS + 10)]
    assert len(validate(Plan("llm", ops=many)).ops) == MAX_OPS
    labels = {f"G{i}": f"id{i}" for i in range(10)}
    archives = [NodeOp("archive", "event", target=f"G{i}") for i in range(10)]
    assert len(validate(Plan("llm", ops=archives), labels).ops) == MAX_ARCHIVES


def test_model_json_is_parsed_leniently_but_typed_strictly() -> None:
    plan = plan_from_json(
        [
            {"type": "event", "fields": {"summary": "bare list"}},
            {"type": "event", "fields": {"summary": 3}},
            {"type": "event", "importance": "high", "fields": {"summary": "x"}},
            "not an op",
        ],
        default_sources=[2],
    )
    assert [op.fields for op in plan.ops] == [{"summary": "bare list"}]
    assert plan.ops[0].source_indices == [2] and len(plan.dropped) == 3
