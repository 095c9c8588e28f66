"""Records of the memory core: plain dataclasses, no database or Qt behind them."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

# Times are UNIX seconds (float, UTC) inside the core; the bridge renders ISO 8601.


@dataclass(frozen=True)
class Scope:
    layer: str = "objective"  # "objective" | "pov"
    owner: str | None = None
    region: str | None = None
    kind: str = "chat"  # "chat" | "character" | "persona" | "world": who else remembers it (core/scopes.py)

    def to_json(self) -> dict[str, str | None]:
        return {"layer": self.layer, "owner": self.owner, "region": self.region, "kind": self.kind}


@dataclass
class Chat:
    chat_id: str
    character: str | None
    user: str | None
    created_at: float
    last_activity: float
    revision: int
    character_id: str | None = None
    persona_id: str | None = None
    world: str | None = None
    isolated: bool = False
    # memories this chat shares with other chats, by scope kind ("character", "persona", "world")
    shared_by_kind: dict[str, int] = field(default_factory=dict)
    message_count: int = 0
    node_count: int = 0


@dataclass(frozen=True)
class MessageIn:
    """A message as a frontend pushes it."""

    index: int
    role: str
    text: str
    name: str | None = None
    swipe_id: int | None = None
    time: str | None = None


@dataclass(frozen=True)
class Message:
    chat_id: str
    index: int
    role: str
    name: str | None
    text: str
    swipe_id: int | None
    time: str | None
    fingerprint: str


@dataclass
class Node:
    id: str
    chat_id: str
    type: str
    title: str
    fields: dict[str, str]
    importance: float = 5.0
    tier: str = "short_term"
    review_status: str = "approved"
    pinned: bool = False
    scope: Scope = field(default_factory=Scope)
    story_time: dict[str, Any] | None = None
    level: int = 0
    parent_id: str | None = None
    srs: dict[str, Any] | None = None  # spaced-repetition card state (life cycle)
    retrievability: float = 1.0
    recall_count: int = 0
    last_recalled_at: float | None = None
    created_at: float = 0.0
    updated_at: float = 0.0
    source_indices: list[int] = field(default_factory=list)
    batch_id: int | None = None
    manually_edited: bool = False
    deleted_at: float | None = None
    flags: dict[str, Any] = field(default_factory=dict)


@dataclass
class Edge:
    id: str
    chat_id: str
    from_id: str
    to_id: str
    relation: str
    strength: float = 0.8
    valid_from: float | None = None
    valid_until: float | None = None
    source_indices: list[int] = field(default_factory=list)
    batch_id: int | None = None
    manually_edited: bool = False
    created_at: float = 0.0
    updated_at: float = 0.0
    deleted_at: float | None = None

    @property
    def is_valid(self) -> bool:
        return self.valid_until is None and self.deleted_at is None


@dataclass
class Batch:
    """One journaled group of changes: an extraction, an upkeep pass, a manual edit."""

    id: int
    chat_id: str
    kind: str  # "extract" | "manual" | "upkeep" | ...
    status: str  # "applied" | "rolled_back" | "undone"
    read_from: int | None  # earliest message index the batch read (None: reads no messages)
    read_to: int | None
    created_at: float
    actor: str
    description: str
    entry_count: int = 0


@dataclass
class RecallRecord:
    chat_id: str
    index: int
    user_input: str
    injection: str
    token_estimate: int
    elapsed_ms: float
    nodes: list[dict[str, Any]]
    manually_edited: bool
    created_at: float
    updated_at: float


@dataclass
class Summary:
    id: str
    chat_id: str
    level: int
    kind: str
    status: str  # "active" | "folded"
    text: str
    start_index: int | None
    end_index: int | None
    source_ids: list[str]
    batch_id: int | None
    created_at: float


@dataclass(frozen=True)
class NodeQuery:
    type: str | None = None
    q: str | None = None
    tier: str | None = None
    review_status: str | None = None
    pinned: bool | None = None
    owner: str | None = None
    region: str | None = None
    kind: str | None = None  # scope kind: chat, character, persona, world
    include_deleted: bool = False
    only_deleted: bool = False
    limit: int = 50
    offset: int = 0
    order_by: str = "updated_at"
    descending: bool = True


@dataclass
class ChatStats:
    chat_id: str
    character: str | None
    user: str | None
    message_count: int
    node_count: int
    edge_count: int
    nodes_by_type: dict[str, int]
    nodes_by_tier: dict[str, int]
    pending_reviews: int
    deleted_nodes: int
    last_activity: float
    revision: int
    character_id: str | None = None
    persona_id: str | None = None
    world: str | None = None
    isolated: bool = False
    # memories this chat shares with other chats, by scope kind ("character", "persona", "world")
    shared_by_kind: dict[str, int] = field(default_factory=dict)


# --- recall: the request and what it found (core/recall/api.py is the recaller's contract) ---


@dataclass(frozen=True)
class RecallRequest:
    chat_id: str
    user_input: str
    index: int | None = None
    top_k: int = 8
    budget_tokens: int = 1500
    last_reply: str | None = None
    previous_input: str | None = None
    for_character: str | None = None  # a group chat: the character about to speak (recall/scopes.py)


@dataclass
class RecalledNode:
    node: Node
    score: float
    bucket: str
    components: dict[str, float] = field(default_factory=dict)


@dataclass
class RecallResult:
    injection: str
    token_estimate: int
    elapsed_ms: float
    nodes: list[RecalledNode]
    skipped_stages: list[str] = field(default_factory=list)
    more_not_shown: int = 0
    held_for_review: int = 0  # memories that would have been injected but wait for approval (review gate)


@dataclass(frozen=True)
class VectorStatus:
    """How far recall's vector index is for one chat (``embedded`` None: not loaded yet)."""

    model: str | None
    embedded: int | None
    pending: bool  # memories still wait for their vectors
    engine: str | None  # how the embedder runs ("onnxruntime"), when it is built and says so


# --- what the life cycle reports (core/lifecycle/: meta, patrol, review_queue, persona) --------


@dataclass
class KnownMemory:
    id: str
    type: str
    title: str
    text: str
    confirmations: int
    strength: float
    tier: str
    review_status: str
    age_days: float
    neighbours: int


@dataclass
class Knowledge:
    about: str
    hits: list[KnownMemory] = field(default_factory=list)

    @property
    def confirmations(self) -> int:
        return sum(h.confirmations for h in self.hits)

    @property
    def strength(self) -> float:
        """The strongest memory's strength (0 when nothing is known)."""
        return max((h.strength for h in self.hits), default=0.0)

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "confirmations": self.confirmations, "strength": self.strength}


@dataclass
class PatrolItem:
    ids: list[str]
    titles: list[str]
    note: str


@dataclass
class PatrolReport:
    chat_id: str
    at: float
    long_unused: list[PatrolItem] = field(default_factory=list)
    duplicates: list[PatrolItem] = field(default_factory=list)
    contradictions: list[PatrolItem] = field(default_factory=list)
    fading: list[PatrolItem] = field(default_factory=list)
    unclassified: list[PatrolItem] = field(default_factory=list)
    stale_todos: list[str] = field(default_factory=list)
    # what the next upkeep retires (lifecycle/retention.py): every memory, capped like the lists above;
    # ``retention`` holds the totals: {"total", "by_rule", "refused", "bin_expiring"}
    retiring: list[PatrolItem] = field(default_factory=list)
    retention: dict[str, Any] = field(default_factory=dict)
    omitted: dict[str, int] = field(default_factory=dict)  # list → entries past patrol.MAX_ITEMS, not listed

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def cap(self, limit: int) -> None:
        """Keep each list's first ``limit`` entries (the report is kept in the chat's state and
        read by people: a chat of thousands of alike memories must not list them all)."""
        for key in (
            "long_unused",
            "duplicates",
            "contradictions",
            "fading",
            "unclassified",
            "stale_todos",
            "retiring",
        ):
            entries: list[Any] = getattr(self, key)
            if len(entries) > limit:
                self.omitted[key] = len(entries) - limit
                del entries[limit:]


@dataclass(frozen=True)
class ReviewReason:
    """Why a memory waits for review. ``code`` is one of ``lifecycle.review_queue.REASONS``:

    - ``kept_after_rollback``: its source messages changed, but it had been edited by hand, so
      it was kept and sent here;
    - ``promoted``: a promotion to long-term sent it here (``recalls``: how often it was recalled);
    - ``compressed``: Compress wrote it from ``children`` memories, some of them not approved;
    - ``reopened``: someone set it back to pending (``by``);
    - ``new_long_term`` / ``new``: a new automatic memory, listed because the review mode is
      ``long_term`` / ``all``;
    - ``edited_pending``: written or edited by hand and saved as pending;
    - ``marked``: pending for no recorded reason (imported, or made by an older version).
    """

    code: str
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ReviewCard:
    node: Node
    reason: ReviewReason
    sources: list[Message]  # at most ``review_queue.MAX_SOURCES`` of the messages it was read from, in order
    more_sources: int  # how many more source messages there are


PERSONA_KINDS = ("trait", "preference", "goal", "decision")


@dataclass
class Trait:
    kind: str  # trait | preference | goal | decision
    text: str
    evidence: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "evidence": list(self.evidence)}


@dataclass
class Persona:
    version: int
    at: float
    batch_id: int | None
    traits: list[Trait]

    def by_kind(self) -> dict[str, list[str]]:
        return {k: [tr.text for tr in self.traits if tr.kind == k] for k in PERSONA_KINDS}


@dataclass(frozen=True)
class HistorySteps:
    """What Undo and Redo would step over in a chat now: the action of the newest applied
    manual batch (``create_node``, ``update_node``, ``review.approve (3)``, ``rebuild``, …) and
    of the most recently undone one; None where there is nothing to step over."""

    undo: str | None
    redo: str | None
