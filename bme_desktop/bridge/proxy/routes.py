"""``POST /v1/chat/completions`` and ``GET /v1/models``: an OpenAI-compatible endpoint that
adds memory. The bridge's middlewares run first (Host/Origin gates, rate limit, the bridge
token as the API key). See docs/proxy.md.

A chat completion: identify the chat → sync its conversation and recall for the last user
message (worker thread, under a per-chat lock) → insert the memory → forward upstream → relay
the answer as it arrives → once a reply has finished and reached the client, sync it as the
chat's next message (for extraction). A client that goes away mid-answer stops the upstream
request and nothing of that reply is synced: the app's next request carries whatever it kept.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
import weakref
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import web

from ..context import CONTEXT, BridgeContext, ctx
from ..origin import cors_headers
from ..validation import read_json_object
from .chat_identity import ChatIdentity, Continuity, identify
from .conversation import Turn, conversation
from .injection import inject
from .lender import ProxyLender
from .memory import FingerprintCache, Prepared, prepare, sync_reply
from .stream import ClientGone, ReplyReader, chunks
from .upstream import HOP, Upstream, endpoint, openai_error, relayed_headers, request_headers, timeout

log = logging.getLogger(__name__)
CHAT_PATH = "/v1/chat/completions"
MODELS_PATH = "/v1/models"
MEMORY_HEADER = "X-BME-Memory"  # request: "off" skips memory; response: what memory did
MODELS_TIMEOUT_S = 15.0
ENCODE_IN_THREAD_ABOVE = 256 * 1024
EXPOSED = "Retry-After, X-BME-Chat, X-BME-Memory, Server-Timing"


@dataclass
class ProxyState:
    upstream: Upstream = field(default_factory=Upstream)
    continuity: Continuity = field(default_factory=Continuity)
    fingerprints: FingerprintCache = field(default_factory=FingerprintCache)
    stopping: asyncio.Event = field(default_factory=asyncio.Event)
    locks: weakref.WeakValueDictionary[str, asyncio.Lock] = field(default_factory=weakref.WeakValueDictionary)
    active: int = 0  # answers being relayed now
    replies_synced: int = 0
    lender: ProxyLender | None = None  # lends the upstream to memory jobs (lender.py)

    def lock(self, chat_id: str) -> asyncio.Lock:
        lock = self.locks.get(chat_id)
        if lock is None:
            lock = asyncio.Lock()
            self.locks[chat_id] = lock
        return lock


PROXY: web.AppKey[ProxyState] = web.AppKey("bme_proxy_state", ProxyState)


def _unavailable(c: BridgeContext) -> web.Response | None:
    settings = c.service.settings.proxy
    if not settings.enabled:
        return openai_error(
            503,
            "proxy_disabled",
            "the BME Desktop proxy is turned off (proxy.enabled in settings.json); see docs/proxy.md",
            retry=False,
        )
    if not settings.upstream_base_url.strip():
        return openai_error(
            503,
            "no_upstream",
            "the BME Desktop proxy has no upstream yet: set "
            "proxy.upstream_base_url in settings.json (e.g. https://api.openai.com/v1); "
            "see docs/proxy.md",
            retry=False,
        )
    return None


async def _upstream_key(c: BridgeContext, state: ProxyState) -> str | None:
    key = state.upstream.key
    if key.fresh():
        return key.cached()
    return await asyncio.get_running_loop().run_in_executor(c.executor, key.get, c.service.data_dir)


def _encode(body: dict[str, Any]) -> bytes:
    """The body as read (lone surrogates were already replaced with U+FFFD), as UTF-8 JSON."""
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _decorate(
    response: web.StreamResponse,
    request: web.Request,
    identity: ChatIdentity | None,
    memory: str,
    timing: str | None = None,
) -> None:
    if timing:
        response.headers["Server-Timing"] = timing
    if identity is not None:
        response.headers["X-BME-Chat"] = identity.header_value()
    response.headers[MEMORY_HEADER] = memory
    origin = request.headers.get("Origin")
    if origin:  # the guard middleware already allowed it
        response.headers.update(cors_headers(origin))
        response.headers["Access-Control-Expose-Headers"] = EXPOSED
    response.headers.setdefault("Cache-Control", "no-store")
    response.headers["X-Content-Type-Options"] = "nosniff"


def _error_event(message: str) -> bytes:
    body = {"error": {"message": message, "type": "bme_proxy_error", "code": "upstream_broken"}}
    return f"data: {json.dumps(body)}\n\n".encode()


async def _memory_before(
    c: BridgeContext, state: ProxyState, request: web.Request, body: dict[str, Any], turns: list[Turn]
) -> tuple[ChatIdentity, Prepared]:
    identity = identify(request.headers, body, turns, state.continuity)
    loop = asyncio.get_running_loop()
    async with state.lock(identity.chat_id):
        prepared = await loop.run_in_executor(
            c.executor, functools.partial(prepare, c.service, identity.chat_id, turns, state.fingerprints)
        )
    return identity, prepared


async def _memory_after(
    c: BridgeContext,
    state: ProxyState,
    identity: ChatIdentity,
    prepared: Prepared,
    turns: list[Turn],
    text: str,
) -> None:
    assert prepared.reply_index is not None
    state.continuity.remember(turns[-1].text, text, identity.chat_id)
    loop = asyncio.get_running_loop()
    async with state.lock(identity.chat_id):
        stored = await loop.run_in_executor(
            c.executor,
            functools.partial(
                sync_reply, c.service, identity.chat_id, prepared.reply_index, text, prepared.reply_name
            ),
        )
    if stored:
        state.replies_synced += 1


async def chat_completions(request: web.Request) -> web.StreamResponse:
    started = time.perf_counter()
    c = ctx(request)
    state = request.app[PROXY]
    if HOP in request.headers:
        return openai_error(
            508,
            "loop_detected",
            "proxy.upstream_base_url points back at BME Desktop itself; set it to the real server",
            retry=False,
        )
    refused = _unavailable(c)
    if refused is not None:
        return refused
    settings = c.service.settings.proxy
    body = await read_json_object(request, c.config.sync_body_limit)
    messages = body.get("messages")
    wants_memory = request.headers.get(MEMORY_HEADER, "").strip().lower() not in ("off", "false", "0", "no")
    identity: ChatIdentity | None = None
    prepared = Prepared(status="off")
    turns: list[Turn] = []
    if wants_memory and isinstance(messages, list):
        turns = conversation(messages)
        identity, prepared = await _memory_before(c, state, request, body, turns)
        if prepared.injection:
            body = {
                **body,
                "messages": inject(
                    messages, prepared.injection, depth=settings.injection_depth, mode=settings.injection_mode
                ),
            }
    model = body.get("model")
    mapped = settings.models().get(model) if isinstance(model, str) else None
    if mapped:
        body = {**body, "model": mapped}
    if state.lender is not None and isinstance(body.get("model"), str) and body["model"].strip():
        state.lender.saw_model(body["model"].strip())
    loop = asyncio.get_running_loop()
    raw = request.content_length or 0
    payload = (
        await loop.run_in_executor(None, _encode, body) if raw > ENCODE_IN_THREAD_ABOVE else _encode(body)
    )
    key = await _upstream_key(c, state)
    url = endpoint(settings, "/chat/completions")
    before_ms = (time.perf_counter() - started) * 1000
    # What the bridge spent before forwarding: the sync, the recall, and all of it.
    timing = (
        f"bme-sync;dur={prepared.sync_ms:.2f}, bme-recall;dur={prepared.recall_ms:.2f}, "
        f"bme-proxy;dur={before_ms:.2f}"
    )
    try:
        upstream = await state.upstream.session(url).post(
            url,
            data=payload,
            headers=request_headers(request.headers, key, json_body=True),
            timeout=timeout(settings),
        )
    except TimeoutError:
        return openai_error(
            504,
            "upstream_timeout",
            f"the upstream at {url} did not answer within {settings.timeout_s:g} s (proxy.timeout_s)",
            retry=True,
        )
    except aiohttp.ClientError as exc:
        return openai_error(
            502,
            "upstream_unreachable",
            f"cannot reach the upstream at {url}: {type(exc).__name__}: {exc}",
            retry=True,
        )
    return await _relay(c, state, request, upstream, identity, prepared, turns, timing)


async def _relay(
    c: BridgeContext,
    state: ProxyState,
    request: web.Request,
    upstream: aiohttp.ClientResponse,
    identity: ChatIdentity | None,
    prepared: Prepared,
    turns: list[Turn],
    timing: str,
) -> web.StreamResponse:
    """Relay status, headers and body as they arrive; then sync a finished reply."""
    is_sse = "text/event-stream" in upstream.headers.get("Content-Type", "").lower()
    reader = (
        ReplyReader(sse=is_sse)
        if upstream.status == 200 and identity is not None and prepared.reply_index is not None
        else None
    )
    response = web.StreamResponse(
        status=upstream.status, reason=upstream.reason, headers=relayed_headers(upstream.headers)
    )
    _decorate(response, request, identity, prepared.status, timing)
    delivered = False  # the whole body reached the client
    # The client went away after the reply's end ([DONE] or a finish_reason) was relayed, before
    # the upstream's body ended (OpenAI's SDKs close right after [DONE]): it has the whole reply.
    left_after_end = False
    state.active += 1
    try:
        await response.prepare(request)
        async with contextlib.aclosing(chunks(upstream, request, stopping=state.stopping)) as body:
            async for chunk in body:
                await response.write(chunk)
                if reader is not None:
                    reader.feed(chunk)
        await response.write_eof()
        delivered = True
    except (ClientGone, ConnectionError):
        left_after_end = reader is not None and reader.finished and not state.stopping.is_set()
        if left_after_end:
            log.debug(
                "proxy: the client closed after the reply ended (chat %r)", identity and identity.chat_id
            )
        else:
            log.info(
                "proxy: the client left mid-answer (chat %r); upstream request closed, nothing synced",
                identity and identity.chat_id,
            )
    except Exception as exc:  # the upstream broke (or worse): end this answer, which has begun
        if isinstance(exc, aiohttp.ClientError | TimeoutError):
            log.warning(
                "proxy: the upstream broke mid-answer (chat %r): %s", identity and identity.chat_id, exc
            )
        else:
            log.exception("proxy: relaying the answer failed (chat %r)", identity and identity.chat_id)
        if not response.prepared:
            raise
        if is_sse:  # clients read the error event; OpenAI's SDKs raise it
            with contextlib.suppress(ConnectionError, RuntimeError):
                await response.write(
                    _error_event(f"the upstream connection broke mid-answer: {type(exc).__name__}")
                )
                await response.write_eof()
        elif request.transport is not None:  # a cut body must not look complete: break the transfer
            request.transport.close()
    finally:
        state.active -= 1
        if delivered:
            upstream.release()
        else:
            upstream.close()  # drops the connection: the upstream stops generating
    if reader is not None and identity is not None and (delivered or left_after_end):
        if delivered:
            reader.end()
        text = reader.text()
        if text:
            await _memory_after(c, state, identity, prepared, turns, text)
    return response


def _alias_list(aliases: dict[str, str], upstream_ids: set[str] | None = None) -> list[dict[str, Any]]:
    return [
        {"id": alias, "object": "model", "created": 0, "owned_by": "bme-desktop"}
        for alias in aliases
        if upstream_ids is None or alias not in upstream_ids
    ]


def _aliases_only(request: web.Request, aliases: dict[str, str], why: str) -> web.Response:
    response = web.json_response({"object": "list", "data": _alias_list(aliases)})
    _decorate(response, request, None, "off")
    response.headers["X-BME-Upstream"] = why
    return response


async def models(request: web.Request) -> web.StreamResponse:
    """The upstream's ``/models``, plus the model-map aliases it does not list. When the
    upstream cannot be reached or errs, the aliases alone (if any), else its error."""
    c = ctx(request)
    state = request.app[PROXY]
    if HOP in request.headers:
        return openai_error(
            508, "loop_detected", "proxy.upstream_base_url points back at BME Desktop itself", retry=False
        )
    settings = c.service.settings.proxy
    aliases = settings.models()
    refused = _unavailable(c)
    if refused is not None:
        if settings.enabled and aliases:
            return _aliases_only(request, aliases, "not-configured")
        return refused
    key = await _upstream_key(c, state)
    url = endpoint(settings, "/models")
    try:
        upstream = await state.upstream.session(url).get(
            url,
            headers=request_headers(request.headers, key, json_body=False),
            timeout=aiohttp.ClientTimeout(total=min(settings.timeout_s, MODELS_TIMEOUT_S)),
        )
        async with upstream:
            raw = await upstream.read()
    except (aiohttp.ClientError, TimeoutError) as exc:
        if aliases:
            return _aliases_only(request, aliases, "unreachable")
        status, code = (
            (504, "upstream_timeout") if isinstance(exc, TimeoutError) else (502, "upstream_unreachable")
        )
        return openai_error(
            status, code, f"cannot list models at {url}: {type(exc).__name__}: {exc}", retry=True
        )
    if upstream.status != 200 and aliases:
        return _aliases_only(request, aliases, f"error-{upstream.status}")
    data: Any = None
    if upstream.status == 200:
        try:
            data = json.loads(raw)
        except ValueError:
            data = None
    if isinstance(data, dict) and isinstance(data.get("data"), list):
        listed = {str(m.get("id")) for m in data["data"] if isinstance(m, dict)}
        data["data"] = [*data["data"], *_alias_list(aliases, listed)]
        response = web.json_response(data)
    else:
        response = web.Response(body=raw, status=upstream.status, headers=relayed_headers(upstream.headers))
    _decorate(response, request, None, "off")
    return response


async def _on_shutdown(app: web.Application) -> None:
    app[PROXY].stopping.set()  # answers being relayed stop now rather than hold the shutdown


def ctx_of(app: web.Application) -> BridgeContext:
    return app[CONTEXT]


async def _on_startup(app: web.Application) -> None:
    state = app[PROXY]
    service = ctx_of(app).service
    state.lender = ProxyLender(service, state.upstream.key)
    app[UNLEND] = service.lenders.add(state.lender)


async def _on_cleanup(app: web.Application) -> None:
    unlend = app.get(UNLEND)
    if unlend is not None:
        unlend()
    await app[PROXY].upstream.close()


UNLEND: web.AppKey[Any] = web.AppKey("bme_proxy_unlend")


def register(app: web.Application) -> None:
    """Add the proxy's routes and state to the bridge app (called by ``build_app``)."""
    app[PROXY] = ProxyState()
    app.on_startup.append(_on_startup)
    app.router.add_post(CHAT_PATH, chat_completions)
    app.router.add_get(MODELS_PATH, models)
    app.on_shutdown.append(_on_shutdown)
    app.on_cleanup.append(_on_cleanup)
