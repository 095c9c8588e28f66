"""Records of the memory core: plain dataclasses, no database or Qt behind them."""

from __future__ import annotations

from dataclasses import dataclass, field
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
