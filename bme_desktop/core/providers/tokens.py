"""Fast, deterministic token estimates for budgeting prompts and injections.

Heuristic (no tokenizer download, same answer on every machine):

    tokens = ceil(cjk_chars / 1.5 + other_chars / 4)

* ``cjk_chars``: Han ideographs (incl. extension A and compatibility), kana, Hangul, and
  CJK / full-width punctuation. Modern BPE vocabularies (cl100k/o200k, Qwen, DeepSeek)
  spend about 0.6–1 token per Chinese character; 1/1.5 sits in that range.
* ``other_chars``: every other character, whitespace included; English runs ≈ 4 chars/token.

It over-counts code and numbers a little and under-counts rare CJK characters; use it for
budgets with a margin, not for billing.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

CJK_CHARS_PER_TOKEN = 1.5
OTHER_CHARS_PER_TOKEN = 4.0
MESSAGE_OVERHEAD_TOKENS = 4  # role markers and separators per chat message

_CJK = re.compile(
    "[\u3000-\u303f"  # CJK symbols and punctuation
    "\u3040-\u30ff"  # hiragana, katakana
    "\u3400-\u4dbf"  # CJK extension A
    "\u4e00-\u9fff"  # CJK unified ideographs
    "\uac00-\ud7af"  # Hangul syllables
    "\uf900-\ufaff"  # CJK compatibility ideographs
    "\uff00-\uffef"  # half-width and full-width forms
    "\U00020000-\U0002fa1f]"  # CJK extensions B–F, compatibility supplement
)


def count_cjk(text: str) -> int:
    """Number of CJK characters in ``text``."""
    return len(text) - len(_CJK.sub("", text))


def estimate_tokens(text: str) -> int:
    """Estimated token count of ``text`` (0 for the empty string)."""
    if not text:
        return 0
    cjk = count_cjk(text)
    return math.ceil(cjk / CJK_CHARS_PER_TOKEN + (len(text) - cjk) / OTHER_CHARS_PER_TOKEN)


def estimate_message_tokens(messages: Iterable[Mapping[str, Any]]) -> int:
    """Estimated prompt size of a chat message list (content plus a small per-message overhead)."""
    total = 0
    for message in messages:
        content = message.get("content", "")
        total += MESSAGE_OVERHEAD_TOKENS + estimate_tokens(
            content if isinstance(content, str) else str(content)
        )
    return total
