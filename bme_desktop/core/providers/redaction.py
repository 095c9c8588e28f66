"""Keep secrets and chat text out of logs and error messages.

* :func:`redact_secrets` masks API keys in free text (``sk-...`` keys, ``Bearer`` tokens).
* :func:`redact_headers` masks credential headers (``Authorization``, ``api-key`` ...).
* :func:`describe_messages` turns a chat message list into roles and sizes only (optionally
  with a short prefix of each message), which is what the clients log.
* :func:`excerpt` shortens a server body for an error message, with secrets masked.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

_SECRET_HEADERS = frozenset(
    {"authorization", "proxy-authorization", "api-key", "x-api-key", "cookie", "set-cookie"}
)
_KEY_PATTERN = re.compile(r"\b(sk|pk|rk)-[A-Za-z0-9_\-]{6,}")
_BEARER_PATTERN = re.compile(r"(?i)\b(bearer)\s+[A-Za-z0-9_\-.=+/]{6,}")
MASK = "***"


def redact_secrets(text: str) -> str:
    """Mask anything that looks like an API key or a bearer token."""
    text = _BEARER_PATTERN.sub(lambda m: f"{m.group(1)} {MASK}", text)
    return _KEY_PATTERN.sub(lambda m: f"{m.group(1)}-{MASK}", text)


def redact_headers(headers: Mapping[str, str]) -> dict[str, str]:
    """A copy of ``headers`` with credential headers masked (keeping the auth scheme)."""
    clean: dict[str, str] = {}
    for name, value in headers.items():
        if name.lower() in _SECRET_HEADERS:
            scheme = value.split(" ", 1)[0] if " " in value else ""
            clean[name] = f"{scheme} {MASK}".strip()
        else:
            clean[name] = redact_secrets(value)
    return clean


def truncate(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, saying how much was cut."""
    if limit <= 0:
        return f"<{len(text)} chars>"
    if len(text) <= limit:
        return text
    return f"{text[:limit]}…(+{len(text) - limit} chars)"


def excerpt(text: str, limit: int = 200) -> str:
    """A short, secret-free, single-line excerpt of a server body for error messages."""
    one_line = " ".join(text.split())
    return truncate(redact_secrets(one_line), limit)


def _content_length(content: Any) -> int:
    if isinstance(content, str):
        return len(content)
    if isinstance(content, Sequence):
        return sum(len(str(part.get("text", ""))) for part in content if isinstance(part, Mapping))
    return 0


def describe_messages(messages: Sequence[Mapping[str, Any]], preview_chars: int = 0) -> str:
    """Roles and sizes of a chat message list, e.g. ``[system:512, user:80]``.

    With ``preview_chars > 0`` each entry also shows that many leading characters (secrets
    masked); the clients log with ``preview_chars=0`` so no chat text reaches the log.
    """
    parts: list[str] = []
    for message in messages:
        role = str(message.get("role", "?"))
        content = message.get("content", "")
        size = _content_length(content)
        if preview_chars > 0 and isinstance(content, str):
            parts.append(f"{role}:{size}:{redact_secrets(truncate(content, preview_chars))!r}")
        else:
            parts.append(f"{role}:{size}")
    return "[" + ", ".join(parts) + "]"
