"""``GET /v1/events``: a WebSocket of the memory's events.

The token comes in the ``Authorization`` header or, for browsers (which cannot set it),
as the first message ``{"token": "..."}`` within ``ws_auth_timeout_s`` (1 s). Otherwise
the socket is closed with code 4401 (wrong or malformed token) or 4408 (no token in time).
Only authenticated sockets count toward ``ws_max_clients``; sockets waiting for their token
have an allowance of their own (``ws_max_waiting``), so token-less sockets cannot lock out
a client that has the token. An authenticated socket may also offer SillyTavern's model for
memory jobs (``model.offer``; model_jobs.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from aiohttp import WSMsgType, web

from .auth import require_token, token_matches
from .clients import identify
from .context import CONTEXT, BridgeContext, ctx
from .errors import ApiError
from .events_hub import OVERFLOW, Subscriber
from .model_jobs import SocketLender

PATH = "/v1/events"
CLOSE_UNAUTHORIZED = 4401
CLOSE_AUTH_TIMEOUT = 4408
CLOSE_TOO_SLOW = 1013
CLOSE_TRY_AGAIN = 1013  # authenticated while every place was taken
CLOSE_GOING_AWAY = 1001
SOCKETS: web.AppKey[set[web.WebSocketResponse]] = web.AppKey("bme_sockets")  # every open one
WAITING: web.AppKey[set[web.WebSocketResponse]] = web.AppKey("bme_sockets_waiting")  # no token yet
LENDER: web.AppKey[SocketLender] = web.AppKey("bme_socket_lender")
UNLEND: web.AppKey[Any] = web.AppKey("bme_socket_unlend")


async def _refuse(
    ws: web.WebSocketResponse, code: int, message: str, error: str = "unauthorized"
) -> web.WebSocketResponse:
    with contextlib.suppress(Exception):
        await ws.send_json({"type": "error", "chat_id": None, "error": {"code": error, "message": message}})
    await ws.close(code=code, message=message.encode("utf-8")[:120])
    return ws


async def _first_message_token(ws: web.WebSocketResponse, timeout: float) -> str | None:
    try:
        msg = await asyncio.wait_for(ws.receive(), timeout)
    except TimeoutError:
        return None
    if msg.type != WSMsgType.TEXT:
        return ""
    try:
        data: Any = json.loads(msg.data)
    except ValueError:
        return ""
    token = data.get("token") if isinstance(data, dict) else None
    return token if isinstance(token, str) else ""


async def _send_events(ws: web.WebSocketResponse, sub: Subscriber) -> None:
    while not ws.closed:
        payload = await sub.queue.get()
        if payload == OVERFLOW:
            await ws.close(code=CLOSE_TOO_SLOW, message=b"too many events missed; reconnect")
            return
        await ws.send_str(payload)


async def _read_client(ws: web.WebSocketResponse, sub: Subscriber, lender: SocketLender | None) -> None:
    async for msg in ws:
        if msg.type != WSMsgType.TEXT:
            continue
        try:
            data: Any = json.loads(msg.data)
        except ValueError:
            continue
        if not isinstance(data, dict):
            continue
        if data.get("type") == "ping":
            await ws.send_json({"type": "pong"})
        elif lender is not None and str(data.get("type", "")).startswith("model."):
            lender.handle(sub, data)


async def events(request: web.Request) -> web.StreamResponse:
    c: BridgeContext = ctx(request)
    header_auth = "Authorization" in request.headers
    who = identify(
        request.remote,
        request.headers.get("Origin"),
        request.headers.get("User-Agent"),
        request.headers.get("X-BME-Client"),
    )
    if header_auth:
        try:
            require_token(request, c.tokens.current())
        except ApiError:
            c.clients.refused(who, "events")
            raise
    chat_filter = request.query.get("chat_id") or None
    if chat_filter is not None and len(chat_filter) > 256:
        raise ApiError(400, "chat_id: must be text of 1 to 256 characters")
    sockets, waiting = request.app[SOCKETS], request.app[WAITING]
    full = f"too many event listeners (at most {c.config.ws_max_clients})"
    if len(sockets) - len(waiting) >= c.config.ws_max_clients:
        raise ApiError(503, full)
    if not header_auth and len(waiting) >= c.config.ws_max_waiting:
        raise ApiError(
            503, f"too many event sockets waiting for their token (at most {c.config.ws_max_waiting})"
        )
    ws = web.WebSocketResponse(heartbeat=30.0, max_msg_size=64 * 1024)
    if not ws.can_prepare(request).ok:
        raise ApiError(400, "Upgrade: /v1/events is a WebSocket endpoint; connect with ws://")
    sockets.add(ws)  # the place is taken before the first await
    if not header_auth:
        waiting.add(ws)
    try:
        await ws.prepare(request)
        if not header_auth:
            token = await _first_message_token(ws, c.config.ws_auth_timeout_s)
            waiting.discard(ws)
            if token is None or not token_matches(token, c.tokens.current()):
                c.clients.refused(who, "events")
                if token is None:
                    return await _refuse(
                        ws,
                        CLOSE_AUTH_TIMEOUT,
                        f'no token: send {{"token": "..."}} first, within {c.config.ws_auth_timeout_s:g} s',
                    )
                return await _refuse(ws, CLOSE_UNAUTHORIZED, "the token is missing or wrong")
            if len(sockets) - len(waiting) > c.config.ws_max_clients:  # this one counts now
                return await _refuse(ws, CLOSE_TRY_AGAIN, full, "unavailable")
        sub = c.hub.subscribe(chat_filter)
        c.clients.socket_opened(who)
        try:
            await ws.send_json({"type": "hello", "protocol": 1, "chat_id": None, "filter": chat_filter})
            sender = asyncio.create_task(_send_events(ws, sub))
            lender = request.app.get(LENDER)
            try:
                await _read_client(ws, sub, lender)
            finally:
                if lender is not None:
                    lender.withdraw(sub)
                sender.cancel()
                with contextlib.suppress(asyncio.CancelledError, ConnectionError):
                    await sender
        finally:
            c.hub.unsubscribe(sub)
            c.clients.socket_closed(who)
        return ws
    finally:
        sockets.discard(ws)
        waiting.discard(ws)


async def lend_model(app: web.Application) -> None:
    """On startup: SillyTavern's connection can be lent through these sockets."""
    service = app[CONTEXT].service
    app[LENDER] = SocketLender(service, asyncio.get_running_loop())
    app[UNLEND] = service.lenders.add(app[LENDER])


async def unlend_model(app: web.Application) -> None:
    unlend = app.get(UNLEND)
    if unlend is not None:
        unlend()


async def close_all(app: web.Application) -> None:
    sockets: set[web.WebSocketResponse] = app[SOCKETS]
    for ws in tuple(sockets):
        with contextlib.suppress(Exception):
            await ws.close(code=CLOSE_GOING_AWAY, message=b"the bridge is shutting down")


def register(router: web.UrlDispatcher) -> None:
    router.add_get(PATH, events)
