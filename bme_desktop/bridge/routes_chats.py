"""Chats: sync, list, stats, delete, and hand-run maintenance."""

from __future__ import annotations

import logging
import time
from typing import Any

from aiohttp import web

from ..core.chat_ops import OPERATIONS, RANGED, check_range
from ..core.errors import ServiceError
from ..core.model import MessageIn
from ..core.schema import ROLES
from ..core.scopes import MAX_ID, MAX_MEMBERS, ChatIdentity, fold
from ..core.service import MAINTENANCE_TASKS
from .context import BridgeContext, ctx
from .errors import ApiError, bad_request
from .path_params import MAX_INDEX, chat_id_of
from .render import changes_json, stats_json
from .validation import Fields, each, read_json_object

log = logging.getLogger(__name__)
MAX_MESSAGES = 500_000
MAX_TEXT = 1_000_000


def parse_message(f: Fields) -> MessageIn:
    f.only("index", "role", "name", "text", "swipe_id", "time")
    index = f.whole("index", required=True, low=0, high=MAX_INDEX)
    role = f.text("role", required=True, max_len=16)
    if role not in ROLES:
        raise bad_request(f.name("role"), f"must be one of {', '.join(ROLES)}, not {role!r}")
    text = f.text("text", required=True, max_len=MAX_TEXT)
    assert index is not None and role is not None and text is not None
    return MessageIn(
        index=index,
        role=role,
        text=text,
        name=f.text("name", max_len=256),
        swipe_id=f.whole("swipe_id", low=0, high=2**31 - 1),
        time=f.iso_time("time"),
    )


def _stable_id(f: Fields, key: str) -> str | None:
    value = f.text(key, max_len=MAX_ID)
    if value is not None and not value.strip():
        raise bad_request(key, "must not be blank (leave it out when the frontend has no id)")
    return value


def _members(f: Fields) -> tuple[str, ...] | None:
    """A group chat's members: names only (the character about to speak is ``for_character``
    in a recall), at most ``MAX_MEMBERS``; the same name twice counts once."""
    raw = f.array("members", max_len=MAX_MEMBERS)
    if raw is None:
        return None
    names: dict[str, str] = {}
    for pos, value in enumerate(raw):
        if not isinstance(value, str) or not value.strip() or len(value) > 256:
            raise bad_request(
                f"members[{pos}]", "must be a character's name: a non-blank string of at most 256 characters"
            )
        names.setdefault(fold(value), value.strip())
    return tuple(names.values())


async def sync(request: web.Request) -> web.Response:
    c = ctx(request)
    chat_id = chat_id_of(request)
    body = await read_json_object(request, c.config.sync_body_limit)
    f = Fields(body)
    f.only(
        "character",
        "user",
        "character_id",
        "persona_id",
        "world",
        "isolated",
        "members",
        "messages",
        "complete",
        "wait",
    )
    raw = f.array("messages", required=True, max_len=MAX_MESSAGES) or []
    messages = each(raw, "messages", parse_message)
    seen: dict[int, int] = {}
    for pos, m in enumerate(messages):
        if m.index in seen:
            raise bad_request(
                f"messages[{pos}].index", f"index {m.index} appears twice (also at messages[{seen[m.index]}])"
            )
        seen[m.index] = pos
    complete = f.flag("complete", default=False)
    wait = f.flag("wait", default=False)
    identity = ChatIdentity(
        character=f.text("character", max_len=256),
        user=f.text("user", max_len=256),
        character_id=_stable_id(f, "character_id"),
        persona_id=_stable_id(f, "persona_id"),
        world=f.text("world", max_len=256),
        isolated=f.flag("isolated", default=False) if body.get("isolated") is not None else None,
        members=_members(f),
    )
    result = (await c.call(c.service.sync, chat_id, messages, complete=complete, identity=identity)).value
    done = result.done
    if wait and result.ticket is not None:  # the write is done: wait without holding a worker
        deadline = time.monotonic() + c.config.sync_wait_timeout_s
        done = await c.wait(result.ticket.wait, c.config.sync_wait_timeout_s)
        if c.service.vector_index() is not None:  # ... and until its memories can be found by meaning too
            await c.wait(c.service.wait_for_vectors, chat_id, max(0.0, deadline - time.monotonic()))
    return web.json_response(
        {
            "chat_id": result.chat_id,
            "stored": result.stored,
            "changed_from": result.changed_from,
            "rolled_back": {"batches": result.rolled_back_batches, "nodes": result.rolled_back_nodes},
            "extraction": {"queued": result.queued, "done": done},
            "revision": result.revision,
        }
    )


async def list_chats(request: web.Request) -> web.Response:
    c = ctx(request)
    chats = await c.call(c.service.list_chats)
    return web.json_response({"chats": [stats_json(s) for s in chats]})


async def chat_stats(request: web.Request) -> web.Response:
    c = ctx(request)
    chat_id = chat_id_of(request)
    body = stats_json(await c.call(c.service.chat_stats, chat_id))
    found = await c.call(c.service.extraction_progress, chat_id)  # counts, pace and the time left
    if found is not None:
        body["extraction"] = found.to_json()
    vectors = c.service.vector_status(chat_id)
    if vectors is not None:  # extra: how far the vector index is
        body["vectors"] = {"model": vectors.model, "embedded": vectors.embedded, "pending": vectors.pending}
    return web.json_response(body)


async def delete_chat(request: web.Request) -> web.Response:
    c = ctx(request)
    chat_id = chat_id_of(request)
    await c.call(c.service.delete_chat, chat_id)
    return web.json_response({"deleted": True, "chat_id": chat_id})


def _run_task(
    c: BridgeContext, chat_id: str, task: str, start: int | None = None, end: int | None = None
) -> dict[str, Any]:
    started = time.perf_counter()
    result: dict[str, Any] | None = None
    retention: dict[str, Any] | None = None
    if _is_operation(task, start, end):
        op = c.service.run_chat_operation(chat_id, task, start=start, end=end).value
        change, result = op.change, op.to_json()
    else:
        # upkeep says what retention will retire before it does (docs/lifecycle.md "Retention")
        retention = c.service.retention_preview(chat_id) if task == "upkeep" else None
        # a memory task is one step of the chat's undo history
        change = c.service.run_recorded(chat_id, task).value
    body: dict[str, Any] = {
        "task": task,
        "changes": changes_json(change),
        "elapsed_ms": round((time.perf_counter() - started) * 1000, 3),
    }
    if result is not None:
        body["result"] = result
    elif retention is not None:
        body["retention"] = retention
    return body


def _is_operation(task: str, start: int | None, end: int | None) -> bool:
    """ST-BME's operations (``core.chat_ops``); ``rebuild_vectors`` is one only with a range."""
    return task in OPERATIONS and (task != "rebuild_vectors" or start is not None or end is not None)


def _check_task(c: BridgeContext, chat_id: str, task: str, start: int | None, end: int | None) -> None:
    if not c.service.has_chat(chat_id):
        raise ApiError(404, f"no chat named {chat_id!r}")
    if _is_operation(task, start, end):
        if task not in RANGED and (start is not None or end is not None):
            raise bad_request("from", f"{task} takes no message range")
        check_range(start, end, c.service.chat_facts(chat_id))
    elif task not in c.service.maintenance_tasks:
        raise ApiError(409, f"this version of BME Desktop cannot run {task!r} yet")


async def maintenance(request: web.Request) -> web.Response:
    c = ctx(request)
    chat_id = chat_id_of(request)
    f = Fields(await read_json_object(request, c.config.body_limit))
    f.only("task", "wait", "from", "to")
    task = f.text("task", required=True, max_len=32)
    tasks = tuple(dict.fromkeys((*MAINTENANCE_TASKS, *OPERATIONS)))
    if task not in tasks:
        raise bad_request("task", f"must be one of {', '.join(tasks)}")
    assert task is not None
    start, end = f.whole("from", low=0, high=MAX_INDEX), f.whole("to", low=0, high=MAX_INDEX)
    if (start is not None or end is not None) and task not in RANGED:
        raise bad_request("from", f"{task} takes no message range")
    if f.flag("wait", default=True):
        return web.json_response(await c.call(_run_task, c, chat_id, task, start, end))
    await c.call(_check_task, c, chat_id, task, start, end)
    future = c.executor.submit(_run_task, c, chat_id, task, start, end)

    def finished(done: Any) -> None:
        try:
            payload = {"type": "maintenance.finished", "chat_id": chat_id, **done.result()}
        except ServiceError as exc:
            payload = {"type": "error", "chat_id": chat_id, "task": task, "message": str(exc)}
        except Exception:
            log.exception("maintenance %s failed", task)
            payload = {"type": "error", "chat_id": chat_id, "task": task, "message": "maintenance failed"}
        if c.loop is not None and not c.loop.is_closed():
            c.loop.call_soon_threadsafe(c.hub.publish_json, payload)

    future.add_done_callback(finished)
    return web.json_response({"task": task, "accepted": True}, status=202)


def register(router: web.UrlDispatcher) -> None:
    router.add_get("/v1/chats", list_chats)
    router.add_get("/v1/chats/{chat_id}", chat_stats)
    router.add_delete("/v1/chats/{chat_id}", delete_chat)
    router.add_post("/v1/chats/{chat_id}/sync", sync)
    router.add_post("/v1/chats/{chat_id}/maintenance", maintenance)
