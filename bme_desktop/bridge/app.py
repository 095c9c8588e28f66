"""The aiohttp application: middlewares (errors, origin/host gate, rate limit, auth) and routes."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from aiohttp import web
from sqlalchemy.exc import OperationalError

from ..core.errors import ServiceError
from . import (
    proxy,
    routes_chats,
    routes_clients,
    routes_events,
    routes_lifecycle,
    routes_lorebook,
    routes_nodes,
    routes_recall,
)
from .auth import require_token
from .clients import identify, path_kind
from .context import CONTEXT, BridgeContext, ctx
from .errors import ApiError, code_for_status, error_response, from_service_error
from .limits import RateLimiter
from .origin import cors_headers, is_preflight, preflight_response

log = logging.getLogger(__name__)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
CORS_ORIGIN: web.RequestKey[str] = web.RequestKey("bme_cors_origin", str)
PUBLIC = {("GET", "/v1/health"), ("HEAD", "/v1/health")}


def _http_error(request: web.Request, exc: web.HTTPException) -> web.Response:
    status = exc.status
    headers: dict[str, str] = {}
    if status == 404:
        message = f"no endpoint {request.method} {request.path}; see docs/bridge.md"
    elif status == 405 and isinstance(exc, web.HTTPMethodNotAllowed):
        allowed = sorted(m for m in exc.allowed_methods if m != "HEAD")
        headers["Allow"] = ", ".join(allowed)
        message = f"method {request.method} is not allowed on {request.path}; allowed: {', '.join(allowed)}"
    elif status == 413:
        message = "body: larger than the limit"
    else:
        message = exc.reason or "request refused"
    return error_response(status, code_for_status(status), message, headers)


@web.middleware
async def error_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every failure becomes ``{"error": {...}}``; CORS headers go on every answer."""
    try:
        response = await handler(request)
    except ApiError as exc:
        response = error_response(exc.status, exc.code, exc.message, exc.headers)
    except ServiceError as exc:
        api = from_service_error(exc)
        response = error_response(api.status, api.code, api.message)
    except web.HTTPException as exc:
        if exc.status < 400:
            raise
        response = _http_error(request, exc)
    except (asyncio.CancelledError, ConnectionError):
        raise
    except OperationalError:
        log.warning("database unavailable on %s %s", request.method, request.path, exc_info=True)
        response = error_response(
            503, "unavailable", "the database is busy or unavailable; retry shortly", {"Retry-After": "1"}
        )
    except Exception:
        log.exception("bridge handler failed on %s %s", request.method, request.path)
        response = error_response(500, "internal", "the bridge failed on this request; see its log")
    if not response.prepared:
        origin = request.get(CORS_ORIGIN)
        if origin:
            for name, value in cors_headers(origin).items():
                response.headers.setdefault(name, value)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Cache-Control", "no-store")
    return response


def client_key(request: web.Request) -> str:
    return f"{request.remote or '?'}|{request.headers.get('Origin', '')}"


@web.middleware
async def guard_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Host and Origin gates, CORS preflights, the rate limit and the token, in that order."""
    c = ctx(request)
    if c.config.loopback_only and not c.origins.host_allowed(request.headers.get("Host")):
        raise ApiError(403, f"Host: {request.headers.get('Host')!r} is not this machine; use 127.0.0.1")
    origin = request.headers.get("Origin")
    if origin is not None:
        if not c.origins.origin_allowed(origin):
            raise ApiError(
                403,
                f"Origin: {origin[:200]!r} is not allowed; loopback pages are, and others "
                "once added to bridge.allowed_origins in the settings",
            )
        request[CORS_ORIGIN] = origin
        if is_preflight(request):
            return preflight_response(request)
    wait = c.limiter.take(client_key(request))
    if wait > 0:
        raise ApiError(
            429,
            f"too many requests from this client; retry in {wait:.2f} s",
            headers={"Retry-After": RateLimiter.retry_after(wait)},
        )
    if (request.method, request.path) not in PUBLIC and request.path != routes_events.PATH:
        who = identify(
            request.remote, origin, request.headers.get("User-Agent"), request.headers.get("X-BME-Client")
        )
        try:
            require_token(request, c.tokens.current())
        except ApiError:
            c.clients.refused(who, path_kind(request.path))
            raise
        c.clients.seen(who, path_kind(request.path))
    return await handler(request)


async def health(request: web.Request) -> web.Response:
    from .. import __version__
    from . import PROTOCOL

    return web.json_response({"status": "ok", "protocol": PROTOCOL, "version": __version__})


def build_app(context: BridgeContext) -> web.Application:
    # The body limit is enforced per route by validation.read_body; aiohttp's own is a backstop.
    app = web.Application(
        middlewares=[error_middleware, guard_middleware], client_max_size=context.config.sync_body_limit + 1
    )
    app[CONTEXT] = context
    app.router.add_get("/v1/health", health)
    routes_chats.register(app.router)
    routes_nodes.register(app.router)
    routes_recall.register(app.router)
    routes_lifecycle.register(app.router)
    routes_events.register(app.router)
    routes_clients.register(app.router)
    routes_lorebook.register(app.router)
    proxy.register(app)
    app[routes_events.SOCKETS] = set()
    app[routes_events.WAITING] = set()
    app.on_startup.append(routes_events.lend_model)
    app.on_shutdown.append(routes_events.unlend_model)
    app.on_shutdown.append(routes_events.close_all)
    return app
