"""Finding names of characters and places in chat text, without a model.

English: capitalised words and short runs of them (``Silver Tavern``), minus function
words, months and weekdays; a capitalised word at the start of a sentence counts only when
the name is known (a speaker, a memory) or also appears mid-sentence in the window. A name
after "in / at / into / near ..." or ending in a place word (Tavern, Castle, ...) is a place.
Chinese: jieba part-of-speech tags ``nr``/``nrt``/``nrfg`` (people) and ``ns`` (places).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from .textutil import has_han

if TYPE_CHECKING:
    from jieba.posseg import POSTokenizer

Kind = Literal["character", "location"]

_STOP = frozenset("""
a an the i i'm i'll i've i'd he she it they we you me him her us them my your his its our their mine yours
this that these those there here what when where why how who whom which whose yes no not oh ah well so if
as at in on of by for from to into onto with without but and or nor then than though although because
while after before once until unless since do does did is are was were be been am can could would should
will shall may might must let lets okay ok hey hello hi thanks thank please sorry sir madam lady lord
mr mrs ms dr miss just maybe perhaps still also even only every each all some any none both either
neither one two three first second last next now today tonight tomorrow yesterday meanwhile suddenly
however finally later soon again perhaps god gods
january february march april may june july august september october november december
monday tuesday wednesday thursday friday saturday sunday
""".split())  # noqa: SIM905
_PLACE_WORDS = frozenset("""
tavern inn castle forest woods city town village river mountain mountains temple palace market street
hall tower library academy harbor harbour port lake cave caves garden gardens bridge square road
kingdom empire valley desert island sea bay shrine church cathedral manor keep fortress camp station
school university hospital cafe café bar shop store park house mansion ruins gate gates district
""".split())  # noqa: SIM905
_PLACE_BEFORE = re.compile(
    r"(?:\b(?:in|at|into|inside|outside|near|towards?|toward|reached|reach|entered|enter|visit(?:ed)?|"
    r"(?:went|go|goes|going|arrived?|arriving|travell?ed|walked|headed|returned|rode|ran|came|moved|fled)"
    r"\s+(?:to|from|back to))\s+(?:the\s+)?)$", re.I)
_CAP_RUN = re.compile(r"\b[A-Z][a-z'’]+(?:[ -][A-Z][a-z'’]+){0,2}\b")
_SENTENCE_START = re.compile(r"(?:^|[.!?\"“”:;\n]\s*|\*\s*)$")
_ZH_PERSON = frozenset({"nr", "nrt", "nrfg"})
_ZH_PLACE = frozenset({"ns"})


@dataclass(frozen=True)
class Mention:
    name: str
    kind: Kind


_PLACE_SUFFIX = re.compile(r"(?:town|ton|burg|burgh|ville|shire|ford|port|haven|field|wood|land)$", re.I)


_WORK_TITLE = re.compile(r"[《〈][^》〉]{0,80}[》〉]")  # book-title marks: a work's name


def _is_place(name: str, before: str) -> bool:
    last = name.split()[-1]
    if last.lower() in _PLACE_WORDS or (len(last) > 6 and _PLACE_SUFFIX.search(last)):
        return True
    return _PLACE_BEFORE.search(before[-40:]) is not None


def _trim(run: str) -> str:
    words = run.replace("’", "'").split()
    while words and (words[0].lower() in _STOP or words[0].lower().rstrip("'s") in _STOP):
        words = words[1:]
    while words and words[-1].lower() in _STOP:
        words = words[:-1]
    name = " ".join(words)
    return name[:-2] if name.endswith("'s") else name


class NameFinder:
    """Finds names; holds its own lazily built jieba POS tagger (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pos: POSTokenizer | None = None

    def _tagger(self) -> POSTokenizer:
        if self._pos is None:
            from jieba.posseg import POSTokenizer

            from ..recall.tokenize import shared_jieba
            self._pos = POSTokenizer(shared_jieba())
        return self._pos

    def chinese(self, text: str) -> list[Mention]:
        if not has_han(text):
            return []
        text = _WORK_TITLE.sub("，", text)  # 《哈利·波特》 names a book, not a person or a place
        with self._lock:
            pairs = [(p.word, p.flag) for p in self._tagger().cut(text)]
        out: list[Mention] = []
        for word, flag in pairs:
            if len(word) < 2 or not has_han(word):
                continue
            if flag in _ZH_PERSON:
                out.append(Mention(word, "character"))
            elif flag in _ZH_PLACE:
                out.append(Mention(word, "location"))
        return out

    def english(self, text: str, known: set[str], window: str) -> list[Mention]:
        out: list[Mention] = []
        for match in _CAP_RUN.finditer(text):
            before = text[: match.start()]
            name = _trim(match.group())
            if not name or len(name) < 2 or name.lower() in _STOP:
                continue
            at_start = _SENTENCE_START.search(before) is not None
            if at_start and name.lower() not in known and not _mid_sentence(name, window):
                continue
            out.append(Mention(name, "location" if _is_place(name, before) else "character"))
        return out

    def find(self, text: str, *, known: Iterable[str] = (), window: str = "") -> list[Mention]:
        """Names in ``text`` in order of first appearance, each once. ``known`` names (speakers)
        are always found; ``window`` is the surrounding text used to confirm new names."""
        known_lower = {k.lower() for k in known if k}
        found: dict[str, Mention] = {}
        for name in known:
            if name and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.I):
                found.setdefault(name.lower(), Mention(name, "character"))
        for mention in self.english(text, known_lower, window or text) + self.chinese(text):
            found.setdefault(mention.name.lower(), mention)
        order = {key: text.lower().find(key) for key in found}
        return [found[k] for k in sorted(found, key=lambda k: (order[k], k))]


def _mid_sentence(name: str, window: str) -> bool:
    for match in re.finditer(rf"\b{re.escape(name)}\b", window):
        if _SENTENCE_START.search(window[: match.start()]) is None:
            return True
    return False
