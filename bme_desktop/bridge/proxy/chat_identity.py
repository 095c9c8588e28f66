"""Which chat a request belongs to.

1. The ``X-BME-Chat`` header, when present (percent-encoded UTF-8 is decoded); an invalid
   one is a 400, never silently replaced.
2. Else the request's ``user`` field, when it is text of 1–256 characters.
3. Else ``proxy-`` + a hash of the conversation's start: the first system message and the
   first user message. A :class:`Continuity` map first recognises a conversation the proxy
   answered before (by its last user message and reply), so a chat whose app trimmed its
   first messages, or whose system prompt changes each turn, keeps its memory while the
   bridge runs.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, unquote_to_bytes

from ...core.errors import ValidationError
from ...core.ingest.history import validate_chat_id
from ..errors import ApiError
from .conversation import SYSTEM_ROLES, Turn, content_text

HEADER = "X-BME-Chat"
HASH_PREFIX = "proxy-"
CONTINUITY_SIZE = 4096


@dataclass(frozen=True)
class ChatIdentity:
    chat_id: str
    source: str  # "header" | "user" | "hash" | "continuity"

    def header_value(self) -> str:
        """The chat id as an HTTP header value (non-ASCII percent-encoded)."""
        return quote(self.chat_id, safe="")


def _from_header(raw: str) -> str:
    value = raw.strip()
    if "%" in value:
        try:
            value = unquote_to_bytes(value).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ApiError(400, f"{HEADER}: is not valid percent-encoded UTF-8") from exc
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:  # bytes that are not UTF-8 (aiohttp kept them as surrogates)
        raise ApiError(400, f"{HEADER}: is not valid UTF-8 (percent-encode non-ASCII names)") from exc
    try:
        return validate_chat_id(value)
    except ValidationError as exc:
        raise ApiError(400, f"{HEADER}: must be a chat id of 1 to 256 characters") from exc


def start_hash(messages: Sequence[Any]) -> str:
    """``proxy-`` + 16 hex digits from the first system and the first user message."""
    first_system = first_user = ""
    found_system = found_user = False
    for m in messages:
        if not isinstance(m, dict):
            continue
        role = m.get("role")
        if role in SYSTEM_ROLES and not found_system:
            first_system, found_system = content_text(m.get("content")).strip(), True
        elif role == "user" and not found_user:
            first_user, found_user = content_text(m.get("content")).strip(), True
        if found_system and found_user:
            break
    payload = json.dumps([first_system, first_user], ensure_ascii=False, separators=(",", ":"))
    return HASH_PREFIX + hashlib.blake2b(payload.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def _normal(text: str) -> str:
    return " ".join(text.split())


def pair_key(user_text: str, reply_text: str) -> str:
    payload = json.dumps([_normal(user_text), _normal(reply_text)], ensure_ascii=False)
    return hashlib.blake2b(payload.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def last_pair(turns: Sequence[Turn]) -> tuple[str, str] | None:
    """The last (user message, the reply right after it) in a window."""
    for i in range(len(turns) - 1, 0, -1):
        if turns[i].role == "assistant" and turns[i - 1].role == "user":
            return turns[i - 1].text, turns[i].text
    return None


class Continuity:
    """Replies the proxy delivered, by (user message, reply) → the chat they went to. Bounded;
    in memory only (a restart forgets it)."""

    def __init__(self, size: int = CONTINUITY_SIZE) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._map: OrderedDict[str, str] = OrderedDict()

    def remember(self, user_text: str, reply_text: str, chat_id: str) -> None:
        key = pair_key(user_text, reply_text)
        with self._lock:
            self._map[key] = chat_id
            self._map.move_to_end(key)
            while len(self._map) > self.size:
                self._map.popitem(last=False)

    def find(self, turns: Sequence[Turn]) -> str | None:
        pair = last_pair(turns)
        if pair is None:
            return None
        with self._lock:
            return self._map.get(pair_key(*pair))


def identify(
    headers: Mapping[str, str],
    body: Mapping[str, Any],
    turns: Sequence[Turn],
    continuity: Continuity | None = None,
) -> ChatIdentity:
    raw = headers.get(HEADER)
    if raw is not None:
        return ChatIdentity(_from_header(raw), "header")
    user = body.get("user")
    if isinstance(user, str) and user.strip() and "\x00" not in user and len(user.strip()) <= 256:
        return ChatIdentity(user.strip(), "user")
    if continuity is not None:
        known = continuity.find(turns)
        if known is not None:
            return ChatIdentity(known, "continuity")
    messages = body.get("messages")
    return ChatIdentity(start_hash(messages if isinstance(messages, list) else []), "hash")
