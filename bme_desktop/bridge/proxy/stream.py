"""Relaying an upstream answer as it arrives, and reading the assistant's reply out of it.

:func:`chunks` yields the upstream body piece by piece and notices a client that went away
even while the upstream is silent. :class:`ReplyReader` is fed the same bytes: for an SSE
stream it joins ``choices[0].delta.content`` event by event; for a plain answer it keeps the
body (bounded) and reads ``choices[0].message.content`` at the end. Neither ever holds the
relay back: bytes go to the client first.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncGenerator
from typing import Any

import aiohttp
from aiohttp import web

from .conversation import clean_text, content_text

CLIENT_CHECK_S = 0.25  # how often a silent upstream is interrupted to look at the client
MAX_PLAIN_BODY = 32 * 1024 * 1024  # a plain answer larger than this is relayed but not synced


class ClientGone(Exception):
    """The client closed its connection: stop reading upstream."""


def client_gone(request: web.Request) -> bool:
    transport = request.transport
    return transport is None or transport.is_closing()


async def chunks(
    upstream: aiohttp.ClientResponse,
    request: web.Request,
    *,
    stopping: asyncio.Event | None = None,
    check_s: float = CLIENT_CHECK_S,
) -> AsyncGenerator[bytes, None]:
    """The upstream body as it arrives. Raises :class:`ClientGone` when the client
    disconnects or the bridge is stopping (checked every ``check_s`` while the upstream is
    silent, and before each chunk is handed on)."""
    pending: asyncio.Future[bytes] | None = None
    try:
        while True:
            pending = asyncio.ensure_future(upstream.content.readany())
            while True:
                done, _ = await asyncio.wait({pending}, timeout=check_s)
                if done:
                    break
                if client_gone(request) or (stopping is not None and stopping.is_set()):
                    raise ClientGone
            chunk = pending.result()
            pending = None
            if not chunk:
                return
            if stopping is not None and stopping.is_set():
                raise ClientGone
            yield chunk
    finally:
        if pending is not None and not pending.done():
            pending.cancel()
            await asyncio.gather(pending, return_exceptions=True)


class ReplyReader:
    """What the assistant said, from the relayed bytes (choice 0 only)."""

    def __init__(self, *, sse: bool) -> None:
        self.sse = sse
        self._buffer = bytearray()
        self._data: list[str] = []
        self._parts: list[str] = []
        self._size = 0
        self.finished = False  # the answer ended properly ([DONE] or a finish_reason)
        self.overflow = False
        self.error = False  # the stream carried an error event

    def feed(self, chunk: bytes) -> None:
        if self.overflow:
            return
        self._buffer.extend(chunk)
        if not self.sse:
            if len(self._buffer) > MAX_PLAIN_BODY:
                self.overflow = True
                self._buffer.clear()
            return
        while True:
            end = self._buffer.find(b"\n")
            if end < 0:
                break
            line = bytes(self._buffer[:end]).rstrip(b"\r").decode("utf-8", "replace")
            del self._buffer[: end + 1]
            self._line(line)
        if len(self._buffer) > MAX_PLAIN_BODY:  # one line that never ends
            self.overflow = True
            self._buffer.clear()

    def _line(self, line: str) -> None:
        if not line:
            if self._data:
                self._event("\n".join(self._data))
                self._data = []
            return
        if line.startswith(":"):
            return
        name, _, value = line.partition(":")
        if name == "data":
            self._data.append(value[1:] if value.startswith(" ") else value)

    def _event(self, data: str) -> None:
        if data.strip() == "[DONE]":
            self.finished = True
            return
        try:
            event = json.loads(data)
        except ValueError:
            return
        if not isinstance(event, dict):
            return
        if "error" in event:
            self.error = True
            return
        for choice in event.get("choices") or []:
            if not isinstance(choice, dict) or choice.get("index", 0) != 0:
                continue
            delta = choice.get("delta")
            if isinstance(delta, dict):
                piece = content_text(delta.get("content"))
                if piece:
                    self._size += len(piece)
                    if self._size > MAX_PLAIN_BODY:
                        self.overflow = True
                        return
                    self._parts.append(piece)
            if choice.get("finish_reason"):
                self.finished = True

    def end(self) -> None:
        """The upstream body ended: an unterminated last event still counts."""
        if self.sse:
            if self._buffer:
                self._line(bytes(self._buffer).rstrip(b"\r").decode("utf-8", "replace"))
                self._buffer.clear()
            self._line("")

    def text(self) -> str | None:
        """The finished reply's text, or None (not finished, an error, too large, or empty)."""
        if self.overflow or self.error:
            return None
        if self.sse:
            return (clean_text("".join(self._parts)) or None) if self.finished else None
        try:
            body: Any = json.loads(bytes(self._buffer))
        except ValueError:
            return None
        choices = body.get("choices") if isinstance(body, dict) else None
        if not isinstance(choices, list):
            return None
        for choice in choices:
            if (
                isinstance(choice, dict)
                and choice.get("index", 0) == 0
                and isinstance(choice.get("message"), dict)
            ):
                return clean_text(content_text(choice["message"].get("content"))) or None
        return None
