"""Who may call: the Origin gate, CORS preflights (with Private Network Access), and a
Host check against DNS rebinding."""

from __future__ import annotations

from urllib.parse import urlsplit

from aiohttp import web

from .config import is_loopback_host

ALLOWED_METHODS = "GET, POST, PUT, PATCH, DELETE, OPTIONS"
ALLOWED_HEADERS = (
    "authorization",
    "content-type",
    "accept",
    "x-requested-with",
    "x-bme-chat",
    "x-bme-memory",
    "x-bme-client",
)
ALLOWED_HEADER_PREFIXES = ("x-stainless-",)  # sent by the OpenAI JavaScript SDK (proxy clients)
PREFLIGHT_MAX_AGE = "600"


def normalize_origin(origin: str) -> str | None:
    """``scheme://host[:port]`` in lower case, or None when it is not an http(s) origin."""
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username or parts.password:
        return None
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    return f"{parts.scheme}://{host}" + (f":{port}" if port is not None else "")


class OriginPolicy:
    """Loopback origins (any port) are always allowed; others only when listed."""

    def __init__(self, allowed: tuple[str, ...] | list[str] = ()) -> None:
        self.allowed = frozenset(n for n in (normalize_origin(o) for o in allowed) if n)
        self.allowed_hosts = frozenset(urlsplit(o).hostname or "" for o in self.allowed)

    def origin_allowed(self, origin: str) -> bool:
        normal = normalize_origin(origin)
        if normal is None:
            return False
        host = urlsplit(normal).hostname or ""
        return host in ("127.0.0.1", "localhost", "::1") or normal in self.allowed

    def host_allowed(self, host_header: str | None) -> bool:
        """The Host a request was sent to must name this machine (or a listed origin's host):
        a page that rebinds its own name to 127.0.0.1 cannot reach the bridge."""
        if not host_header or "@" in host_header:  # userinfo: 'evil.example@127.0.0.1' is no Host
            return False
        try:
            parts = urlsplit(f"http://{host_header}")
            _ = parts.port  # a port that is not a number raises
        except ValueError:
            return False
        if parts.netloc != host_header:  # a path, query or fragment: not host[:port] alone
            return False
        host = parts.hostname or ""
        return is_loopback_host(host) or host in self.allowed_hosts


def cors_headers(origin: str) -> dict[str, str]:
    return {
        "Access-Control-Allow-Origin": origin,
        "Vary": "Origin",
        "Access-Control-Expose-Headers": "Retry-After",
    }


def is_preflight(request: web.Request) -> bool:
    return (
        request.method == "OPTIONS"
        and "Origin" in request.headers
        and "Access-Control-Request-Method" in request.headers
    )


def preflight_response(request: web.Request) -> web.Response:
    origin = request.headers["Origin"]
    headers = cors_headers(origin)
    wanted = request.headers.get("Access-Control-Request-Headers", "")
    asked = [h.strip().lower() for h in wanted.split(",") if h.strip()]
    headers["Access-Control-Allow-Methods"] = ALLOWED_METHODS
    headers["Access-Control-Allow-Headers"] = (
        ", ".join(h for h in asked if h in ALLOWED_HEADERS or h.startswith(ALLOWED_HEADER_PREFIXES))
        or "Authorization, Content-Type"
    )
    headers["Access-Control-Max-Age"] = PREFLIGHT_MAX_AGE
    if request.headers.get("Access-Control-Request-Private-Network", "").lower() == "true":
        headers["Access-Control-Allow-Private-Network"] = "true"
    headers["Vary"] = (
        "Origin, Access-Control-Request-Method, Access-Control-Request-Headers, "
        "Access-Control-Request-Private-Network"
    )
    return web.Response(status=204, headers=headers)
