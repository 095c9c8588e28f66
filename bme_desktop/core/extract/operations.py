"""Extraction operations: what an extractor proposes, validated against the schema.

An extractor (LLM or heuristic) returns a :class:`Plan`. :func:`validate_plan` keeps the
operations that are whole and valid and drops the rest with a reason; nothing is applied
half-way. Existing memories are named by the short labels shown in the prompt (``G1``…)
and resolved to node ids here; memories created in the same plan are named by ``ref``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ..model import Scope
from ..schema import NODE_TYPES, RELATIONS, SCOPE_LAYERS, validate_node_fields

Action = Literal["create", "update", "archive"]
ACTIONS: tuple[str, ...] = ("create", "update", "archive")
TENSES = ("past", "ongoing", "future", "flashback", "hypothetical", "unknown")
MAX_OPS = 64
MAX_ARCHIVES = 4
MAX_LINKS_PER_OP = 12
MAX_SOURCE_INDICES = 4
MAX_NAME = 256


@dataclass
class LinkOp:
    target: str  # a ref of this plan, or the label of an existing memory
    relation: str
    strength: float | None = None


@dataclass
class NodeOp:
    action: Action
    type: str
    fields: dict[str, str] = field(default_factory=dict)
    ref: str | None = None
    target: str | None = None  # label of an existing memory (update / archive)
    importance: float | None = None
    scope: Scope = field(default_factory=Scope)
    story_time: dict[str, Any] | None = None
    source_indices: list[int] = field(default_factory=list)
    links: list[LinkOp] = field(default_factory=list)
    entity: bool = False  # a bare name mention: may join an existing character or location
    avoid: list[str] = field(
        default_factory=list
    )  # names a partial form of this one must not join (speakers)
    target_id: str | None = None  # filled by validation
    # A statement of change ("now", "no longer", "不再"): it may replace an older statement.
    # ``supersedes`` names the replaced memory (a label; the LLM says so), else the applier
    # looks for it (the heuristic sets ``change``).
    change: bool = False
    supersedes: str | None = None
    supersedes_id: str | None = None  # filled by validation


@dataclass
class CognitionOp:
    """Who knows what: ``known`` and ``mistaken`` hold refs or labels."""

    owner: str
    known: list[str] = field(default_factory=list)
    mistaken: list[str] = field(default_factory=list)


@dataclass
class RegionUpdate:
    active: str | None = None
    adjacency: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Plan:
    extractor: str  # "heuristic" | "llm"
    ops: list[NodeOp] = field(default_factory=list)
    cognition: list[CognitionOp] = field(default_factory=list)
    regions: RegionUpdate = field(default_factory=RegionUpdate)
    story_time: dict[str, Any] | None = None
    dropped: list[str] = field(default_factory=list)
    note: str = ""  # e.g. why the LLM was not used
    model: str = ""  # which model made an "llm" plan: chat_model.model_label ("SillyTavern's model (…)")


def _name_ok(value: object) -> bool:
    return isinstance(value, str) and 0 < len(value.strip()) <= MAX_NAME


def check_story_time(value: object) -> dict[str, Any] | None:
    """A cleaned story-time record, or None when the value is not one."""
    if not isinstance(value, Mapping):
        return None
    label = value.get("label")
    if not isinstance(label, str) or not label.strip():
        return None
    tense = value.get("tense", "unknown")
    return {"label": label.strip()[:120], "tense": tense if tense in TENSES else "unknown"}


def _check_scope(scope: Scope) -> str | None:
    if scope.layer not in SCOPE_LAYERS:
        return f"scope layer {scope.layer!r} is not one of {', '.join(SCOPE_LAYERS)}"
    if scope.layer == "pov" and not _name_ok(scope.owner):
        return "a point-of-view memory needs an owner"
    for value in (scope.owner, scope.region):
        if value is not None and not _name_ok(value):
            return "scope owner and region must be text of 1 to 256 characters"
    return None


def _check_op(op: NodeOp, labels: Mapping[str, str], allowed: set[int]) -> str | None:
    if op.action not in ACTIONS:
        return f"unknown action {op.action!r}"
    if op.type not in NODE_TYPES:
        return f"unknown memory type {op.type!r}"
    if op.action in ("update", "archive"):
        if op.target is None or op.target not in labels:
            return f"{op.action} names an unknown memory {op.target!r}"
        op.target_id = labels[op.target]
    if op.action == "archive":
        return None
    issues = validate_node_fields(op.type, dict[str, object](op.fields)).issues
    if op.action == "update":
        issues = [i for i in issues if "requires" not in i.message]  # a partial update is fine
    if issues:
        return f"{op.type}: {issues[0].field} {issues[0].message}"
    if op.importance is not None and (
        isinstance(op.importance, bool)
        or not isinstance(op.importance, int | float)
        or not 0 <= op.importance <= 10
    ):
        return "importance must be a number from 0 to 10"
    problem = _check_scope(op.scope)
    if problem:
        return problem
    if any(i not in allowed for i in op.source_indices):
        return "source indices outside the messages read"
    return None


def validate_plan(plan: Plan, *, labels: Mapping[str, str], allowed_indices: set[int]) -> Plan:
    """Drop invalid operations, links and cognition entries (each with a reason), cap the
    number of operations, and resolve labels of existing memories to node ids."""
    kept: list[NodeOp] = []
    refs: set[str] = set()
    archives = 0
    for n, op in enumerate(plan.ops):
        where = f"operation {n + 1}"
        if len(kept) >= MAX_OPS:
            plan.dropped.append(f"{len(plan.ops) - n} operations over the limit of {MAX_OPS} per batch")
            break
        problem = _check_op(op, labels, allowed_indices)
        if problem is None and op.ref is not None and (op.ref in refs or op.ref in labels):
            problem = f"ref {op.ref!r} is used twice"
        if problem is None and op.action == "archive":
            archives += 1
            if archives > MAX_ARCHIVES:
                problem = f"more than {MAX_ARCHIVES} archive operations in one batch"
        if problem:
            plan.dropped.append(f"{where}: {problem}")
            continue
        if op.supersedes is not None:
            if op.action == "create" and op.supersedes in labels:
                op.supersedes_id = labels[op.supersedes]
                op.change = True
            else:
                plan.dropped.append(
                    f"{where}: supersedes names an unknown memory {op.supersedes!r} (kept as a new memory)"
                )
                op.supersedes = None
        if op.ref is not None:
            refs.add(op.ref)
        op.source_indices = sorted(set(op.source_indices))[-MAX_SOURCE_INDICES:]
        kept.append(op)
    known = refs | set(labels)
    for n, op in enumerate(kept):
        links: list[LinkOp] = []
        for link in op.links[:MAX_LINKS_PER_OP]:
            if link.relation not in RELATIONS:
                plan.dropped.append(f"operation {n + 1}: unknown relation {link.relation!r}")
            elif link.target not in known:
                plan.dropped.append(f"operation {n + 1}: link to unknown memory {link.target!r}")
            elif link.strength is not None and (
                isinstance(link.strength, bool)
                or not isinstance(link.strength, int | float)
                or not 0 <= link.strength <= 1
            ):
                plan.dropped.append(f"operation {n + 1}: link strength must be from 0 to 1")
            else:
                links.append(link)
        op.links = links
    plan.ops = kept
    cognition: list[CognitionOp] = []
    for entry in plan.cognition[:MAX_OPS]:
        if not _name_ok(entry.owner):
            plan.dropped.append("cognition update without an owner")
            continue
        unknown = [r for r in entry.known + entry.mistaken if r not in known]
        if unknown:
            plan.dropped.append(f"cognition of {entry.owner!r} names unknown memories {unknown[:3]}")
        cognition.append(
            CognitionOp(
                entry.owner.strip(),
                [r for r in entry.known if r in known],
                [r for r in entry.mistaken if r in known],
            )
        )
    plan.cognition = cognition
    regions = plan.regions
    if regions.active is not None and not _name_ok(regions.active):
        plan.dropped.append("active region must be text of 1 to 256 characters")
        regions.active = None
    pairs = [
        (a.strip(), b.strip())
        for a, b in regions.adjacency
        if _name_ok(a) and _name_ok(b) and a.strip() != b.strip()
    ]
    if len(pairs) != len(regions.adjacency):
        plan.dropped.append(f"{len(regions.adjacency) - len(pairs)} invalid region adjacency entries")
    regions.adjacency = pairs[:MAX_OPS]
    return plan
