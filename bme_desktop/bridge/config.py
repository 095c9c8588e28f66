"""The bridge's settings as one record: where it listens and how strict it is."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field

from ..core.settings import BridgeSettings

MIB = 1024 * 1024
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})


def is_loopback_host(host: str) -> bool:
    name = host.strip().lower()
    if name in LOOPBACK_NAMES or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class BridgeConfig:
    host: str = "127.0.0.1"
    port: int = 7317
    allowed_origins: tuple[str, ...] = ()
    body_limit: int = 4 * MIB
    # A sync carries a whole chat: 2,000 long messages, JSON-escaped, must fit.
    sync_body_limit: int = 64 * MIB
    rate_per_s: float = 200.0
    rate_burst: int = 400
    allow_remote: bool = False
    workers: int = 4
    wait_workers: int = 64  # threads that only wait (a sync's extraction, ``wait: true``)
    ws_auth_timeout_s: float = 1.0  # for the first-message token
    ws_max_clients: int = 64  # authenticated event sockets
    ws_max_waiting: int = 16  # upgraded sockets still waiting for their first-message token
    ws_queue_size: int = 1000
    sync_wait_timeout_s: float = 600.0
    # slow or stalled clients: the request line and headers must arrive within header_timeout_s of
    # connecting (or of the previous answer on a kept-alive connection); a body that sends nothing
    # for body_idle_timeout_s, or is not complete after body_timeout_s, is a 408
    header_timeout_s: float = 10.0
    body_idle_timeout_s: float = 15.0
    body_timeout_s: float = 120.0
    shutdown_timeout_s: float = 30.0
    extra_hosts: tuple[str, ...] = field(default=())

    @classmethod
    def from_settings(
        cls,
        settings: BridgeSettings,
        *,
        host: str | None = None,
        port: int | None = None,
        allow_remote: bool = False,
    ) -> BridgeConfig:
        body_limit = int(settings.body_limit_mb * MIB)
        return cls(
            host=host or settings.host,
            port=settings.port if port is None else port,
            allowed_origins=tuple(settings.allowed_origins),
            body_limit=body_limit,
            sync_body_limit=max(64 * MIB, 16 * body_limit),
            rate_per_s=settings.rate_limit_per_s,
            rate_burst=settings.rate_burst,
            allow_remote=allow_remote,
        )

    @property
    def loopback_only(self) -> bool:
        return is_loopback_host(self.host)

    def url_host(self) -> str:
        host = self.host
        if ":" in host and not host.startswith("["):
            return f"[{host}]"
        if host in ("0.0.0.0", ""):
            return "127.0.0.1"
        if host == "::":
            return "[::1]"
        return host
