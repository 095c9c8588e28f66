"""Reading the OpenAI chat-completions wire format: a completion body, a stream event."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .errors import LLMBadResponse
from .records import ChatResult, Usage
from .redaction import excerpt


def decode_stream_event(data: str) -> Mapping[str, Any]:
    """One SSE ``data`` payload as a JSON object; an ``error`` event raises."""
    try:
        event = json.loads(data)
    except ValueError as exc:
        raise LLMBadResponse("stream event is not JSON", raw_excerpt=excerpt(data)) from exc
    if not isinstance(event, Mapping):
        raise LLMBadResponse("stream event is not a JSON object", raw_excerpt=excerpt(data))
    if "error" in event and not event.get("choices"):
        raise LLMBadResponse(f"server reported an error mid-stream: {excerpt(json.dumps(event['error']))}")
    return event


def first_choice(body: Mapping[str, Any]) -> Mapping[str, Any] | None:
    choices = body.get("choices")
    if isinstance(choices, list) and choices and isinstance(choices[0], Mapping):
        return choices[0]
    return None


def _content_text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, Mapping))
    raise LLMBadResponse(f"message content has unexpected type {type(content).__name__}")


def parse_completion(body: Any, requested_model: str, elapsed: float) -> ChatResult:
    """A non-streaming ``chat.completion`` body as a :class:`ChatResult`."""
    if not isinstance(body, Mapping):
        raise LLMBadResponse("completion body is not a JSON object", raw_excerpt=excerpt(str(body)))
    choice = first_choice(body)
    if choice is None:
        detail = excerpt(json.dumps(body.get("error"))) if "error" in body else "no choices"
        raise LLMBadResponse(f"completion has no choices ({detail})")
    message = choice.get("message")
    if not isinstance(message, Mapping):
        raise LLMBadResponse("completion choice has no message")
    finish = choice.get("finish_reason")
    return ChatResult(
        text=_content_text(message.get("content")),
        model=str(body.get("model") or requested_model),
        usage=Usage.from_wire(body.get("usage")),
        elapsed=elapsed,
        finish_reason=str(finish) if finish is not None else None,
    )
