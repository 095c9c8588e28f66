"""Result records returned by the model clients."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

ChatMessage = Mapping[str, Any]
"""An OpenAI chat message: ``{"role": "system"|"user"|"assistant", "content": str}``."""


@dataclass(frozen=True)
class Usage:
    """Token counts as reported by the server (``None`` where it did not say)."""

    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    total_tokens: int | None = None

    @classmethod
    def from_wire(cls, raw: Any) -> Usage | None:
        if not isinstance(raw, Mapping):
            return None

        def number(key: str) -> int | None:
            value = raw.get(key)
            return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else None

        return cls(number("prompt_tokens"), number("completion_tokens"), number("total_tokens"))


@dataclass(frozen=True)
class ChatResult:
    """One completed chat call."""

    text: str
    model: str
    usage: Usage | None
    elapsed: float  # seconds, whole call including retries
    finish_reason: str | None = None


@dataclass(frozen=True)
class ConnectionReport:
    """Outcome of ``test_connection()``: never raises, always one of these."""

    ok: bool
    latency: float  # seconds
    models: tuple[str, ...] = field(default_factory=tuple)
    model_listed: bool | None = None  # is the configured model among ``models``? None = unknown
    dim: int | None = None  # embedding dimension, for embedding endpoints
    error: str | None = None
