"""Small text helpers shared by the heuristic extractor and the applier."""

from __future__ import annotations

import re
from functools import lru_cache

from ..recall.tokenize import TextTokenizer

_SENTENCE = re.compile(r"[^.!?。！？；;\n]+[.!?。！？；;]*[\"'”’」』)]*", re.S)
_SPACE = re.compile(r"\s+")
_NEGATION = re.compile(
    r"\b(?:not|never|no longer|don'?t|doesn'?t|didn'?t|won'?t|isn'?t|hates?|dislikes?|stopped)\b"
    r"|不再|不喜欢|讨厌|不吃|不要|没有|从不|再也不",
    re.I,
)


def squeeze(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def sentences(text: str) -> list[str]:
    """Sentences of ``text`` (English and Chinese punctuation), whitespace squeezed."""
    out = [squeeze(m.group()) for m in _SENTENCE.finditer(text)]
    return [s for s in out if s and any(ch.isalnum() for ch in s)]


def clip(text: str, limit: int) -> str:
    text = squeeze(text)
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit * 0.6:
        cut = cut[:space]
    return cut.rstrip(" ,;:，、") + "…"


@lru_cache(maxsize=1)
def _tokenizer() -> TextTokenizer:
    return TextTokenizer(chinese="bigram", stemmer="light", remove_stop_words=True)


def term_set(text: str) -> frozenset[str]:
    """Lower-cased, stemmed content terms (Chinese as character bigrams)."""
    return frozenset(_tokenizer().tokens(text))


def overlap(a: frozenset[str], b: frozenset[str]) -> float:
    """Jaccard overlap of two term sets (0 when either is empty)."""
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


def negated(text: str) -> bool:
    """Whether a statement is phrased negatively ("never", "no longer", "不再", ...)."""
    return _NEGATION.search(text) is not None


def has_han(text: str) -> bool:
    return any("\u3400" <= ch <= "\u9fff" for ch in text)
