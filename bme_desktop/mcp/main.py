"""``bme-desktop mcp``: the MCP server over stdio (the default) or streamable HTTP on loopback.

When the app (or ``serve``) already holds the data folder, the tools go through its bridge, so the
chat frontend, the agent and the open windows share one memory service; otherwise this process opens
the memory itself. Streamable HTTP sits behind the bridge's rules: loopback only, the bridge token
as a bearer token, foreign Origins and rebinding Host headers refused.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

from ..bridge.auth import token_matches
from ..bridge.config import is_loopback_host
from ..bridge.origin import OriginPolicy
from .backend import BridgeBackend, MemoryBackend, ServiceBackend
from .server import DEFAULT_CHAT, build_server

DEFAULT_PORT = 7318
MCP_PATH = "/mcp"

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
Asgi = Callable[[Scope, Receive, Send], Awaitable[None]]


def _fail(message: str, code: int = 2) -> int:
    print(f"bme-desktop mcp: {message}", file=sys.stderr)
    sys.stderr.flush()
    return code


def open_backend(data_dir: Path, database_url: str | None) -> MemoryBackend:
    """The running app's bridge when there is one for ``data_dir``, else a service of our own."""
    from ..bridge.client import BridgeClient, BridgeError
    from ..bridge.serve import running_bridge
    from ..core.service import MemoryService

    if database_url is None and running_bridge(data_dir) is not None:
        try:
            client = BridgeClient.from_data_dir(data_dir, timeout=60.0)
            client.health()
            print(
                f"bme-desktop mcp: using the memory of {data_dir} through the app's bridge at {client.url}",
                file=sys.stderr,
                flush=True,
            )
            return BridgeBackend(client)
        except BridgeError as exc:
            print(
                f"bme-desktop mcp: the app's bridge did not answer ({exc.message}); opening the memory here",
                file=sys.stderr,
            )
    backend = ServiceBackend(MemoryService.open(data_dir, database_url=database_url))
    print(
        f"bme-desktop mcp: opened the memory of {data_dir} in this process (start the app first to share "
        "its memory service)",
        file=sys.stderr,
        flush=True,
    )
    return backend


class Guard:
    """ASGI middleware in front of the streamable HTTP app: the bridge's Host, Origin and token
    rules. The token is looked up on every request, so a rotation takes effect at once."""

    def __init__(self, app: Asgi, token: Callable[[], str], origins: OriginPolicy) -> None:
        self.app = app
        self.token = token
        self.origins = origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        if not self.origins.host_allowed(headers.get("host")):
            await _refuse(send, 403, "forbidden", "the Host header does not name this machine")
            return
        origin = headers.get("origin")
        if origin is not None and not self.origins.origin_allowed(origin):
            await _refuse(send, 403, "forbidden", f"requests from {origin} are not allowed")
            return
        scheme, _, given = headers.get("authorization", "").strip().partition(" ")
        if scheme.lower() != "bearer" or not token_matches(given.strip(), self.token()):
            await _refuse(
                send,
                401,
                "unauthorized",
                "send the bridge token as 'Authorization: Bearer <token>' (bme-desktop token)",
                extra=[(b"www-authenticate", b'Bearer realm="bme-desktop"')],
            )
            return
        await self.app(scope, receive, send)


async def _refuse(
    send: Send, status: int, code: str, message: str, extra: list[tuple[bytes, bytes]] | None = None
) -> None:
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *(extra or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def serve_http(backend: MemoryBackend, data_dir: Path, *, host: str, port: int, chat: str) -> int:
    import anyio
    import uvicorn

    from ..bridge.tokens import TokenError, TokenSource, TokenStore
    from ..core.settings import load_settings

    if not is_loopback_host(host):
        return _fail(f"{host} is not a loopback address; the MCP server only listens on this machine")
    try:
        tokens = TokenSource(TokenStore(data_dir))
    except TokenError as exc:
        return _fail(str(exc))
    origins = OriginPolicy(load_settings(data_dir).bridge.allowed_origins)
    server = build_server(backend, default_chat=chat)
    app = Guard(server.streamable_http_app(streamable_http_path=MCP_PATH, host=host), tokens.current, origins)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")
    web = uvicorn.Server(config)

    async def run() -> None:
        async with anyio.create_task_group() as group:
            group.start_soon(web.serve)
            while not web.started:
                if web.should_exit:
                    return
                await anyio.sleep(0.05)
            bound = web.servers[0].sockets[0].getsockname()[1] if web.servers else port
            print(
                json.dumps(
                    {
                        "event": "ready",
                        "url": f"http://{host}:{bound}{MCP_PATH}",
                        "data_dir": str(data_dir),
                        "backend": backend.where,
                    }
                ),
                flush=True,
            )

    anyio.run(run)
    return 0 if web.started else _fail(f"could not listen on {host}:{port}", 3)


def mcp_main(
    data_dir: Path,
    *,
    database_url: str | None,
    http: bool,
    host: str | None,
    port: int | None,
    chat: str | None,
) -> int:
    from ..core.errors import StoreError
    from ..core.paths import data_dir_problem
    from ..core.settings import SettingsError

    problem = data_dir_problem(data_dir)
    if problem is not None:
        return _fail(problem)
    if port is not None and not 0 <= port <= 65535:
        return _fail(f"--port must be from 0 to 65535 (got {port})")
    default_chat = (chat or DEFAULT_CHAT).strip()
    if not default_chat:
        return _fail("--chat must name a chat")
    try:
        backend = open_backend(data_dir, database_url)
    except (StoreError, SettingsError) as exc:
        return _fail(str(exc))
    try:
        if http:
            return serve_http(
                backend,
                data_dir,
                host=host or "127.0.0.1",
                port=DEFAULT_PORT if port is None else port,
                chat=default_chat,
            )
        build_server(backend, default_chat=default_chat).run("stdio")
        return 0
    finally:
        backend.close()
