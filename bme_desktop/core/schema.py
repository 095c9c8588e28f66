"""Node types and relation types, declared as data.

A new memory type is one entry in ``NODE_TYPES``; a new relation one entry in
``RELATIONS``. Everything else (validation, rendering, decay pools, recall
buckets) reads these tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final, Literal

DecayPool = Literal["never", "slow", "medium", "fast"]
TIERS: Final = ("short_term", "long_term", "dormant", "archived")
REVIEW_STATUSES: Final = ("pending", "approved", "rejected")
SCOPE_LAYERS: Final = ("objective", "pov")
ROLES: Final = ("user", "assistant", "system")


@dataclass(frozen=True)
class FieldSpec:
    name: str
    required: bool = False
    max_length: int = 2000


@dataclass(frozen=True)
class NodeType:
    id: str
    label: str
    fields: tuple[FieldSpec, ...]
    title_field: str
    summary_field: str
    always_inject: bool = False
    latest_only: bool = False
    decay_pool: DecayPool = "medium"
    compression: tuple[int, int, int, int] | None = None  # threshold, fan-in, max depth, keep recent

    @property
    def field_names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields)

    @property
    def required_fields(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields if f.required)


@dataclass(frozen=True)
class RelationType:
    id: str
    label: str
    inhibitory: bool = False
    default_strength: float = 0.8
    directed: bool = True
    notes: str = ""


def _fields(*names: str) -> tuple[FieldSpec, ...]:
    """``"name*"`` marks a required field."""
    return tuple(FieldSpec(n.rstrip("*"), required=n.endswith("*")) for n in names)


_NODE_TYPES: tuple[NodeType, ...] = (
    NodeType(
        "event",
        "Event",
        _fields("summary*", "title", "participants", "status"),
        title_field="title",
        summary_field="summary",
        always_inject=True,
        decay_pool="fast",
        compression=(9, 3, 10, 6),
    ),
    NodeType(
        "character",
        "Character",
        _fields("name*", "aliases", "traits", "state", "goal", "inventory", "core_note"),
        title_field="name",
        summary_field="state",
        latest_only=True,
        decay_pool="never",
    ),
    NodeType(
        "location",
        "Location",
        _fields("name*", "aliases", "state", "features", "danger"),
        title_field="name",
        summary_field="state",
        latest_only=True,
        decay_pool="slow",
    ),
    NodeType(
        "rule",
        "Rule",
        _fields("title*", "constraint*", "scope", "status"),
        title_field="title",
        summary_field="constraint",
        always_inject=True,
        decay_pool="never",
    ),
    NodeType(
        "thread",
        "Plot thread",
        _fields("title*", "summary", "status"),
        title_field="title",
        summary_field="summary",
        always_inject=True,
        decay_pool="slow",
        compression=(6, 3, 5, 3),
    ),
    NodeType(
        "fact",
        "Fact",
        _fields("statement*", "subject", "category"),
        title_field="subject",
        summary_field="statement",
        decay_pool="slow",
    ),
    NodeType(
        "synopsis",
        "Summary",
        _fields("summary*", "scope"),
        title_field="scope",
        summary_field="summary",
        always_inject=True,
        latest_only=True,
        decay_pool="never",
    ),
    NodeType(
        "reflection",
        "Reflection",
        _fields("insight*", "trigger", "suggestion"),
        title_field="trigger",
        summary_field="insight",
        decay_pool="slow",
        compression=(6, 3, 3, 3),
    ),
    NodeType(
        "pov_memory",
        "Point-of-view memory",
        _fields("summary*", "belief", "emotion", "attitude", "certainty", "about"),
        title_field="about",
        summary_field="summary",
        decay_pool="medium",
        compression=(8, 3, 4, 4),
    ),
)

NODE_TYPES: Final = MappingProxyType({t.id: t for t in _NODE_TYPES})

# Facts decay by their category: core traits, preferences and goals never fade.
FACT_CATEGORY_POOLS: Final = MappingProxyType(
    {
        "trait": "never",
        "preference": "never",
        "goal": "never",
        "decision": "slow",
        "lesson": "slow",
        "fact": "slow",
        "knowledge": "medium",
        "event": "fast",
        "lore": "never",
    }
)

_RELATIONS: tuple[RelationType, ...] = (
    RelationType("related", "related to", default_strength=0.5, directed=False),
    RelationType("involved_in", "involved in"),
    RelationType("occurred_at", "occurred at"),
    RelationType("advances", "advances"),
    RelationType("updates", "updates", default_strength=0.9),
    RelationType("contradicts", "contradicts", inhibitory=True, directed=False),
    RelationType("evolves", "evolves into", default_strength=0.75),
    RelationType("temporal_update", "is a later state of", default_strength=0.95),
)

RELATIONS: Final = MappingProxyType({r.id: r for r in _RELATIONS})


@dataclass(frozen=True)
class SchemaIssue:
    field: str
    message: str


@dataclass
class NodeValidation:
    issues: list[SchemaIssue] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.issues


def validate_node_fields(type_id: str, fields: dict[str, object]) -> NodeValidation:
    """Check a node's type and fields against the schema; never raises."""
    result = NodeValidation()
    node_type = NODE_TYPES.get(type_id)
    if node_type is None:
        result.issues.append(
            SchemaIssue("type", f"unknown node type {type_id!r}; known: {', '.join(NODE_TYPES)}")
        )
        return result
    specs = {f.name: f for f in node_type.fields}
    for name, value in fields.items():
        spec = specs.get(name)
        if spec is None:
            result.issues.append(SchemaIssue(f"fields.{name}", f"{type_id} has no field {name!r}"))
        elif not isinstance(value, str):
            result.issues.append(SchemaIssue(f"fields.{name}", "must be a string"))
        elif len(value) > spec.max_length:
            result.issues.append(SchemaIssue(f"fields.{name}", f"longer than {spec.max_length} characters"))
    for name in node_type.required_fields:
        value = fields.get(name)
        if not isinstance(value, str) or not value.strip():
            result.issues.append(SchemaIssue(f"fields.{name}", f"{type_id} requires a non-empty {name!r}"))
    return result


def is_core_type(type_id: str) -> bool:
    """Core memory types (characters, rules, summaries) never fade and are never retired."""
    node_type = NODE_TYPES.get(type_id)
    return node_type is not None and node_type.decay_pool == "never"


def decay_pool_for(type_id: str, fields: dict[str, str]) -> DecayPool:
    node_type = NODE_TYPES[type_id]
    if type_id == "fact":
        pool = FACT_CATEGORY_POOLS.get(fields.get("category", ""), node_type.decay_pool)
        return pool  # type: ignore[return-value]
    return node_type.decay_pool


def node_title(type_id: str, fields: dict[str, str]) -> str:
    node_type = NODE_TYPES[type_id]
    title = fields.get(node_type.title_field, "") or fields.get(node_type.summary_field, "")
    return title.strip()[:200]


def node_text(type_id: str, fields: dict[str, str]) -> str:
    """A readable one-line rendering of a node: its summary first, then the rest."""
    node_type = NODE_TYPES[type_id]
    parts: list[str] = []
    summary = fields.get(node_type.summary_field, "").strip()
    title = fields.get(node_type.title_field, "").strip()
    if title and title != summary:
        parts.append(title + ":")
    if summary:
        parts.append(summary)
    for name in node_type.field_names:
        if name in (node_type.summary_field, node_type.title_field):
            continue
        value = fields.get(name, "").strip()
        if value:
            parts.append(f"({name}: {value})")
    return " ".join(parts).replace("\n", " ")
