"""Path parameters: the chat id (percent-decoded, 1–256 characters), indices and ids."""

from __future__ import annotations

import re
from urllib.parse import unquote_to_bytes

from aiohttp import web

from ..core.errors import ValidationError
from ..core.ingest.history import validate_chat_id
from .errors import ApiError, bad_request

MAX_INDEX = 10_000_000
_BARE_PERCENT = re.compile("%(?![0-9A-Fa-f]{2})")
MAX_ID = 128


def chat_id_of(request: web.Request) -> str:
    """Decoded from the raw path (``/v1/chats/{chat_id}/...``) so that bytes which are not
    UTF-8 are refused rather than kept as literal ``%FF`` text."""
    parts = request.raw_path.split("?", 1)[0].split("/")
    raw = parts[3] if len(parts) > 3 else ""
    if _BARE_PERCENT.search(raw):
        raise bad_request(
            "chat_id", "has a '%' that does not start a percent-escape (send '%' itself as %25)"
        )
    try:
        chat_id = unquote_to_bytes(raw).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise bad_request("chat_id", "is not valid percent-encoded UTF-8") from exc
    try:
        return validate_chat_id(chat_id)
    except ValidationError as exc:
        raise ApiError(400, str(exc)) from exc


def index_of(request: web.Request) -> int:
    raw = request.match_info["index"]
    if not raw.isascii() or not raw.isdigit() or int(raw) > MAX_INDEX:
        raise bad_request("index", f"must be a whole number from 0 to {MAX_INDEX}, not {raw[:40]!r}")
    return int(raw)


def id_of(request: web.Request, key: str, what: str) -> str:
    value = request.match_info[key]
    if not 1 <= len(value) <= MAX_ID:
        raise ApiError(404, f"no {what} {value[:40]!r}")
    return value
