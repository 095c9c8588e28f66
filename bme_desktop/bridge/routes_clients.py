"""``GET /v1/clients`` (extra): the clients the bridge has seen lately, and refused attempts."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from ..core.clock import iso
from .clients import ClientInfo
from .context import ctx

PATH = "/v1/clients"


def client_json(info: ClientInfo) -> dict[str, Any]:
    return {
        "who": info.label,
        "address": info.identity.address,
        "origin": info.identity.origin or None,
        "agent": info.identity.agent or None,
        "first_seen": iso(info.first_seen),
        "last_seen": iso(info.last_seen),
        "requests": info.requests,
        "last_kind": info.last_kind,
        "events": info.events_open,
    }


async def list_clients(request: web.Request) -> web.Response:
    registry = ctx(request).clients
    return web.json_response(
        {
            "clients": [client_json(i) for i in registry.snapshot()],
            "refused": [client_json(i) for i in registry.refused_snapshot()],
        }
    )


def register(router: web.UrlDispatcher) -> None:
    router.add_get(PATH, list_clients)
