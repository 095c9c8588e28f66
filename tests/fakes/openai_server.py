"""A fake OpenAI-compatible server for tests: real HTTP on 127.0.0.1, scripted answers.

It runs aiohttp on its own event loop in a background thread, on a free port, and speaks the
OpenAI wire format, so the code under test cannot tell it from a real endpoint.

Usage (``tests/`` is on ``sys.path`` in the test run, so ``fakes`` imports as a plain package)::

    from fakes.openai_server import FakeOpenAIServer, Reply

    with FakeOpenAIServer() as server:            # server.base_url == "http://127.0.0.1:PORT/v1"
        server.enqueue(Reply.error(429, retry_after=0.1), Reply.json({"ok": True}))
        ...call the code under test with base_url=server.base_url...
        assert len(server.requests_to("/chat/completions")) == 2
        assert server.requests[0].json["model"] == "my-model"

Routes
    ``POST /v1/chat/completions``
        Answers with the next queued :class:`Reply` (``enqueue``), or, when the queue is
        empty, with ``responder(request_json)`` (a ``Reply`` or a plain ``str``). The default
        responder says ``"{}"`` when the request asked for ``response_format`` and ``"ok"``
        otherwise. Text replies come back as ``choices[0].message.content`` with ``usage``,
        or, if the request had ``"stream": true``, as SSE: ``data: {chunk}\\n\\n`` events with
        ``choices[0].delta.content``, a last chunk with ``finish_reason`` (plus ``usage`` when
        ``stream_options.include_usage``), then ``data: [DONE]``. Streams can be slowed,
        stalled, truncated or cut (see :mod:`fakes.openai_replies`).
        With ``reject_response_format=True``, a request carrying ``response_format`` gets a 400
        (like servers that do not support JSON mode), before the queue is consulted.
    ``POST /v1/embeddings``
        Deterministic vectors: :func:`fake_embedding` (hashed character 1-3-grams, *not*
        normalised) of dimension ``embedding_dim`` (settable at any time). Queued replies from
        ``enqueue_embeddings`` (errors, delays, garbage) are served first. Knobs:
        ``embedding_ragged`` (last vector of every batch one shorter), ``embedding_reverse``
        (items listed in reverse order; their ``index`` stays right).
    ``GET /v1/models``
        ``{"object": "list", "data": [{"id": model}, ...]}`` for ``models``; a 404 when
        ``models=None`` (servers without this route).

Every request (any path, also unknown ones) is recorded as a :class:`RecordedRequest`
(method, path, lower-cased headers, parsed JSON, raw body). With ``api_key="..."`` set,
requests without ``Authorization: Bearer <key>`` get a 401.
``stop()`` (or leaving the ``with``) cuts short any scripted delay or stall.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from aiohttp import web

from .openai_replies import Reply

__all__ = ["FakeOpenAIServer", "RecordedRequest", "Reply", "fake_embedding"]

Responder = Callable[[dict[str, Any]], "Reply | str"]
_Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass(frozen=True)
class RecordedRequest:
    """One request as the server saw it."""

    method: str
    path: str  # e.g. "/v1/chat/completions"
    headers: dict[str, str]  # lower-cased names
    json: Any  # parsed body, or None
    body: bytes
    received_at: float  # time.monotonic()


def fake_embedding(text: str, dim: int) -> list[float]:
    """Hashed bag of character 1-, 2- and 3-grams: similar texts get similar vectors."""
    vector = [0.0] * dim
    lowered = text.lower()
    for n in (1, 2, 3):
        for i in range(len(lowered) - n + 1):
            digest = int.from_bytes(
                hashlib.blake2b(lowered[i : i + n].encode(), digest_size=8).digest(), "big"
            )
            vector[digest % dim] += 1.0 if (digest >> 40) & 1 else -1.0
    return vector


def _default_responder(request: dict[str, Any]) -> Reply:
    return Reply.text("{}" if request.get("response_format") else "ok")


class FakeOpenAIServer:
    """Scriptable OpenAI-compatible server on loopback. See the module docstring."""

    def __init__(
        self,
        *,
        models: Sequence[str] | None = ("fake-chat", "fake-embed"),
        embedding_dim: int = 64,
        responder: Responder | None = None,
        api_key: str | None = None,
        reject_response_format: bool = False,
    ) -> None:
        self.models = None if models is None else list(models)
        self.embedding_dim = embedding_dim
        self.embedding_ragged = False
        self.embedding_reverse = False
        self.responder: Responder = responder or _default_responder
        self.api_key = api_key
        self.reject_response_format = reject_response_format
        self._lock = threading.Lock()
        self._chat_queue: deque[Reply] = deque()
        self._embedding_queue: deque[Reply] = deque()
        self._requests: list[RecordedRequest] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._stopping: asyncio.Event | None = None
        self._completion_ids = 0
        self.port = 0

    # -- lifecycle ------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        if not self.port:
            raise RuntimeError("server not started")
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> FakeOpenAIServer:
        if self._thread is not None:
            raise RuntimeError("already started")
        loop = asyncio.new_event_loop()
        self._loop = loop
        startup_done = threading.Event()
        errors: list[BaseException] = []

        def run() -> None:
            asyncio.set_event_loop(loop)
            try:
                loop.run_until_complete(self._setup())
            except BaseException as exc:  # reported to start()
                errors.append(exc)
                startup_done.set()
                return
            startup_done.set()
            loop.run_forever()
            loop.close()

        self._thread = threading.Thread(target=run, name="fake-openai-server", daemon=True)
        self._thread.start()
        startup_done.wait(10)
        if errors:
            raise RuntimeError("fake OpenAI server failed to start") from errors[0]
        return self

    def stop(self) -> None:
        loop, thread = self._loop, self._thread
        if loop is None or thread is None:
            return
        asyncio.run_coroutine_threadsafe(self._shutdown(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        self._loop = self._thread = None

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    # -- scripting and inspection ---------------------------------------------------------
    def enqueue(self, *replies: Reply | str) -> None:
        """Queue answers for ``/v1/chat/completions``, served in order (a str is a text reply)."""
        with self._lock:
            self._chat_queue.extend(Reply.text(r) if isinstance(r, str) else r for r in replies)

    def enqueue_embeddings(self, *replies: Reply) -> None:
        """Queue non-vector answers (errors, garbage, drops) for ``/v1/embeddings``. A text
        reply in this queue means "answer normally" (after its ``delay``)."""
        with self._lock:
            self._embedding_queue.extend(replies)

    def pending(self) -> int:
        """Chat replies still queued."""
        with self._lock:
            return len(self._chat_queue)

    @property
    def requests(self) -> list[RecordedRequest]:
        """A copy of every request so far, oldest first."""
        with self._lock:
            return list(self._requests)

    def requests_to(self, path_suffix: str) -> list[RecordedRequest]:
        """Recorded requests whose path ends with ``path_suffix`` (e.g. ``"/embeddings"``)."""
        return [r for r in self.requests if r.path.endswith(path_suffix)]

    def clear_requests(self) -> None:
        with self._lock:
            self._requests.clear()

    # -- server internals -----------------------------------------------------------------
    async def _setup(self) -> None:
        self._stopping = asyncio.Event()
        app = web.Application(middlewares=[self._record_and_authorize])
        app.router.add_post("/v1/chat/completions", self._chat)
        app.router.add_post("/v1/embeddings", self._embeddings)
        app.router.add_get("/v1/models", self._models)
        self._runner = web.AppRunner(app, handler_cancellation=True, shutdown_timeout=1.0, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])

    async def _shutdown(self) -> None:
        if self._stopping is not None:
            self._stopping.set()
        if self._runner is not None:
            await self._runner.cleanup()

    async def _pause(self, seconds: float) -> None:
        """Sleep, but wake up at once when the server is stopping."""
        if seconds <= 0 or self._stopping is None:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stopping.wait(), timeout=seconds)

    @web.middleware
    async def _record_and_authorize(self, request: web.Request, handler: _Handler) -> web.StreamResponse:
        body = await request.read()
        try:
            parsed = json.loads(body) if body else None
        except ValueError:
            parsed = None
        headers = {name.lower(): value for name, value in request.headers.items()}
        with self._lock:
            self._requests.append(
                RecordedRequest(request.method, request.path, headers, parsed, body, time.monotonic())
            )
        if self.api_key is not None and headers.get("authorization") != f"Bearer {self.api_key}":
            return await self._serve_plain(request, Reply.error(401, "invalid api key"))
        return await handler(request)

    def _next(self, queue: deque[Reply]) -> Reply | None:
        with self._lock:
            return queue.popleft() if queue else None

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        payload = await request.json()
        if self.reject_response_format and "response_format" in payload:
            return await self._serve_plain(request, Reply.error(400, "response_format is not supported"))
        reply = self._next(self._chat_queue)
        if reply is None:
            answer = self.responder(payload)
            reply = Reply.text(answer) if isinstance(answer, str) else answer
        await self._pause(reply.delay)
        if reply.kind != "text":
            return await self._serve_plain(request, reply)
        model = reply.model or str(payload.get("model", "fake-chat"))
        self._completion_ids += 1
        completion_id = f"chatcmpl-fake-{self._completion_ids}"
        usage = reply.usage or _rough_usage(payload, reply.content)
        if payload.get("stream"):
            return await _sse_stream(request, reply, self._pause, completion_id, model, usage, payload)
        return web.json_response(
            {
                "id": completion_id,
                "object": "chat.completion",
                "created": int(time.time()),
                "model": model,
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": reply.content},
                        "finish_reason": reply.finish_reason,
                    }
                ],
                "usage": usage,
            },
            headers=reply.headers,
        )

    async def _embeddings(self, request: web.Request) -> web.StreamResponse:
        payload = await request.json()
        reply = self._next(self._embedding_queue)
        if reply is not None:
            await self._pause(reply.delay)
            if reply.kind != "text":
                return await self._serve_plain(request, reply)
        raw_input = payload.get("input", [])
        texts = [raw_input] if isinstance(raw_input, str) else [str(t) for t in raw_input]
        vectors = [fake_embedding(t, self.embedding_dim) for t in texts]
        if self.embedding_ragged and vectors:
            vectors[-1] = vectors[-1][:-1]
        items = [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors)]
        if self.embedding_reverse:
            items.reverse()
        tokens = sum(len(t) for t in texts) // 4 + len(texts)
        return web.json_response(
            {
                "object": "list",
                "data": items,
                "model": payload.get("model", "fake-embed"),
                "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
            }
        )

    async def _models(self, request: web.Request) -> web.StreamResponse:
        if self.models is None:
            return await self._serve_plain(request, Reply.error(404, "no such route"))
        data = [{"id": m, "object": "model", "created": 0, "owned_by": "fake"} for m in self.models]
        return web.json_response({"object": "list", "data": data})

    async def _serve_plain(self, request: web.Request, reply: Reply) -> web.StreamResponse:
        """Errors, raw bodies and dropped connections."""
        if reply.kind == "drop":
            if request.transport is not None:
                request.transport.abort()
            raise asyncio.CancelledError
        headers = dict(reply.headers)
        if reply.retry_after is not None:
            headers["Retry-After"] = reply.retry_after
        return web.Response(
            body=reply.body, status=reply.status, content_type=reply.content_type, headers=headers
        )


def _rough_usage(payload: dict[str, Any], content: str) -> dict[str, int]:
    prompt_chars = sum(
        len(str(m.get("content", ""))) for m in payload.get("messages", []) if isinstance(m, dict)
    )
    prompt, completion = prompt_chars // 4 + 1, len(content) // 4 + 1
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def _sse_event(value: Any) -> bytes:
    return f"data: {json.dumps(value, ensure_ascii=False)}\n\n".encode()


async def _sse_stream(
    request: web.Request,
    reply: Reply,
    pause: Callable[[float], Awaitable[None]],
    completion_id: str,
    model: str,
    usage: dict[str, int],
    payload: dict[str, Any],
) -> web.StreamResponse:
    response = web.StreamResponse(
        headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache", **reply.headers}
    )
    await response.prepare(request)

    def chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
        return _sse_event(
            {
                "id": completion_id,
                "object": "chat.completion.chunk",
                "created": int(time.time()),
                "model": model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
            }
        )

    size = max(1, reply.chunk_size)
    pieces = [reply.content[i : i + size] for i in range(0, len(reply.content), size)]
    try:
        await response.write(chunk({"role": "assistant", "content": ""}))
        for n, piece in enumerate(pieces):
            if reply.truncate_after is not None and n >= reply.truncate_after:
                await response.write_eof()
                return response
            if reply.abort_after is not None and n >= reply.abort_after:
                if request.transport is not None:
                    request.transport.abort()
                return response
            if reply.stall_after is not None and n == reply.stall_after:
                await pause(reply.stall_seconds)
            await pause(reply.chunk_delay)
            await response.write(chunk({"content": piece}))
        await response.write(chunk({}, reply.finish_reason))
        if (payload.get("stream_options") or {}).get("include_usage"):
            await response.write(
                _sse_event(
                    {
                        "id": completion_id,
                        "object": "chat.completion.chunk",
                        "model": model,
                        "choices": [],
                        "usage": usage,
                    }
                )
            )
        await response.write(b"data: [DONE]\n\n")
        if reply.eof_delay:
            await pause(reply.eof_delay)
        await response.write_eof()
    except (ConnectionError, RuntimeError):  # the client went away
        pass
    return response
