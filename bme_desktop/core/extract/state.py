"""Per-chat extraction state kept in the chat's ``state`` JSON (restored exactly when a
batch is rolled back): progress, who knows what, regions and story time.

``state["knowledge"][owner] = {"known": [node ids], "mistaken": [node ids]}`` — what a
character or the user knows, and what they believe wrongly.
``state["regions"] = {"active": name, "recent": [...], "adjacency": {region: [regions]}}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..model import Node
from .operations import Plan

MAX_KNOWN = 400
MAX_RECENT_REGIONS = 8
MAX_ADJACENT = 32


def extracted_to(state: Mapping[str, Any]) -> int:
    value = state.get("extracted_to")
    return value if isinstance(value, int) else -1


def _ids(refs: list[str], nodes: Mapping[str, Node], labels: Mapping[str, str]) -> list[str]:
    out: list[str] = []
    for ref in refs:
        node_id = nodes[ref].id if ref in nodes else labels.get(ref)
        if node_id and node_id not in out:
            out.append(node_id)
    return out


def record_cognition(
    state: dict[str, Any], plan: Plan, nodes: Mapping[str, Node], labels: Mapping[str, str]
) -> None:
    if not plan.cognition:
        return
    knowledge: dict[str, Any] = {
        k: {"known": list(v.get("known", [])), "mistaken": list(v.get("mistaken", []))}
        for k, v in (state.get("knowledge") or {}).items()
    }
    for entry in plan.cognition:
        owner = knowledge.setdefault(entry.owner, {"known": [], "mistaken": []})
        mistaken = _ids(entry.mistaken, nodes, labels)
        for node_id in _ids(entry.known, nodes, labels):
            if node_id not in owner["known"] and node_id not in mistaken:
                owner["known"].append(node_id)
        for node_id in mistaken:
            if node_id in owner["known"]:
                owner["known"].remove(node_id)
            if node_id not in owner["mistaken"]:
                owner["mistaken"].append(node_id)
        owner["known"] = owner["known"][-MAX_KNOWN:]
        owner["mistaken"] = owner["mistaken"][-MAX_KNOWN:]
    state["knowledge"] = knowledge


def _adjacent(adjacency: dict[str, list[str]], a: str, b: str) -> None:
    for x, y in ((a, b), (b, a)):
        near = adjacency.setdefault(x, [])
        if y not in near and len(near) < MAX_ADJACENT:
            near.append(y)
            near.sort()


def record_regions(state: dict[str, Any], plan: Plan) -> None:
    old = state.get("regions") or {}
    regions: dict[str, Any] = {
        "active": old.get("active"),
        "recent": list(old.get("recent", [])),
        "adjacency": {k: list(v) for k, v in (old.get("adjacency") or {}).items()},
    }
    changed = False
    for a, b in plan.regions.adjacency:
        _adjacent(regions["adjacency"], a, b)
        changed = True
    new = plan.regions.active
    if new and new != regions["active"]:
        if plan.extractor == "heuristic" and regions["active"]:
            _adjacent(regions["adjacency"], regions["active"], new)  # the story moved from one to the other
        regions["active"] = new
        kept = [r for r in regions["recent"] if r != new][-(MAX_RECENT_REGIONS - 1) :]
        regions["recent"] = [*kept, new]
        changed = True
    if changed:
        state["regions"] = regions
