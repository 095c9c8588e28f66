"""Recall, and the recall kept for each user message."""

from __future__ import annotations

from aiohttp import web

from ..core.model import Node, RecallRecord, RecallRequest
from .context import BridgeContext, ctx
from .errors import ApiError, bad_request
from .path_params import MAX_INDEX, chat_id_of, index_of
from .render import recall_json, record_json
from .validation import Fields, read_json_object

MAX_INPUT = 100_000
MAX_INJECTION = 200_000


def _name(f: Fields, key: str) -> str | None:
    value = f.text(key, max_len=256)
    if value is not None and not value.strip():
        raise bad_request(key, "must name a character (leave it out outside group chats)")
    return value


async def recall(request: web.Request) -> web.Response:
    c = ctx(request)
    chat_id = chat_id_of(request)
    f = Fields(await read_json_object(request, c.config.body_limit))
    f.only("user_input", "index", "top_k", "budget_tokens", "last_reply", "previous_input", "for_character")
    defaults = c.service.settings.recall
    user_input = f.text("user_input", required=True, max_len=MAX_INPUT)
    assert user_input is not None
    index = f.whole("index", low=0, high=MAX_INDEX)
    req = RecallRequest(
        chat_id=chat_id,
        user_input=user_input,
        index=index,
        top_k=f.whole("top_k", low=1, high=100, default=defaults.top_k) or defaults.top_k,
        budget_tokens=f.whole("budget_tokens", low=50, high=32000, default=defaults.budget_tokens)
        or defaults.budget_tokens,
        last_reply=f.text("last_reply", max_len=MAX_INPUT),
        previous_input=f.text("previous_input", max_len=MAX_INPUT),
        for_character=_name(f, "for_character"),
    )
    result = await c.call_recall(c.service.recall, req)
    return web.json_response(recall_json(result, index=index))


async def prepare(request: web.Request) -> web.Response:
    """Warm up for a recall of the text being typed (optional; frontends call it debounced)."""
    c = ctx(request)
    chat_id = chat_id_of(request)
    f = Fields(await read_json_object(request, c.config.body_limit))
    f.only("user_input", "index", "last_reply", "previous_input")
    user_input = f.text("user_input", required=True, max_len=MAX_INPUT)
    assert user_input is not None
    index = f.whole("index", low=0, high=MAX_INDEX)
    queued = await c.call_recall(
        c.service.prepare_recall,
        chat_id,
        user_input,
        index,
        f.text("last_reply", max_len=MAX_INPUT),
        f.text("previous_input", max_len=MAX_INPUT),
    )
    return web.json_response({"chat_id": chat_id, "queued": queued}, status=202)


def _with_current_nodes(c: BridgeContext, record: RecallRecord) -> dict[str, Node]:
    ids = [str(n.get("id")) for n in record.nodes if n.get("id")]
    if not ids:
        return {}
    nodes = c.service.nodes_by_ids(record.chat_id, ids)
    return {n.id: n for n in nodes}


def _kept(c: BridgeContext, chat_id: str, index: int) -> tuple[RecallRecord, dict[str, Node]]:
    record = c.service.recall_record(chat_id, index)
    if record is None:
        raise ApiError(404, f"no kept recall for message {index} in chat {chat_id!r}")
    return record, _with_current_nodes(c, record)


async def get_kept(request: web.Request) -> web.Response:
    c = ctx(request)
    record, nodes = await c.call(_kept, c, chat_id_of(request), index_of(request))
    return web.json_response(record_json(record, nodes))


def _edit(c: BridgeContext, chat_id: str, index: int, injection: str) -> tuple[RecallRecord, dict[str, Node]]:
    record = c.service.edit_recall_record(chat_id, index, injection).value
    return record, _with_current_nodes(c, record)


async def put_kept(request: web.Request) -> web.Response:
    c = ctx(request)
    chat_id, index = chat_id_of(request), index_of(request)
    f = Fields(await read_json_object(request, c.config.body_limit))
    f.only("injection")
    injection = f.text("injection", required=True, max_len=MAX_INJECTION)
    assert injection is not None
    record, nodes = await c.call(_edit, c, chat_id, index, injection)
    return web.json_response(record_json(record, nodes))


async def delete_kept(request: web.Request) -> web.Response:
    c = ctx(request)
    chat_id, index = chat_id_of(request), index_of(request)
    if not (await c.call(c.service.delete_recall_record, chat_id, index)).value:
        raise ApiError(404, f"no kept recall for message {index} in chat {chat_id!r}")
    return web.json_response({"deleted": True, "chat_id": chat_id, "index": index})


def register(router: web.UrlDispatcher) -> None:
    router.add_post("/v1/chats/{chat_id}/recall", recall)
    router.add_post("/v1/chats/{chat_id}/recall/prepare", prepare)
    router.add_get("/v1/chats/{chat_id}/recall/{index}", get_kept)
    router.add_put("/v1/chats/{chat_id}/recall/{index}", put_kept)
    router.add_delete("/v1/chats/{chat_id}/recall/{index}", delete_kept)
