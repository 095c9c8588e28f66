"""JSON text arriving from outside — bridge request bodies, import files, ``settings.json``.

JSON may spell a lone UTF-16 surrogate (``"\\ud800"``: what ``JSON.stringify`` writes for half of
a broken emoji), which no UTF-8 database column can store. Every such code point becomes U+FFFD
(the replacement character) as the document is read, so the rest of the text is kept and nothing
downstream sees one. A surrogate pair written as two escapes is one character and stays so."""

from __future__ import annotations

import json
import re
from typing import Any

REPLACEMENT = "\ufffd"
_SURROGATE = re.compile("[\ud800-\udfff]")
# JSON text with no \uD800–\uDFFF escape cannot produce a surrogate (UTF-8 input has none)
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _clean_text(text: str) -> str:
    return _SURROGATE.sub(REPLACEMENT, text) if _SURROGATE.search(text) else text


def _clean(value: Any) -> Any:
    if isinstance(value, str):
        return _clean_text(value)
    if isinstance(value, list):
        return [_clean(item) for item in value]
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            clean_key = _clean_text(key)
            if clean_key in out:
                raise ValueError(
                    f"the key {clean_key!r} appears twice in one object "
                    "(after unpaired surrogates were replaced with U+FFFD)"
                )
            out[clean_key] = _clean(item)
        return out
    return value


def loads_json(text: str, **options: Any) -> Any:
    """``json.loads(text, **options)`` with every unpaired surrogate replaced by U+FFFD.
    Raises what ``json.loads`` raises (``ValueError`` and its ``JSONDecodeError``,
    ``RecursionError``), and ``ValueError`` when two keys of one object become the same."""
    return without_surrogates(json.loads(text, **options), text)


def without_surrogates(value: Any, text: str) -> Any:
    """``value``, decoded from the JSON ``text``, with every unpaired surrogate replaced by
    U+FFFD (for JSON decoded piece by piece, as streamed backups are)."""
    return _clean(value) if _SURROGATE_ESCAPE.search(text) else value
