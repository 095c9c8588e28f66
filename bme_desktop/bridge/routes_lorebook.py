"""SillyTavern lorebooks (World Info): the entries SillyTavern resolves for a chat, kept as
read-only world memories; World Info files out of chosen memories and into a scope (issue 18.3).
See core/lorebook.py and core/worldinfo.py."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from ..core.errors import ValidationError
from ..core.scopes import SCOPE_KINDS
from ..core.worldinfo import MAX_BOOK, MAX_ENTRIES, LoreEntry, parse_entry, read_worldinfo, write_worldinfo
from .context import ctx
from .errors import ApiError, bad_request
from .path_params import chat_id_of
from .validation import Fields, json_type, read_json_object

MAX_EXPORT = 10_000


def _entry(raw: Any, pos: int) -> LoreEntry | str:
    """One entry SillyTavern sent: the entry, or why it is refused (it is left out, the rest kept)."""
    where = f"entries[{pos}]"
    if not isinstance(raw, dict):
        raise bad_request(where, f"must be an object, not {json_type(raw)}")
    book = raw.get("book")
    if not isinstance(book, str) or not 1 <= len(book.strip()) <= MAX_BOOK:
        raise bad_request(f"{where}.book", f"must be the lorebook's name (1–{MAX_BOOK} characters)")
    try:
        return parse_entry(
            {k: v for k, v in raw.items() if k not in ("book", "uid")}, book.strip(), raw.get("uid"), where
        )
    except ValidationError as exc:
        if exc.field.endswith(".uid"):
            raise ApiError(400, str(exc)) from exc
        return str(exc)


async def put_lorebook(request: web.Request) -> web.Response:
    """``PUT /v1/chats/{chat_id}/lorebook`` with ``{"entries": [...]}``: the whole set SillyTavern
    resolves for the chat now. An entry it cannot keep (too long, a bad field) is left out and
    named in ``refused``; entries switched off (``disable: true``) count as absent."""
    c = ctx(request)
    chat_id = chat_id_of(request)
    body = await read_json_object(request, c.config.sync_body_limit)
    f = Fields(body)
    f.only("entries")
    raw = f.array("entries", required=True, max_len=MAX_ENTRIES) or []
    entries: list[LoreEntry] = []
    refused: list[dict[str, Any]] = []
    regex_keys = 0
    for pos, item in enumerate(raw):
        entry = _entry(item, pos)
        if isinstance(entry, str):
            refused.append({"book": item.get("book"), "uid": item.get("uid"), "reason": entry})
        elif item.get("disable") is not True and entry.content.strip():
            entries.append(entry)
            regex_keys += len(entry.regex_keys)
    report = (await c.call(c.service.sync_lorebook, chat_id, entries)).value
    return web.json_response(
        {"chat_id": chat_id, **report.to_json(), "refused": refused, "regex_keys": regex_keys}
    )


async def export_worldinfo(request: web.Request) -> web.Response:
    """``POST /v1/chats/{chat_id}/worldinfo/export`` with ``{"ids": [...]}``: those memories as a
    SillyTavern World Info file (the answer is the file)."""
    c = ctx(request)
    chat_id = chat_id_of(request)
    f = Fields(await read_json_object(request, c.config.body_limit))
    f.only("ids")
    ids = f.array("ids", required=True, max_len=MAX_EXPORT) or []
    for pos, node_id in enumerate(ids):
        if not isinstance(node_id, str) or not 1 <= len(node_id) <= 128:
            raise bad_request(f"ids[{pos}]", "must be a memory id")
    entries = await c.call(c.service.worldinfo_entries, chat_id, ids)
    return web.json_response(write_worldinfo(entries))


async def import_worldinfo(request: web.Request) -> web.Response:
    """``POST /v1/chats/{chat_id}/worldinfo/import`` with ``{"file": {...}, "book": "name",
    "scope": "world"}``: the file's entries as memories of that scope (one undo step). A malformed
    file is a 400 naming the entry and field, and nothing is written."""
    c = ctx(request)
    chat_id = chat_id_of(request)
    f = Fields(await read_json_object(request, c.config.sync_body_limit))
    f.only("file", "book", "scope")
    doc = f.obj("file", required=True)
    book = f.text("book", required=True, min_len=1, max_len=MAX_BOOK) or ""
    kind = f.text("scope", max_len=16, default="world") or "world"
    if kind not in SCOPE_KINDS:
        raise bad_request("scope", f"must be one of {', '.join(SCOPE_KINDS)}")
    try:
        parsed = read_worldinfo(doc, book.strip())
    except ValidationError as exc:
        raise ApiError(400, f"file.{exc}") from exc
    report = (await c.call(c.service.import_worldinfo, chat_id, parsed.entries, kind, actor="bridge")).value
    return web.json_response({"chat_id": chat_id, **report.to_json(), "disabled": parsed.disabled})


def register(router: web.UrlDispatcher) -> None:
    router.add_put("/v1/chats/{chat_id}/lorebook", put_lorebook)
    router.add_post("/v1/chats/{chat_id}/worldinfo/export", export_worldinfo)
    router.add_post("/v1/chats/{chat_id}/worldinfo/import", import_worldinfo)
