"""Typed, path-naming accessors for validating a JSON document before anything is written."""

from __future__ import annotations

import json
import math
from typing import Any

from ..ingest.text import loads_json
from .format import MAX_ITEMS, MAX_JSON_BYTES, BackupError


def parse_json(raw: bytes, limit: int) -> Any:
    """Bytes to a JSON value, refusing oversize input, bad UTF-8, bad JSON and NaN/Infinity."""
    if len(raw) > limit:
        raise BackupError("", f"the file is larger than {limit // (1024 * 1024)} MB")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BackupError("", f"not UTF-8 text (byte {exc.start})") from None

    def no_constants(name: str) -> Any:
        raise ValueError(f"{name} is not allowed")

    try:
        return loads_json(text, parse_constant=no_constants)
    except json.JSONDecodeError as exc:
        raise BackupError("", f"not valid JSON: line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except (ValueError, RecursionError) as exc:
        raise BackupError("", f"not valid JSON: {exc}") from None


class Obj:
    """A JSON object at ``path`` whose keys must all be among ``allowed``."""

    def __init__(self, value: object, path: str, allowed: tuple[str, ...]) -> None:
        if not isinstance(value, dict):
            raise BackupError(path, "must be an object")
        for key in value:
            if key not in allowed:
                raise BackupError(self._at(path, str(key)), "is not a known key")
        self.value: dict[str, Any] = value
        self.path = path

    @staticmethod
    def _at(path: str, key: str) -> str:
        return f"{path}.{key}" if path else key

    def at(self, key: str) -> str:
        return self._at(self.path, key)

    def _get(self, key: str, nullable: bool) -> Any:
        if key not in self.value or self.value[key] is None:
            if nullable:
                return None
            raise BackupError(self.at(key), "is required" if key not in self.value else "must not be null")
        return self.value[key]

    def text(self, key: str, max_len: int, *, nonempty: bool = False) -> str:
        value = self._get(key, False)
        return check_text(value, self.at(key), max_len, nonempty=nonempty)

    def opt_text(self, key: str, max_len: int) -> str | None:
        value = self._get(key, True)
        return None if value is None else check_text(value, self.at(key), max_len)

    def number(self, key: str, lo: float | None = None, hi: float | None = None) -> float:
        value = self._get(key, False)
        return check_number(value, self.at(key), lo, hi)

    def opt_number(self, key: str) -> float | None:
        value = self._get(key, True)
        return None if value is None else check_number(value, self.at(key), None, None)

    def whole(self, key: str, lo: int | None = 0) -> int:
        return check_whole(self._get(key, False), self.at(key), lo)

    def opt_whole(self, key: str, lo: int | None = 0) -> int | None:
        value = self._get(key, True)
        return None if value is None else check_whole(value, self.at(key), lo)

    def flag(self, key: str) -> bool:
        value = self._get(key, False)
        if not isinstance(value, bool):
            raise BackupError(self.at(key), "must be true or false")
        return value

    def json_object(self, key: str, *, nullable: bool) -> dict[str, Any] | None:
        value = self._get(key, nullable)
        if value is None:
            return None
        if not isinstance(value, dict):
            raise BackupError(self.at(key), "must be an object" + (" or null" if nullable else ""))
        check_json_size(value, self.at(key))
        return value

    def items(self, key: str, max_items: int = MAX_ITEMS) -> list[Any]:
        value = self._get(key, False)
        if not isinstance(value, list):
            raise BackupError(self.at(key), "must be a list")
        if len(value) > max_items:
            raise BackupError(self.at(key), f"has more than {max_items} entries")
        return value

    def indices(self, key: str) -> list[int]:
        return [check_whole(v, f"{self.at(key)}[{i}]", 0) for i, v in enumerate(self.items(key))]


def check_text(value: object, path: str, max_len: int, *, nonempty: bool = False) -> str:
    if not isinstance(value, str):
        raise BackupError(path, "must be text")
    if len(value) > max_len:
        raise BackupError(path, f"is longer than {max_len} characters")
    if nonempty and not value:
        raise BackupError(path, "must not be empty")
    if "\x00" in value:
        raise BackupError(path, "must not contain NUL characters")
    return value


def check_number(value: object, path: str, lo: float | None, hi: float | None) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise BackupError(path, "must be a number")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise BackupError(path, f"must be from {lo} to {hi}" if hi is not None else f"must be at least {lo}")
    return float(value)


def check_whole(value: object, path: str, lo: int | None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BackupError(path, "must be a whole number")
    if lo is not None and value < lo:
        raise BackupError(path, f"must be at least {lo}")
    if abs(value) > 2**62:
        raise BackupError(path, "is too large")
    return value


def check_json_size(value: object, path: str) -> None:
    if len(json.dumps(value, ensure_ascii=False)) > MAX_JSON_BYTES:
        raise BackupError(path, f"is larger than {MAX_JSON_BYTES} characters of JSON")
