"""Prompt wording for JSON replies: the instruction added to a request, and the one repair
request made when a reply does not parse."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from .errors import LLMBadResponse
from .json_repair import JSONParseError, JSONValue, parse_model_json
from .records import ChatMessage
from .redaction import truncate

JSON_INSTRUCTION = "Reply with one JSON value only: no prose before or after it, no Markdown code fences."
REPAIR_INSTRUCTION = (
    "You repair malformed JSON. Reply with the corrected JSON only: no prose, no Markdown code "
    "fences. Keep the content; fix the syntax (quotes, commas, brackets), and close anything left open."
)
_REPAIR_TEXT_LIMIT = 30_000


def _shape(schema_hint: str | None) -> str:
    return f"\nThe JSON must have this shape:\n{schema_hint}" if schema_hint else ""


def with_json_instruction(messages: Sequence[ChatMessage], schema_hint: str | None) -> list[ChatMessage]:
    """``messages`` with the JSON instruction appended to the leading system message (or a
    system message inserted first when there is none). The input is not modified."""
    instruction = JSON_INSTRUCTION + _shape(schema_hint)
    result = [dict(message) for message in messages]
    if result and result[0].get("role") == "system" and isinstance(result[0].get("content"), str):
        result[0]["content"] = f"{result[0]['content']}\n\n{instruction}"
    else:
        result.insert(0, {"role": "system", "content": instruction})
    return list(result)


def repair_request(
    messages: Sequence[ChatMessage], bad_reply: str, parse_error: str, schema_hint: str | None
) -> list[ChatMessage]:
    """The single follow-up request after an unparsable reply. An empty reply has nothing to
    repair, so the original request is asked again instead."""
    if not bad_reply.strip():
        return with_json_instruction(messages, schema_hint)
    return [
        {"role": "system", "content": REPAIR_INSTRUCTION + _shape(schema_hint)},
        {
            "role": "user",
            "content": (
                f"The JSON parser said: {parse_error}\n\nText to repair:\n{bad_reply[:_REPAIR_TEXT_LIMIT]}"
            ),
        },
    ]


def json_reply(
    complete: Callable[[list[ChatMessage]], str],
    messages: Sequence[ChatMessage],
    schema_hint: str | None,
    log: logging.Logger,
) -> JSONValue:
    """Ask ``complete`` for JSON (the instruction added), parse tolerantly and, if that
    fails, make exactly one repair request. Raises :class:`LLMBadResponse` when the repaired
    reply is not JSON either; whatever ``complete`` raises passes through."""
    first = complete(with_json_instruction(messages, schema_hint))
    try:
        return parse_model_json(first)
    except JSONParseError as exc:
        log.warning("reply is not JSON (%s; %d chars); one repair attempt", exc, len(first))
        retry_messages = repair_request(messages, first, str(exc), schema_hint)
    second = complete(retry_messages)
    try:
        return parse_model_json(second)
    except JSONParseError as exc:
        raise LLMBadResponse(
            f"model reply is not valid JSON after one repair attempt: {exc}",
            raw_excerpt=truncate(second, 500),
        ) from exc
