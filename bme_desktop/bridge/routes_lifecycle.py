"""The life cycle's read-only views: the patrol report and meta-memory ("what do I know about X")."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from ..core.errors import NotFound
from ..core.service import MemoryService
from .context import ctx
from .errors import bad_request
from .path_params import chat_id_of

MAX_ABOUT = 200


def _require_chat(service: MemoryService, chat_id: str) -> None:
    if not service.has_chat(chat_id):
        raise NotFound(f"no chat named {chat_id!r}")


def _patrol(service: MemoryService, chat_id: str) -> dict[str, Any]:
    _require_chat(service, chat_id)
    return service.patrol_report(chat_id).to_json()


def _about(service: MemoryService, chat_id: str, about: str) -> dict[str, Any]:
    _require_chat(service, chat_id)
    return service.what_do_i_know(chat_id, about).to_json()


def about_param(request: web.Request) -> str:
    raw = request.query.get("q")
    if raw is None or not raw.strip():
        raise bad_request("q", "is required: the text to ask about (1 to 200 characters)")
    if len(raw) > MAX_ABOUT or "\x00" in raw:
        raise bad_request("q", f"must be text of 1 to {MAX_ABOUT} characters")
    return raw


async def patrol(request: web.Request) -> web.Response:
    c = ctx(request)
    return web.json_response(await c.call(_patrol, c.service, chat_id_of(request)))


async def about(request: web.Request) -> web.Response:
    c = ctx(request)
    chat_id = chat_id_of(request)
    q = about_param(request)
    return web.json_response(await c.call(_about, c.service, chat_id, q))


def register(router: web.UrlDispatcher) -> None:
    router.add_get("/v1/chats/{chat_id}/patrol", patrol)
    router.add_get("/v1/chats/{chat_id}/about", about)
