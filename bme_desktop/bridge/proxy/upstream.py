"""The real OpenAI-compatible server behind the proxy: its API key, one pooled HTTP session,
which headers cross in each direction, and OpenAI-shaped errors for what the proxy itself
refuses."""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp
from aiohttp import web
from multidict import CIMultiDict

from ...core.secrets import KEYRING_SERVICE, ApiKeyError, ApiKeyStore, usable_keyring
from ...core.settings import PROXY_KEY_ENV, PROXY_KEYRING_KEY, ProxySettings
from ..config import is_loopback_host

KEY_REFRESH_S = 5.0
HOP = "X-BME-Proxy-Hop"  # set on requests the proxy sends: a request that carries it looped back
HOP_BY_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "te",
        "trailer",
        "trailers",
        "transfer-encoding",
        "upgrade",
    }
)
# Client headers never sent upstream: the bridge token, connection framing, browser and BME ones.
NOT_FORWARDED = HOP_BY_HOP | {
    "host",
    "content-length",
    "authorization",
    "cookie",
    "origin",
    "referer",
    "accept-encoding",
    "content-type",
    "api-key",
    "x-api-key",
}
# Upstream headers never relayed back (the body is relayed as it arrives, decompressed).
NOT_RELAYED = HOP_BY_HOP | {
    "content-length",
    "content-encoding",
    "set-cookie",
    "server",
    "date",
    "access-control-allow-origin",
    "access-control-allow-credentials",
    "access-control-allow-headers",
    "access-control-allow-methods",
    "access-control-expose-headers",
    "access-control-max-age",
    "vary",
}


def read_upstream_key(
    data_dir: Path | None, environ: Mapping[str, str] | None = None, backend: Any | None = None
) -> str | None:
    """The upstream API key: ``$BME_PROXY_UPSTREAM_KEY`` when set (environment variables win,
    as for every key of the app), else the one stored as ``proxy-upstream-key``: the OS
    keyring (service ``bme-desktop``), or where no keyring works the user-only file of that
    name in the data folder. None when there is none (local servers need none). Blocking."""
    env = (os.environ if environ is None else environ).get(PROXY_KEY_ENV, "").strip()
    if env:
        return env
    if data_dir is not None:
        try:
            value = ApiKeyStore(data_dir, keyring_backend=backend).load(PROXY_KEYRING_KEY).value
        except ApiKeyError:
            value = None
        return value.strip() if value and value.strip() else None
    keyring_backend = usable_keyring(backend)
    if keyring_backend is None:
        return None
    try:
        value = keyring_backend.get_password(KEYRING_SERVICE, PROXY_KEYRING_KEY)
    except Exception:  # a locked or broken keyring
        return None
    return str(value).strip() if value and str(value).strip() else None


class UpstreamKey:
    """The key, re-read at most every few seconds (a changed key takes effect without a
    restart; the keyring is not touched on every request)."""

    def __init__(self, refresh_s: float = KEY_REFRESH_S) -> None:
        self.refresh_s = refresh_s
        self._lock = threading.Lock()
        self._value: str | None = None
        self._read_at = float("-inf")

    def get(self, data_dir: Path | None) -> str | None:
        """Blocking: call from a worker thread."""
        now = time.monotonic()
        with self._lock:
            if now - self._read_at < self.refresh_s:
                return self._value
        value = read_upstream_key(data_dir)
        with self._lock:
            self._value, self._read_at = value, time.monotonic()
        return value

    def fresh(self) -> bool:
        with self._lock:
            return time.monotonic() - self._read_at < self.refresh_s

    def cached(self) -> str | None:
        with self._lock:
            return self._value

    def invalidate(self) -> None:
        """Read the key again on the next request (after it was changed here)."""
        with self._lock:
            self._read_at = float("-inf")


def endpoint(settings: ProxySettings, path: str) -> str:
    return settings.upstream_base_url.strip().rstrip("/") + path


def timeout(settings: ProxySettings) -> aiohttp.ClientTimeout:
    """No total limit (an answer may stream for minutes); ``timeout_s`` bounds connecting,
    the wait for the first byte and every gap between chunks."""
    return aiohttp.ClientTimeout(total=None, sock_connect=settings.timeout_s, sock_read=settings.timeout_s)


def request_headers(incoming: Mapping[str, str], key: str | None, *, json_body: bool) -> CIMultiDict[str]:
    out: CIMultiDict[str] = CIMultiDict()
    for name, value in incoming.items():
        lower = name.lower()
        if lower in NOT_FORWARDED or lower.startswith(("x-bme-", "sec-", "proxy-")):
            continue
        out.add(name, value)
    if json_body:
        out["Content-Type"] = "application/json"
    out["Accept-Encoding"] = "identity"  # streamed bytes go out as they arrive, never re-encoded
    out[HOP] = "1"
    if key:
        out["Authorization"] = f"Bearer {key}"
    return out


def relayed_headers(upstream: Mapping[str, str]) -> CIMultiDict[str]:
    out: CIMultiDict[str] = CIMultiDict()
    for name, value in upstream.items():
        if name.lower() not in NOT_RELAYED:
            out.add(name, value)
    return out


def openai_error(
    status: int,
    code: str,
    message: str,
    *,
    retry: bool | None = None,
    headers: Mapping[str, str] | None = None,
) -> web.Response:
    """An error the proxy makes itself, shaped like OpenAI's (``error.message``, ``type``,
    ``code``). ``x-should-retry`` tells OpenAI's SDKs whether retrying can help."""
    body = {"error": {"message": message, "type": "bme_proxy_error", "code": code}}
    response = web.Response(text=json.dumps(body), status=status, content_type="application/json")
    response.headers["Cache-Control"] = "no-store"
    if retry is not None:
        response.headers["x-should-retry"] = "true" if retry else "false"
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def is_loopback_url(url: str) -> bool:
    try:
        host = urlsplit(url).hostname or ""
    except ValueError:
        return False
    return is_loopback_host(host)


class Upstream:
    """Pooled ``aiohttp.ClientSession``s on the bridge's loop, made on first use: one that
    honours HTTPS_PROXY / NO_PROXY from the environment (as any HTTP client does) and one for
    loopback upstreams (Ollama, LM Studio), which never go through a proxy."""

    def __init__(self) -> None:
        self._sessions: dict[bool, aiohttp.ClientSession] = {}
        self.key = UpstreamKey()

    def session(self, url: str) -> aiohttp.ClientSession:
        direct = is_loopback_url(url)
        session = self._sessions.get(direct)
        if session is None or session.closed:
            connector = aiohttp.TCPConnector(limit=100, limit_per_host=32, keepalive_timeout=60)
            session = aiohttp.ClientSession(
                connector=connector, trust_env=not direct, skip_auto_headers=("User-Agent",)
            )
            self._sessions[direct] = session
        return session

    async def close(self) -> None:
        sessions = list(self._sessions.values())
        self._sessions.clear()
        for session in sessions:
            if not session.closed:
                await session.close()
        await asyncio.sleep(0)  # let the connectors close their transports
