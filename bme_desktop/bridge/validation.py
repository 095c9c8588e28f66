"""Reading request bodies and checking their fields; every error names the field."""

from __future__ import annotations

import asyncio
import json
import logging
import math
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

from aiohttp import web

from ..core.ingest.text import loads_json
from .context import ctx
from .errors import ApiError, bad_request

T = TypeVar("T")
log = logging.getLogger(__name__)
MAX_DEPTH = 64
_PARSE_IN_THREAD_ABOVE = 256 * 1024


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _finite_float(text: str) -> float:
    """A JSON number with a fraction or exponent; one too large for a float (``1e400``) would
    become infinity, which no JSON answer can carry back, so it is refused like ``Infinity``."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:24]} is too large")
    return value


def _shown(value: int | float) -> str:
    text = f"{value:g}" if isinstance(value, float) else str(value)
    return text if len(text) <= 24 else f"{text[:12]}…({len(text)} digits)"


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {key!r} appears twice in one object")
        out[key] = value
    return out


def _depth(value: Any) -> int:
    depth, level = 0, [value]
    while level:
        depth += 1
        nxt: list[Any] = []
        for item in level:
            if isinstance(item, dict):
                nxt.extend(item.values())
            elif isinstance(item, list):
                nxt.extend(item)
        level = nxt
    return depth - 1


def parse_json(raw: bytes) -> Any:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise bad_request("body", f"is not valid UTF-8 (bad byte at position {exc.start})") from exc
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        value = loads_json(
            text, parse_constant=_reject_constant, parse_float=_finite_float, object_pairs_hook=_unique_keys
        )
    except RecursionError as exc:
        raise bad_request("body", "is nested too deeply") from exc
    except json.JSONDecodeError as exc:
        raise bad_request(
            "body", f"is not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
        ) from exc
    except ValueError as exc:
        raise bad_request("body", f"is not valid JSON ({exc})") from exc
    if _depth(value) > MAX_DEPTH:
        raise bad_request("body", f"is nested deeper than {MAX_DEPTH} levels")
    return value


async def read_body(request: web.Request, limit: int) -> bytes:
    """The raw body, refusing (413) anything larger than ``limit`` without reading it all, and
    (408) one that stalls for ``body_idle_timeout_s`` or takes longer than ``body_timeout_s``."""
    declared = request.content_length
    if declared is not None and declared > limit:
        raise ApiError(413, f"body: {declared} bytes is more than the limit of {limit} bytes")
    expected = "?" if declared is None else str(declared)
    config = ctx(request).config
    loop = asyncio.get_running_loop()
    deadline = loop.time() + config.body_timeout_s
    chunks: list[bytes] = []
    size = 0
    while True:
        left = deadline - loop.time()
        try:
            async with asyncio.timeout(min(config.body_idle_timeout_s, left)):
                chunk = await request.content.readany()
        except TimeoutError:
            why = (
                f"not complete after {config.body_timeout_s:g} s"
                if left <= config.body_idle_timeout_s
                else f"nothing arrived for {config.body_idle_timeout_s:g} s"
            )
            raise ApiError(
                408, f"body: {why} ({size} of {expected} bytes came); the request was dropped"
            ) from None
        except ConnectionError:  # the client went away mid-body: nothing was started, one line says so
            log.info(
                "client %s went away during %s %s after %d of %s body bytes; nothing was changed",
                request.remote,
                request.method,
                request.path,
                size,
                expected,
            )
            raise ApiError(400, "body: the client disconnected before the whole body arrived") from None
        if not chunk:
            break
        size += len(chunk)
        if size > limit:
            raise ApiError(413, f"body: more than the limit of {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


async def read_json_object(request: web.Request, limit: int) -> dict[str, Any]:
    """The body as a JSON object. Content-Type must be JSON (stops form-post CSRF)."""
    ctype = request.headers.get("Content-Type", "")
    if (
        ctype
        and request.content_type not in ("application/json", "text/json")
        and not request.content_type.endswith("+json")
    ):
        raise ApiError(415, f"Content-Type: must be application/json, not {request.content_type!r}")
    if request.charset and request.charset.lower() not in ("utf-8", "utf8"):
        raise ApiError(415, f"Content-Type: the charset must be utf-8, not {request.charset!r}")
    raw = await read_body(request, limit)
    if not raw.strip():
        raise bad_request("body", "is empty; a JSON object is required")
    if len(raw) > _PARSE_IN_THREAD_ABOVE:
        value = await asyncio.get_running_loop().run_in_executor(None, parse_json, raw)
    else:
        value = parse_json(raw)
    if not isinstance(value, dict):
        raise bad_request("body", f"must be a JSON object, not {json_type(value)}")
    return value


def json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


class Fields:
    """Typed access to a JSON object's fields; ``where`` prefixes field names in errors."""

    def __init__(self, data: dict[str, Any], where: str = "") -> None:
        self.data = data
        self.where = where

    def name(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where else key

    def only(self, *allowed: str) -> None:
        unknown = sorted(set(self.data) - set(allowed))
        if unknown:
            raise bad_request(self.name(unknown[0]), f"is not a known field; known: {', '.join(allowed)}")

    def _get(self, key: str, required: bool) -> Any:
        value = self.data.get(key)
        if value is None and required:
            raise bad_request(self.name(key), "is required")
        return value

    def text(
        self,
        key: str,
        *,
        required: bool = False,
        max_len: int = 256,
        min_len: int = 0,
        default: str | None = None,
    ) -> str | None:
        value = self._get(key, required)
        if value is None:
            return default
        if not isinstance(value, str):
            raise bad_request(self.name(key), f"must be a string, not {json_type(value)}")
        if not min_len <= len(value) <= max_len:
            raise bad_request(self.name(key), f"must be {min_len} to {max_len} characters long")
        if "\x00" in value:
            raise bad_request(self.name(key), "must not contain NUL characters")
        return value

    def whole(
        self,
        key: str,
        *,
        required: bool = False,
        low: int = 0,
        high: int = 2**31 - 1,
        default: int | None = None,
    ) -> int | None:
        value = self._get(key, required)
        if value is None:
            return default
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise bad_request(self.name(key), f"must be a whole number, not {json_type(value)}")
        if not low <= value <= high:
            raise bad_request(self.name(key), f"must be from {low} to {high} (got {_shown(value)})")
        return value

    def number(self, key: str, *, low: float, high: float, default: float | None = None) -> float | None:
        value = self._get(key, False)
        if value is None:
            return default
        # an int is compared exactly: one too large for a float must not reach float() or isfinite()
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or (isinstance(value, float) and not math.isfinite(value))
        ):
            raise bad_request(self.name(key), f"must be a number, not {json_type(value)}")
        if not low <= value <= high:
            raise bad_request(self.name(key), f"must be from {low:g} to {high:g} (got {_shown(value)})")
        return float(value)

    def flag(self, key: str, *, default: bool) -> bool:
        value = self._get(key, False)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise bad_request(self.name(key), f"must be true or false, not {json_type(value)}")
        return value

    def obj(self, key: str, *, required: bool = False) -> dict[str, Any] | None:
        value = self._get(key, required)
        if value is None:
            return None
        if not isinstance(value, dict):
            raise bad_request(self.name(key), f"must be an object, not {json_type(value)}")
        return value

    def array(self, key: str, *, required: bool = False, max_len: int = 1_000_000) -> list[Any] | None:
        value = self._get(key, required)
        if value is None:
            return None
        if not isinstance(value, list):
            raise bad_request(self.name(key), f"must be an array, not {json_type(value)}")
        if len(value) > max_len:
            raise bad_request(self.name(key), f"must hold at most {max_len} items")
        return value

    def iso_time(self, key: str) -> str | None:
        value = self.text(key, max_len=64)
        if value is None:
            return None
        try:
            datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
        except ValueError as exc:
            raise bad_request(self.name(key), f"must be an ISO 8601 time, not {value!r}") from exc
        return value


def each(items: list[Any], where: str, parse: Callable[[Fields], T]) -> list[T]:
    out: list[T] = []
    for pos, item in enumerate(items):
        name = f"{where}[{pos}]"
        if not isinstance(item, dict):
            raise bad_request(name, f"must be an object, not {json_type(item)}")
        out.append(parse(Fields(item, name)))
    return out


def whole_param(request: web.Request, key: str, *, default: int, low: int, high: int) -> int:
    raw = request.query.get(key)
    if raw is None or raw == "":
        return default
    if not raw.isascii() or not raw.isdigit():
        raise bad_request(key, f"must be a whole number from {low} to {high}")
    value = int(raw)
    if not low <= value <= high:
        raise bad_request(key, f"must be from {low} to {high} (got {value})")
    return value


def choice_param(request: web.Request, key: str, choices: tuple[str, ...] | list[str]) -> str | None:
    raw = request.query.get(key)
    if raw is None or raw == "":
        return None
    if raw not in choices:
        raise bad_request(key, f"must be one of {', '.join(choices)}")
    return raw


def text_param(request: web.Request, key: str, *, max_len: int = 500) -> str | None:
    raw = request.query.get(key)
    if raw is None or raw == "":
        return None
    if len(raw) > max_len or "\x00" in raw:
        raise bad_request(key, f"must be text of at most {max_len} characters")
    return raw


def bool_param(request: web.Request, key: str) -> bool | None:
    raw = request.query.get(key)
    if raw is None or raw == "":
        return None
    lowered = raw.lower()
    if lowered in ("true", "1", "yes"):
        return True
    if lowered in ("false", "0", "no"):
        return False
    raise bad_request(key, "must be true or false")
