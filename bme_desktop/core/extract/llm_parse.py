"""Turning a model's JSON reply into a :class:`Plan`. Anything of the wrong shape is dropped
with a reason; a reply that is not an object holding an operations list yields no plan."""

from __future__ import annotations

from typing import Any

from ..model import Scope
from .operations import MAX_OPS, CognitionOp, LinkOp, NodeOp, Plan, RegionUpdate, check_story_time

SCHEMA_HINT = """{"operations": [{"action": "create|update|archive", "type": "event", "ref": "n1",
  "target": "G1 (update/archive only)", "supersedes": "G4 (create only: the memory it replaces)",
  "fields": {"summary": "..."}, "importance": 6, "owner": null,
  "region": null, "source": [12, 13], "links": [{"to": "G2 or n2", "relation": "involved_in"}]}],
 "cognition": [{"owner": "name", "knows": ["n1"], "mistaken": ["G3"]}],
 "regions": {"active": "region name", "adjacency": [{"region": "A", "adjacent": ["B"]}]},
 "story_time": {"label": "the second morning", "tense": "ongoing"}}"""


class Unusable(ValueError):
    pass


def _text(value: Any, what: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise Unusable(f"{what} must be text")
    return value.strip() or None


def _indices(value: Any, default: list[int]) -> list[int]:
    if value is None:
        return list(default)
    if not isinstance(value, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in value):
        raise Unusable("source must be a list of message indices")
    return list(value)


def _links(value: Any) -> list[LinkOp]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise Unusable("links must be a list")
    out: list[LinkOp] = []
    for item in value:
        if not isinstance(item, dict):
            raise Unusable("each link must be an object")
        target = _text(item.get("to", item.get("target")), "link target")
        relation = _text(item.get("relation"), "link relation")
        if target is None or relation is None:
            raise Unusable("a link needs a target and a relation")
        strength = item.get("strength")
        out.append(LinkOp(target, relation, strength if isinstance(strength, int | float) else None))
    return out


def _op(item: Any, default_sources: list[int]) -> NodeOp:
    if not isinstance(item, dict):
        raise Unusable("an operation must be an object")
    action = _text(item.get("action"), "action") or "create"
    type_id = _text(item.get("type"), "type") or ""
    fields = item.get("fields") or {}
    if not isinstance(fields, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in fields.items()
    ):
        raise Unusable("fields must be an object of text values")
    owner = _text(item.get("owner"), "owner")
    region = _text(item.get("region"), "region")
    importance = item.get("importance")
    if importance is not None and (isinstance(importance, bool) or not isinstance(importance, int | float)):
        raise Unusable("importance must be a number")
    return NodeOp(
        action=action,  # type: ignore[arg-type]  # checked by validate_plan
        type=type_id,
        fields={k: v.strip() for k, v in fields.items() if v.strip()},
        ref=_text(item.get("ref"), "ref"),
        target=_text(item.get("target"), "target"),
        importance=float(importance) if importance is not None else None,
        # a promise (a thread) is owned by the one who made it; it is no point of view
        scope=Scope(
            layer="pov" if owner and type_id != "thread" else "objective", owner=owner, region=region
        ),
        story_time=check_story_time(item.get("story_time")),
        supersedes=_text(item.get("supersedes"), "supersedes"),
        source_indices=_indices(item.get("source"), default_sources),
        links=_links(item.get("links")),
    )


def _refs(value: Any) -> list[str]:
    return [v.strip() for v in value if isinstance(v, str) and v.strip()] if isinstance(value, list) else []


def plan_from_json(raw: Any, default_sources: list[int]) -> Plan:
    """A plan from the model's reply; raises :class:`Unusable` when the reply has no
    operations list at all."""
    if isinstance(raw, list):
        raw = {"operations": raw}
    if not isinstance(raw, dict):
        raise Unusable(f"the reply is a JSON {type(raw).__name__}, not an object")
    items = raw.get("operations", raw.get("ops"))
    if not isinstance(items, list):
        raise Unusable('the reply has no "operations" list')
    plan = Plan(extractor="llm")
    for n, item in enumerate(items[:MAX_OPS]):
        try:
            plan.ops.append(_op(item, default_sources))
        except Unusable as exc:
            plan.dropped.append(f"operation {n + 1}: {exc}")
    if len(items) > MAX_OPS:
        plan.dropped.append(f"{len(items) - MAX_OPS} operations over the limit of {MAX_OPS} per batch")
    cognition = raw.get("cognition")
    for entry in cognition if isinstance(cognition, list) else []:
        if isinstance(entry, dict) and isinstance(entry.get("owner"), str):
            plan.cognition.append(
                CognitionOp(
                    entry["owner"],
                    _refs(entry.get("knows", entry.get("known"))),
                    _refs(entry.get("mistaken")),
                )
            )
    regions = raw.get("regions")
    if isinstance(regions, dict):
        active = regions.get("active")
        pairs: list[tuple[str, str]] = []
        for entry in regions.get("adjacency") or [] if isinstance(regions.get("adjacency"), list) else []:
            if isinstance(entry, dict) and isinstance(entry.get("region"), str):
                pairs.extend((entry["region"], b) for b in _refs(entry.get("adjacent")))
        plan.regions = RegionUpdate(active=active if isinstance(active, str) else None, adjacency=pairs)
    plan.story_time = check_story_time(raw.get("story_time"))
    return plan
