"""Cues read from the user's text: greetings and noise, "remember when", named dates, and
flashback/future talk. Plain regular expressions in English and Chinese; no model."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_REMEMBER = re.compile(
    r"之前|以前|上次|上回|那次|那天|曾经|还记得|记不记得|记得吗|你记得|"
    r"\bremember\b|\brecall\b|\blast time\b|\bthat time\b|\bback when\b|\bearlier you\b|\byou (?:said|told|"
    r"mentioned)\b",
    re.IGNORECASE,
)
_FLASHBACK = re.compile(r"回忆|小时候|当年|多年前|\bflashback\b|\byears ago\b|\bas a child\b", re.IGNORECASE)
_FUTURE = re.compile(
    r"将来|未来|以后会|明天|\bwill\b|\btomorrow\b|\bnext (?:week|month|year)\b|\bplan(?:s|ning)? to\b",
    re.IGNORECASE,
)
# The user asks about how things were, not how they are: a replaced fact may answer.
_PAST = re.compile(
    r"以前|原来|过去|曾经|之前|当初|从前|本来|一开始|早先|那时候|"
    r"\b(?:before|used to|previously|originally|at first|formerly|in the past|back then|back when|"
    r"the old days)\b",
    re.IGNORECASE,
)
_PAST_TENSE = re.compile(r"\b(?:did|was|were|had)\b", re.IGNORECASE)  # unless it asks about now:
_NOW = re.compile(
    r"现在|如今|目前|还|\b(?:now|still|these days|nowadays|currently|any ?more|at the moment)\b",
    re.IGNORECASE,
)
_GREETING = re.compile(
    r"^(?:hi+|hey+|hello|yo|sup|ok(?:ay)?|k|thanks?|thank you|thx|lol|haha+|hmm+|yes|no|yeah|nope|sure|"
    r"good (?:morning|night|evening|afternoon)|bye|gn|"
    r"你好|您好|嗨|哈喽|早|早安|早上好|晚安|午安|谢谢|多谢|好的|好|嗯+|哦+|哈+|呵+|行|对|是的|不是|再见|拜拜)$",
    re.IGNORECASE,
)
_QUESTION = re.compile(
    r"^(?:what|when|where|who|whom|whose|which|why|how|did|do|does|is|are|was|were|have|has|had|can|could|"
    r"would|will|should)\b|吗[\s。!！]*$|呢[\s。!！]*$|什么|哪|谁|几|多少|怎么|为什么|是否|有没有",
    re.IGNORECASE,
)
# The kind of memory an input asks about: what someone believes, a promise, a rule, a time, a quest.
_KIND_CUES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "belief",
        re.compile(
            r"以为|认为|觉得|相信|当成|当作|看作|误会|误以为|怀疑|认定|"
            r"\b(?:thinks?|thought|believes?|believed|assumes?|assumed|suspects?|suspected|"
            r"convinced|(?:takes?|took|mistak\w*) (?:me|him|her|them|us|you) for)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "promise",
        re.compile(
            r"答应|承诺|发誓|保证|许诺|说到做到|"
            r"\b(?:promise[sd]?|promising|swore|sworn|swear|vow(?:ed|s)?|pledged?|(?:my|his|her|their) "
            r"word)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "rule",
        re.compile(
            r"规矩|规定|规则|不许|禁止|不得|不准|门禁|戒律|允许|"
            r"\b(?:rules?|laws?|allowed|forbidden|banned|prohibited|permitted|must never)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "time",
        re.compile(
            r"什么时候|哪天|哪一天|几号|几点|哪一年|哪年|多久|何时|几月|"
            r"\b(?:when|what (?:date|day|time|year|month)|which (?:day|date|year|month)|how long)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "thread",
        re.compile(
            r"任务|寻找|下落|目标|调查|追查|"
            r"\b(?:quest|mission|goal|looking for|search(?:ing)? for|hunt(?:ing)? for|mystery)\b",
            re.IGNORECASE,
        ),
    ),
)
_PUNCT_SPACE = re.compile(r"[\s\W_]+", re.UNICODE)

_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        (
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        )
    )
}
_MONTHS.update({m[:3]: i for m, i in list(_MONTHS.items())})
_MONTHS["sept"] = 9
_MONTH_RE = "|".join(sorted(_MONTHS, key=len, reverse=True))
_DATE_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?:(\d{4})\s*年\s*)?(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]"), "ymd"),
    (re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})"), "ymd"),
    (
        re.compile(rf"\b({_MONTH_RE})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s*(\d{{4}}))?", re.IGNORECASE),
        "mdy",
    ),
    (
        re.compile(
            rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_RE})\b\.?(?:,?\s*(\d{{4}}))?", re.IGNORECASE
        ),
        "dmy",
    ),
)
# Whole months: "in June 2023", "June, 2023", "last May", "2023年5月", "去年五月", "上个月".
# A bare "may" is the verb: an English month needs a year after it or a preposition before it
# ("May" itself also needs its capital).
_HAN_NUMBERS = {
    "一": 1,
    "二": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
    "十": 10,
    "十一": 11,
    "十二": 12,
    "正": 1,
    "腊": 12,
}
_HAN_MONTH = "|".join(sorted(_HAN_NUMBERS, key=len, reverse=True))
_MONTH_WORDS = (
    r"\b(?:in|during|since|until|till|by|before|after|through|of|last|this|next|early|late|mid|"
    r"mid-|back in)\s+"
)
_MONTH_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(rf"\b({_MONTH_RE})\b\.?,?\s+(\d{{4}})\b", re.IGNORECASE), "month-year"),
    (re.compile(rf"{_MONTH_WORDS}({_MONTH_RE})\b(?!\s*\d)", re.IGNORECASE), "word-month"),
    (
        re.compile(
            rf"(\d{{4}}\s*年|去年|今年|前年|明年)?\s*(\d{{1,2}}|{_HAN_MONTH})\s*月(?:份)?(?!\s*(?:\d|[一二三四五六七八九十]|初|中|底)*\s*[日号])"
        ),
        "han",
    ),
    (re.compile(r"上个?月|\blast month\b", re.IGNORECASE), "last-month"),
)
_RELATIVE_YEARS = {"去年": -1, "今年": 0, "前年": -2, "明年": 1}


@dataclass(frozen=True)
class DayRef:
    """A calendar day (or, with ``day`` None, a whole month) named in text; ``year`` may be
    unknown."""

    month: int
    day: int | None
    year: int | None = None

    def matches(self, other: DayRef) -> bool:
        same_day = self.month == other.month and (
            self.day is None or other.day is None or self.day == other.day
        )
        return same_day and (self.year is None or other.year is None or self.year == other.year)

    @property
    def is_month(self) -> bool:
        return self.day is None


@dataclass(frozen=True)
class Cues:
    remember: bool = False
    flashback: bool = False
    future: bool = False
    noise: bool = False
    days: tuple[DayRef, ...] = ()  # days and whole months named
    question: bool = False
    past: bool = False  # asks how things were ("what did I like before?", "以前")
    kinds: frozenset[str] = frozenset()  # kinds of memory asked about: belief, promise, rule, time, thread


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
                ref = _valid(
                    int(m.group(3)) if m.group(3) else None, _MONTHS[m.group(1).lower()], int(m.group(2))
                )
            else:
                ref = _valid(
                    int(m.group(3)) if m.group(3) else None, _MONTHS[m.group(2).lower()], int(m.group(1))
                )
            if ref is not None and ref not in found:
                found.append(ref)
    return found


def find_months(text: str, today: DayRef | None = None) -> list[DayRef]:
    """Whole months named in ``text`` ("in June 2023", "last May", "2023年5月", "去年五月",
    "上个月"), as ``DayRef`` with no day. Relative years and "last month" are counted from
    ``today`` (the story's latest day); without it they are left out or yearless."""
    found: list[DayRef] = []
    for pattern, kind in _MONTH_PATTERNS:
        for m in pattern.finditer(text):
            month: int | None = None
            year: int | None = None
            if kind == "month-year":
                if m.group(1) == "may" or m.group(1) == "MAY":
                    continue
                month, year = _MONTHS[m.group(1).lower()], int(m.group(2))
            elif kind == "word-month":
                name = m.group(1)
                if name.lower() == "may" and not name.startswith("M"):
                    continue
                month = _MONTHS[name.lower()]
                if today is not None and m.group(0).lower().startswith("last"):
                    year = today.year - 1 if today.year is not None and month >= today.month else today.year
            elif kind == "han":
                raw, prefix = m.group(2), (m.group(1) or "").replace(" ", "")
                month = int(raw) if raw.isdigit() else _HAN_NUMBERS.get(raw)
                if prefix.endswith("年") and prefix[:4].isdigit():
                    year = int(prefix[:4])
                elif prefix in _RELATIVE_YEARS:
                    if today is None or today.year is None:
                        continue
                    year = today.year + _RELATIVE_YEARS[prefix]
            elif today is not None:  # last month
                month = today.month - 1 or 12
                year = None if today.year is None else today.year - (1 if today.month == 1 else 0)
            if month is None or not 1 <= month <= 12:
                continue
            ref = DayRef(month, None, year)
            if ref not in found:
                found.append(ref)
    return found


def looks_binary(text: str) -> bool:
    """Mostly control characters, replacement characters or unassigned code points."""
    if not text:
        return False
    sample = text[:4000]
    bad = sum(
        1
        for ch in sample
        if ch == "\ufffd" or (unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn") and ch not in "\n\r\t")
    )
    return bad > 0.2 * len(sample)


def clean_input(text: str, limit: int) -> str:
    """The text recall works on: control characters dropped, at most ``limit`` characters."""
    head = text[: limit * 2]
    kept = "".join(
        ch for ch in head if ch in "\n\t" or unicodedata.category(ch) not in ("Cc", "Cs", "Co", "Cn")
    )
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


def is_question(text: str) -> bool:
    """The user asks something: a question mark, a question word first, or a Chinese
    question particle or word."""
    stripped = text.strip()
    return bool(stripped) and (stripped.endswith(("?", "？")) or bool(_QUESTION.search(stripped)))


def read_cues(text: str, today: DayRef | None = None) -> Cues:
    """The cues of ``text``; ``today`` (the story's latest day) resolves "去年五月", "last May"."""
    days = find_days(text)
    days += [m for m in find_months(text, today) if not any(d.month == m.month for d in days)]
    return Cues(
        remember=bool(_REMEMBER.search(text)),
        flashback=bool(_FLASHBACK.search(text)),
        future=bool(_FUTURE.search(text)),
        noise=is_noise(text),
        days=tuple(days),
        question=is_question(text),
        kinds=asked_kinds(text),
        past=bool(_PAST.search(text)) or bool(_PAST_TENSE.search(text) and not _NOW.search(text)),
    )


def asked_kinds(text: str) -> frozenset[str]:
    """The kinds of memory ``text`` asks about ("what does she think…" → belief, "did I keep my
    promise" → promise, 规矩 → rule, "when…"/什么时候 → time, "the quest" → thread)."""
    return frozenset(kind for kind, pattern in _KIND_CUES if pattern.search(text))


def day_of_time(value: str | None) -> DayRef | None:
    """The calendar day of a message's ``time`` (ISO 8601 or LoCoMo's "1:56 pm on 8 May, 2023")."""
    if not value:
        return None
    days = find_days(value)
    return days[0] if days else None
