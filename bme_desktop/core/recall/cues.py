"""Cues read from the user's text: greetings and noise, "remember when", named dates, and
flashback/future talk. Plain regular expressions in English and Chinese; no model."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_REMEMBER = re.compile(
    r"之前|以前|上次|上回|那次|那天|曾经|还记得|记不记得|记得吗|你记得|"
    r"\bremember\b|\brecall\b|\blast time\b|\bthat time\b|\bback when\b|\bearlier you\b|\byou (?:said|told|mentioned)\b",
    re.IGNORECASE)
_FLASHBACK = re.compile(r"回忆|小时候|当年|多年前|\bflashback\b|\byears ago\b|\bas a child\b", re.IGNORECASE)
_FUTURE = re.compile(r"将来|未来|以后会|明天|\bwill\b|\btomorrow\b|\bnext (?:week|month|year)\b|\bplan(?:s|ning)? to\b",
                     re.IGNORECASE)
_GREETING = re.compile(
    r"^(?:hi+|hey+|hello|yo|sup|ok(?:ay)?|k|thanks?|thank you|thx|lol|haha+|hmm+|yes|no|yeah|nope|sure|"
    r"good (?:morning|night|evening|afternoon)|bye|gn|"
    r"你好|您好|嗨|哈喽|早|早安|早上好|晚安|午安|谢谢|多谢|好的|好|嗯+|哦+|哈+|呵+|行|对|是的|不是|再见|拜拜)$",
    re.IGNORECASE)
_PUNCT_SPACE = re.compile(r"[\s\W_]+", re.UNICODE)

_MONTHS = {m: i + 1 for i, m in enumerate(
    ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
     "november", "december"))}
_MONTHS.update({m[:3]: i for m, i in list(_MONTHS.items())})
_MONTHS["sept"] = 9
_MONTH_RE = "|".join(sorted(_MONTHS, key=len, reverse=True))
_DATE_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?:(\d{4})\s*年\s*)?(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]"), "ymd"),
    (re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})"), "ymd"),
    (re.compile(rf"\b({_MONTH_RE})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s*(\d{{4}}))?", re.IGNORECASE), "mdy"),
    (re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_RE})\b\.?(?:,?\s*(\d{{4}}))?", re.IGNORECASE),
     "dmy"),
)


@dataclass(frozen=True)
class DayRef:
    """A calendar day named in text; ``year`` may be unknown."""

    month: int
    day: int
    year: int | None = None

    def matches(self, other: DayRef) -> bool:
        same_day = self.month == other.month and self.day == other.day
        return same_day and (self.year is None or other.year is None or self.year == other.year)


@dataclass(frozen=True)
class Cues:
    remember: bool = False
    flashback: bool = False
    future: bool = False
    noise: bool = False
    days: tuple[DayRef, ...] = ()


def _valid(year: int | None, month: int, day: int) -> DayRef | None:
    if 1 <= month <= 12 and 1 <= day <= 31:
        return DayRef(month, day, year)
    return None


def find_days(text: str) -> list[DayRef]:
    """Calendar days named in ``text`` ("5月2日", "2023-05-02", "May 8", "8 May, 2023")."""
    found: list[DayRef] = []
    for pattern, kind in _DATE_PATTERNS:
        for m in pattern.finditer(text):
            ref: DayRef | None
            if kind == "ymd":
                year = int(m.group(1)) if m.group(1) else None
                ref = _valid(year, int(m.group(2)), int(m.group(3)))
            elif kind == "mdy":
                ref = _valid(int(m.group(3)) if m.group(3) else None, _MONTHS[m.group(1).lower()], int(m.group(2)))
            else:
                ref = _valid(int(m.group(3)) if m.group(3) else None, _MONTHS[m.group(2).lower()], int(m.group(1)))
            if ref is not None and ref not in found:
                found.append(ref)
    return found


def looks_binary(text: str) -> bool:
    """Mostly control characters, replacement characters or unassigned code points."""
    if not text:
        return False
    sample = text[:4000]
    bad = sum(1 for ch in sample if ch == "\ufffd" or (unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn")
                                                        and ch not in "\n\r\t"))
    return bad > 0.2 * len(sample)


def clean_input(text: str, limit: int) -> str:
    """The text recall works on: control characters dropped, at most ``limit`` characters."""
    head = text[: limit * 2]
    kept = "".join(ch for ch in head if ch in "\n\t" or unicodedata.category(ch) not in ("Cc", "Cs", "Co", "Cn"))
    return kept.replace("\ufffd", " ").strip()[:limit]


def is_noise(text: str) -> bool:
    """Greetings, acknowledgements and inputs too short to mean anything."""
    core = _PUNCT_SPACE.sub(" ", text).strip()
    if not core:
        return True
    if _GREETING.match(core) or _GREETING.match(core.replace(" ", "")):
        return True
    words = core.split()
    han = sum(1 for ch in core if "\u4e00" <= ch <= "\u9fff")
    return (han == 0 and len(words) == 1 and len(core) <= 2) or (han > 0 and len(core.replace(" ", "")) <= 1)


def read_cues(text: str) -> Cues:
    return Cues(remember=bool(_REMEMBER.search(text)), flashback=bool(_FLASHBACK.search(text)),
                future=bool(_FUTURE.search(text)), noise=is_noise(text), days=tuple(find_days(text)))


def day_of_time(value: str | None) -> DayRef | None:
    """The calendar day of a message's ``time`` (ISO 8601 or LoCoMo's "1:56 pm on 8 May, 2023")."""
    if not value:
        return None
    days = find_days(value)
    return days[0] if days else None
