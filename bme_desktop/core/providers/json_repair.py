"""Tolerant parsing of JSON written by a language model.

:func:`parse_model_json` accepts what models actually send back:

* ``<think>…</think>`` reasoning blocks before the answer (removed);
* Markdown code fences (```` ```json … ``` ````), and prose before or after the JSON;
* trailing commas, Python literals ``True``/``False``/``None``, single-quoted strings where
  the quote opens a key or a value (an apostrophe inside a double-quoted string is left alone);
* raw newlines inside strings;
* a truncated tail (output cut by ``max_tokens``): open strings are closed, a half-written
  last element is dropped, and open brackets are closed.

Only a JSON object or array counts as success; anything else raises :class:`JSONParseError`.
"""

from __future__ import annotations

import json
import re
from typing import Any

JSONValue = dict[str, Any] | list[Any]

_THINK = re.compile(r"<think(?:ing)?>.*?</think(?:ing)?>", re.S | re.I)
_UNCLOSED_THINK = re.compile(r"^\s*<think(?:ing)?>(?!.*</think)", re.S | re.I)
_FENCE = re.compile(r"```[A-Za-z0-9_-]*[ \t]*\n?(.*?)(?:```|\Z)", re.S)
_OPENER = re.compile(r"[\[{]")
_LITERALS = {"True": "true", "False": "false", "None": "null"}
_MAX_START_CANDIDATES = 8
_MAX_CUTS = 32
_DECODER = json.JSONDecoder(strict=False)


class JSONParseError(ValueError):
    """The text holds no JSON object or array, even after repairs."""


def parse_model_json(text: str) -> JSONValue:
    """The first JSON object or array in ``text``, repaired where needed."""
    cleaned = _THINK.sub("", text.lstrip("\ufeff"))
    if _UNCLOSED_THINK.match(cleaned):
        raise JSONParseError("reply is an unfinished <think> block")
    sources = [m.group(1) for m in _FENCE.finditer(cleaned)] + [cleaned]
    for source in sources:
        value = _parse_candidates(source)
        if value is not None:
            return value
    raise JSONParseError("no JSON object or array found in the reply" if cleaned.strip() else "empty reply")


def _parse_candidates(source: str) -> JSONValue | None:
    """Try each ``{``/``[`` in order. A bracket span that closes is parsed as is, then with
    light repairs; a span that runs to the end of the text is treated as truncated output."""
    position, tried = 0, 0
    while tried < _MAX_START_CANDIDATES:
        start = _next_opener(source, position)
        if start is None:
            return None
        tried += 1
        end = _span_end(source, start)
        candidate = source[start:] if end is None else source[start:end]
        value = _decode_prefix(candidate)
        if value is None:
            value = _decode_repaired(candidate, truncated=end is None)
        if value is not None:
            return value
        position = start + 1
    return None


def _next_opener(text: str, position: int) -> int | None:
    match = _OPENER.search(text, position)
    return match.start() if match else None


def _span_end(text: str, start: int) -> int | None:
    """Index just past the bracket matching ``text[start]``, or None if it never closes."""
    depth, i = 0, start
    while i < len(text):
        ch = text[i]
        if ch == '"':
            i = _string_end(text, i, '"')
            continue
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return None


def _decode_prefix(text: str) -> JSONValue | None:
    try:
        value, _ = _DECODER.raw_decode(text)
    except ValueError:
        return None
    return value if isinstance(value, dict | list) else None


def _decode_repaired(text: str, *, truncated: bool) -> JSONValue | None:
    normalized, cuts = _normalize(text)
    value = _decode_prefix(normalized)
    if value is not None or not truncated:
        return value
    # Truncated output: close what is open; if that fails, drop the last element and retry.
    candidate = normalized
    for _ in range(_MAX_CUTS):
        value = _decode_prefix(_close_open(candidate))
        if value is not None:
            return value if value else None  # an empty container recovers nothing
        cut = next((c for c in reversed(cuts) if c < len(candidate)), None)
        if cut is None:
            return None
        candidate = candidate[:cut]
    return None


def _normalize(text: str) -> tuple[str, list[int]]:
    """Fix quotes, literals and trailing commas outside strings; also return the positions of
    structural commas and openers (where a truncated tail can be cut off)."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            end = _string_end(text, i, '"')
            out.append(text[i:end])
            i = end
        elif ch == "'" and _value_position(out):
            end = _string_end(text, i, "'")
            closed = end - i >= 2 and text[end - 1] == "'"
            inner = text[i + 1 : end - 1] if closed else text[i + 1 : end]
            inner = inner.replace("\\'", "'").replace('"', '\\"')
            out.append(f'"{inner}"' if closed else f'"{inner}')  # an open one is closed later
            i = end
        elif ch in "}]":
            _drop_trailing_comma(out)
            out.append(ch)
            i += 1
        elif ch.isalpha():
            m = re.match(r"[A-Za-z_]+", text[i:])
            word = m.group(0) if m else ch
            out.append(_LITERALS.get(word, word))
            i += len(word)
        else:
            out.append(ch)
            i += 1
    normalized = "".join(out)
    return normalized, _cut_points(normalized)


def _cut_points(text: str) -> list[int]:
    cuts: list[int] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == '"':
            i = _string_end(text, i, '"')
            continue
        if ch in ",[{":
            cuts.append(i)
        i += 1
    return cuts


def _string_end(text: str, start: int, quote: str) -> int:
    """Index just past the closing quote of the string opening at ``start`` (or len(text))."""
    i = start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == quote:
            return i + 1
        i += 1
    return len(text)


def _value_position(out: list[str]) -> bool:
    for piece in reversed(out):
        stripped = piece.strip()
        if stripped:
            return stripped[-1] in "{[,:"
    return True


def _drop_trailing_comma(out: list[str]) -> None:
    for k in range(len(out) - 1, -1, -1):
        if out[k].strip() == "":
            continue
        if out[k] == ",":
            del out[k]
        return


def _close_open(text: str) -> str:
    """Append the quotes and brackets needed to close a truncated JSON prefix."""
    stack: list[str] = []
    i, n = 0, len(text)
    in_string = False
    while i < n:
        ch = text[i]
        if in_string:
            if ch == "\\":
                i += 1
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            stack.append("]" if ch == "[" else "}")
        elif ch in "]}" and stack:
            stack.pop()
        i += 1
    tail = text.rstrip()
    if in_string:
        tail += '"'
    else:
        tail = tail.rstrip(",")
        if tail.endswith(":"):
            tail += " null"
    return tail + "".join(reversed(stack))
