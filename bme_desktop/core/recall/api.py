"""The recall contract between the service and a recall pipeline."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from ..model import Node


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


class Recaller(Protocol):
    def recall(self, request: RecallRequest) -> RecallResult: ...
