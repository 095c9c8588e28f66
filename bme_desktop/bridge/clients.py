"""Who talks to the bridge: a thread-safe registry of the clients that sent an authenticated
request (or hold an events WebSocket), and of recent attempts refused for a bad token.

A client is its remote address, its ``Origin`` and the first product of its ``User-Agent``.
The bridge loop writes; anyone (the GUI) reads a snapshot. Plain strings in, no aiohttp.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

IDLE_FORGET_S = 600.0  # a client silent this long (with no events socket) is forgotten
MAX_CLIENTS = 256
MAX_REFUSED = 32
SILLYTAVERN = "SillyTavern extension"
_PRODUCT = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")

# the second path segment after /v1/chats/{chat_id}/ names what a request does
_CHAT_KINDS = {
    "sync": "sync",
    "recall": "recall",
    "nodes": "memories",
    "edges": "edges",
    "maintenance": "maintenance",
    "patrol": "patrol",
    "about": "about",
}
_TOP_KINDS = {
    "/v1/events": "events",
    "/v1/chat/completions": "proxy",
    "/v1/models": "proxy",
    "/v1/clients": "clients",
}


@dataclass(frozen=True)
class ClientIdentity:
    address: str
    origin: str  # "" when the request had no Origin
    agent: str  # the User-Agent's first product name ("python-httpx", "Mozilla"), "" when none

    @property
    def label(self) -> str:
        """What a person would call it: the SillyTavern extension when its User-Agent says so,
        else the page's origin or the address, with the agent."""
        if "sillytavern" in self.agent.lower():
            return SILLYTAVERN
        where = self.origin or self.address
        return f"{where} · {self.agent}" if self.agent else where


@dataclass(frozen=True)
class ClientInfo:
    """One client as of a snapshot. Times are the registry clock's seconds (epoch by default);
    ``idle_s`` is how long ago it was last seen when the snapshot was taken."""

    identity: ClientIdentity
    first_seen: float
    last_seen: float
    idle_s: float
    requests: int
    last_kind: str  # "sync", "recall", "prepare", "memories", "events", ...
    open_sockets: int

    @property
    def label(self) -> str:
        return self.identity.label

    @property
    def events_open(self) -> bool:
        return self.open_sockets > 0


class ClientSource(Protocol):
    """What a view of the clients reads (``BridgeServer`` is one)."""

    def clients(self) -> list[ClientInfo]: ...

    def refused_clients(self) -> list[ClientInfo]: ...


def identify(
    address: str | None, origin: str | None, user_agent: str | None, client: str | None = None
) -> ClientIdentity:
    """``client`` is the ``X-BME-Client`` header a frontend may send to name itself (browsers
    do not let a page set its User-Agent); it wins over the User-Agent."""
    return ClientIdentity(
        address=(address or "?")[:64],
        origin=(origin or "")[:200],
        agent=first_product(client) or first_product(user_agent),
    )


def first_product(user_agent: str | None) -> str:
    """``"Mozilla/5.0 (X11) Chrome/126"`` → ``"Mozilla"``; ``"SillyTavern/1.12"`` → ``"SillyTavern"``."""
    match = _PRODUCT.match((user_agent or "").strip())
    return match.group(0)[:64] if match else ""


def path_kind(path: str) -> str:
    """What a request was for, from its path alone: ``/v1/chats/c/recall/prepare`` → ``"prepare"``."""
    if path in _TOP_KINDS:
        return _TOP_KINDS[path]
    parts = path.strip("/").split("/")
    if parts[:2] != ["v1", "chats"]:
        return "other"
    if len(parts) <= 3:
        return "chats"
    kind = _CHAT_KINDS.get(parts[3], "other")
    if kind == "recall" and len(parts) > 4:
        return "prepare" if parts[4] == "prepare" else "kept recall"
    return kind


@dataclass
class _Entry:
    first_seen: float
    last_seen: float
    requests: int = 0
    last_kind: str = ""
    open_sockets: int = 0


class ClientRegistry:
    """Thread-safe; every call is O(clients) at most and does no I/O."""

    def __init__(
        self, *, clock: Callable[[], float] = time.time, forget_after_s: float = IDLE_FORGET_S
    ) -> None:
        self._clock = clock
        self._forget_after_s = forget_after_s
        self._lock = threading.Lock()
        self._clients: dict[ClientIdentity, _Entry] = {}
        self._refused: dict[ClientIdentity, _Entry] = {}

    def seen(self, who: ClientIdentity, kind: str) -> None:
        """An authenticated request of ``kind``."""
        with self._lock:
            entry = self._touch(self._clients, who, MAX_CLIENTS)
            entry.requests += 1
            entry.last_kind = kind

    def refused(self, who: ClientIdentity, kind: str) -> None:
        """A request or socket refused for a missing or wrong token."""
        with self._lock:
            entry = self._touch(self._refused, who, MAX_REFUSED)
            entry.requests += 1
            entry.last_kind = kind

    def socket_opened(self, who: ClientIdentity) -> None:
        """An events WebSocket authenticated (counts as a request)."""
        with self._lock:
            entry = self._touch(self._clients, who, MAX_CLIENTS)
            entry.requests += 1
            entry.last_kind = "events"
            entry.open_sockets += 1

    def socket_closed(self, who: ClientIdentity) -> None:
        with self._lock:
            entry = self._clients.get(who)
            if entry is not None:
                entry.open_sockets = max(0, entry.open_sockets - 1)
                entry.last_seen = self._clock()

    def snapshot(self) -> list[ClientInfo]:
        """The connected clients, most recently seen first."""
        with self._lock:
            return self._snapshot(self._clients)

    def refused_snapshot(self) -> list[ClientInfo]:
        """Recent refused attempts (same shape; ``requests`` counts the refusals), without
        those of a client that has since got in."""
        with self._lock:
            return [
                info
                for info in self._snapshot(self._refused)
                if info.identity not in self._clients
                or self._clients[info.identity].last_seen < info.last_seen
            ]

    def _touch(self, table: dict[ClientIdentity, _Entry], who: ClientIdentity, limit: int) -> _Entry:
        now = self._clock()
        entry = table.get(who)
        if entry is None:
            self._forget_idle(table, now)
            if len(table) >= limit:
                oldest = min(
                    (k for k, e in table.items() if not e.open_sockets),
                    key=lambda k: table[k].last_seen,
                    default=None,
                )
                if oldest is not None:
                    del table[oldest]
            entry = table[who] = _Entry(first_seen=now, last_seen=now)
        entry.last_seen = now
        return entry

    def _forget_idle(self, table: dict[ClientIdentity, _Entry], now: float) -> None:
        stale = [
            k for k, e in table.items() if not e.open_sockets and now - e.last_seen > self._forget_after_s
        ]
        for key in stale:
            del table[key]

    def _snapshot(self, table: dict[ClientIdentity, _Entry]) -> list[ClientInfo]:
        now = self._clock()
        self._forget_idle(table, now)
        infos = [
            ClientInfo(
                identity=who,
                first_seen=e.first_seen,
                last_seen=e.last_seen,
                idle_s=max(0.0, now - e.last_seen),
                requests=e.requests,
                last_kind=e.last_kind,
                open_sockets=e.open_sockets,
            )
            for who, e in table.items()
        ]
        return sorted(infos, key=lambda info: info.last_seen, reverse=True)
