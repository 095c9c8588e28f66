"""Scripted replies for :class:`fakes.openai_server.FakeOpenAIServer`.

Build them with the class methods (``Reply.text``, ``Reply.json``, ``Reply.error`` ...); every
one takes ``delay=`` (seconds before anything is sent). A text reply is served in the shape the
request asked for: a JSON completion, or an SSE stream when the request had ``"stream": true``.
The stream options only matter for streamed requests.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any, Literal

ReplyKind = Literal["text", "error", "raw", "drop"]


@dataclass(frozen=True)
class Reply:
    """One scripted answer. Prefer the class-method constructors to filling fields by hand."""

    kind: ReplyKind = "text"
    content: str = ""  # what the assistant says (kind "text")
    status: int = 200
    body: bytes = b""  # for "raw" and "error"
    content_type: str = "application/json"
    retry_after: str | None = None
    delay: float = 0.0
    finish_reason: str = "stop"
    usage: dict[str, int] | None = None  # default: rough counts from the text lengths
    model: str | None = None  # default: the model named in the request
    # streaming shape
    chunk_size: int = 4  # characters of content per SSE chunk
    chunk_delay: float = 0.0  # pause before each content chunk
    stall_after: int | None = None  # after this many content chunks, go silent ...
    stall_seconds: float = 3600.0  # ... for this long (cut short when the server stops)
    truncate_after: int | None = None  # after this many chunks end the HTTP body cleanly, no finish/[DONE]
    abort_after: int | None = None  # after this many chunks cut the TCP connection
    eof_delay: float = 0.0  # pause between ``data: [DONE]`` and the end of the HTTP body
    headers: dict[str, str] = field(default_factory=dict)  # extra response headers

    # -- constructors ---------------------------------------------------------------------
    @classmethod
    def text(cls, content: str, **options: Any) -> Reply:
        """The assistant says ``content``."""
        return cls(kind="text", content=content, **options)

    @classmethod
    def json(cls, value: Any, **options: Any) -> Reply:
        """The assistant says ``json.dumps(value)``."""
        return cls(kind="text", content=json.dumps(value, ensure_ascii=False), **options)

    @classmethod
    def empty(cls, **options: Any) -> Reply:
        """The assistant says nothing (``content: ""``)."""
        return cls(kind="text", content="", **options)

    @classmethod
    def garbage(cls, **options: Any) -> Reply:
        """HTTP 200 whose body is not JSON at all (a broken proxy, an HTML error page)."""
        return cls(kind="raw", body=b"<html>502 upstream garbage", content_type="text/html", **options)

    @classmethod
    def error(
        cls,
        status: int,
        message: str = "scripted error",
        *,
        retry_after: float | str | None = None,
        **options: Any,
    ) -> Reply:
        """An OpenAI-style error body ``{"error": {"message", "type", "code"}}`` with ``status``."""
        body = json.dumps({"error": {"message": message, "type": "fake_error", "code": status}}).encode()
        after = None if retry_after is None else str(retry_after)
        return cls(kind="error", status=status, body=body, retry_after=after, **options)

    @classmethod
    def raw(
        cls, body: bytes | str, *, status: int = 200, content_type: str = "application/json", **options: Any
    ) -> Reply:
        """Exactly these bytes, this status and content type."""
        data = body.encode() if isinstance(body, str) else body
        return cls(kind="raw", body=data, status=status, content_type=content_type, **options)

    @classmethod
    def drop(cls, **options: Any) -> Reply:
        """Close the connection without answering."""
        return cls(kind="drop", **options)

    def but(self, **changes: Any) -> Reply:
        """A copy with some fields changed: ``Reply.text("hi").but(chunk_delay=0.1)``."""
        return replace(self, **changes)
