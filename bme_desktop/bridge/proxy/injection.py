"""Putting the recalled memory into the messages sent upstream.

``injection_mode``:

- ``"system"`` (default): a message ``{"role": "system", "content": memory}`` inserted
  ``injection_depth`` messages before the last user message — 0: right before it; 1: one
  message earlier (usually before the last reply); and so on — but never above the leading
  system messages (the app's system prompt stays first).
- ``"first_system"``: appended to the first message when it is a system message (else a new
  system message at the very start), for servers that refuse a system message mid-chat.
- ``"user"``: put in front of the last user message's text, for chat templates with no
  system role.

The request's own message objects are never changed: changed ones are copies. Nothing here is
synced back: the chat's messages are taken from the request before injection.
"""

from __future__ import annotations

from typing import Any

from .conversation import SYSTEM_ROLES

SEPARATOR = "\n\n"


def _last_user_position(messages: list[Any]) -> int | None:
    for pos in range(len(messages) - 1, -1, -1):
        m = messages[pos]
        if isinstance(m, dict) and m.get("role") == "user":
            return pos
    return None


def _leading_system(messages: list[Any]) -> int:
    count = 0
    for m in messages:
        if not (isinstance(m, dict) and m.get("role") in SYSTEM_ROLES):
            break
        count += 1
    return count


def _with_text(message: dict[str, Any], text: str, *, before: bool) -> dict[str, Any]:
    """A copy of ``message`` with ``text`` added before or after its content."""
    content = message.get("content")
    out = dict(message)
    if isinstance(content, list):
        part = {"type": "text", "text": text}
        out["content"] = [part, *content] if before else [*content, part]
    elif isinstance(content, str) and content:
        out["content"] = text + SEPARATOR + content if before else content + SEPARATOR + text
    else:
        out["content"] = text
    return out


def injection_position(messages: list[Any], depth: int) -> int | None:
    """Where mode "system" inserts: ``depth`` messages above the last user message, not above
    the leading system messages. None when there is no user message."""
    last = _last_user_position(messages)
    if last is None:
        return None
    return max(last - max(0, depth), _leading_system(messages))


def inject(messages: list[Any], text: str, *, depth: int = 0, mode: str = "system") -> list[Any]:
    """A new message list with ``text`` placed as ``mode`` says (unchanged when ``text`` is
    empty or there is no user message)."""
    if not text:
        return list(messages)
    out = list(messages)
    if mode == "first_system":
        if out and isinstance(out[0], dict) and out[0].get("role") in SYSTEM_ROLES:
            out[0] = _with_text(out[0], text, before=False)
        else:
            out.insert(0, {"role": "system", "content": text})
        return out
    last = _last_user_position(out)
    if last is None:
        return out
    if mode == "user":
        out[last] = _with_text(out[last], text, before=True)
        return out
    position = injection_position(out, depth)
    assert position is not None
    out.insert(position, {"role": "system", "content": text})
    return out
