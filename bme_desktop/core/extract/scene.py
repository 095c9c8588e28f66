"""Where and when each message happens, offline (English and Chinese).

- **Location**: a place the message moves to ("they ride into Greyfen Marsh", "back at the
  Crooked Lantern", 来到清河镇, 走进悦来客栈) or opens on (a scene header: "*In the common room
  of the Crooked Lantern, …*", "*九月十二号，晚上九点半，明德大学图书馆三楼。*"). A place only
  mentioned ("she vanished in the marsh") does not move the scene. Each event gets the place of
  its reply as its region; the batch's last place becomes the active region.
- **Adjacency**: two places in one sentence with a word of nearness ("the garden right next
  door to Bluebird Coffee", 寒潭就在藏经阁背后, 图书馆门口就是樱花大道) are neighbours.
- **Story time**: a date or time of day ("Saturday the 15th, ten a.m.", "the 14th of
  Harvestmoon", 九月十二号, 三月初三) or a skip ("three days later", 三日后, 第二天) labels the
  message (tense ``ongoing``) and advances the story's time (unless it names a day to come:
  "I'll drive you on Saturday", 下周三要交); a remembered time ("I remember the morning she
  left", "that summer three years ago", 十年前那个雪夜, 高三那年) labels it with tense ``past``
  and leaves the story's time where it was. Not ``flashback``: recall weighs flashback memories
  down for questions that do not ask about the past, and "I started painting three years ago"
  is just what "when did she start painting?" asks for (LoCoMo has dozens of them).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .names import Mention
from .textutil import sentences

_EN_MOVE = re.compile(
    r"\b(?:arriv(?:e|es|ed|ing) (?:at|in)|enter(?:s|ed|ing)?|reach(?:es|ed|ing)?|"
    r"(?:step|steps|stepped|walk|walks|walked|ride|rides|rode|run|runs|ran|hurry|hurries|hurried|head|heads|headed|"
    r"come|comes|came|go|goes|went|get|gets|got|make|makes|made (?:it|our way|their way|his way|her way)) "
    r"(?:back )?(?:in)?to|return(?:s|ed|ing)? to|back (?:at|in)|inside|in the [a-z ]{2,20} of|"
    r"into)\s+(?:the\s+)?$",
    re.I,
)
_ZH_MOVE = re.compile(r"(?:来到|回到|走进|走入|进了|进入|到了|抵达|踏进|赶到|前往|到达|来到了|回到了)$")
_HEADER_HEAD = re.compile(r"^\W*(?:(?:in|at|inside) (?:the )?(?:[a-z ]{2,20} of )?(?:the )?)?$", re.I)
_NEAR = re.compile(
    r"\b(?:next door to|next to|beside|behind|across (?:the \w+ )?from|opposite|near|nearby|at the edge of|"
    r"just past|around the corner from|adjacent to|borders?)\b"
    r"|背后|旁边|隔壁|对面|门口|东边|西边|南边|北边|后面|附近|边上|挨着|紧邻|脚下|山下",
    re.I,
)

_NUM = "[一二三四五六七八九十两几半\\d]+"
_EN_WEEKDAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_EN_MONTH = r"(?:january|february|march|april|may|june|july|august|september|october|november|december)"
_ORDINAL = r"\d{1,2}(?:st|nd|rd|th)"
DATE = re.compile(
    rf"\b{_EN_WEEKDAY}(?:,? (?:the )?{_ORDINAL}|,? {_EN_MONTH} {_ORDINAL})?"
    rf"(?:,? (?:\d{{1,2}}(?::\d{{2}})?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve) "
    r"?[ap]\.?m\.?)?"
    rf"|\b{_EN_MONTH} {_ORDINAL}\b|\bthe {_ORDINAL}(?: of [A-Z][a-z]+)?"
    rf"|{_NUM}月{_NUM}[日号]|{_NUM}月初{_NUM}|(?:星期|周)[一二三四五六日天]"
    rf"|(?:早上|上午|中午|下午|傍晚|晚上|深夜){_NUM}点半?",
    re.I,
)
SKIP = re.compile(
    r"\b(?:(?:a|one|two|three|four|five|six|seven|\d+|a few|several) (?:hours?|days?|nights?|weeks?|months?|"
    r"years?) "
    r"later|the next (?:morning|day|evening|night)|next morning|the following (?:morning|day|week))\b"
    rf"|{_NUM}(?:天|日|夜|周|个月|年|个星期)(?:后|之后|以后|过去了)|第二天|次日|翌日|转眼",
    re.I,
)
FLASHBACK = re.compile(
    r"\b(?:I remember (?:the|when|how)|back when|as a (?:child|kid|girl|boy)|when I was (?:a|\d+|little|"
    r"young)|"
    r"(?:that|one) (?:summer|winter|spring|autumn|fall|night|morning|day) (?:\w+ )?(?:\w+ )?ago|years ago)\b"
    r"|(?:十|几|多|[一二三四五六七八九两])年前|那年|当年|小时候|回想起|想当年|那时候|记得那",
    re.I,
)


FUTURE = re.compile(r"\b(?:will|['’]ll|going to|gonna|shall)\b|要|会|打算|准备|下周|下个月|明天|以后", re.I)


@dataclass
class Scene:
    """What the messages of one batch say about place and time."""

    place: dict[int, str]  # message index -> the place the scene is at from that message on
    adjacency: list[tuple[str, str]]
    time: dict[int, dict[str, str]]  # message index -> story-time record
    now: dict[str, str] | None  # the story's time after the batch (remembered times left out)


def _places(mentions: Sequence[Mention]) -> list[str]:
    return [m.name for m in mentions if m.kind == "location"]


def _moved_to(text: str, places: Sequence[str]) -> str | None:
    """The last place the message moves to or opens on."""
    found: list[tuple[int, str]] = []
    first = sentences(text)[:1]
    for place in places:
        for match in re.finditer(re.escape(place), text):
            before = text[max(0, match.start() - 40) : match.start()]
            if _EN_MOVE.search(before) or _ZH_MOVE.search(before[-4:]):
                found.append((match.start(), place))
            elif (
                first
                and place in first[0]
                and text.lstrip().startswith("*")
                and (
                    _HEADER_HEAD.match(first[0][: first[0].find(place)].lstrip('*“"')) is not None
                    or DATE.search(first[0][: first[0].find(place)])
                )
            ):
                found.append((match.start(), place))  # a scene header: "*In the common room of X, …"
    return max(found)[1] if found else None


def _neighbours(text: str, places: Sequence[str]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for sentence in sentences(text):
        here = sorted({p for p in places if p in sentence}, key=sentence.find)
        if len(here) >= 2 and _NEAR.search(sentence):
            pair = (here[0], here[1])
            if pair not in out:
                out.append(pair)
    return out


def _time_of(text: str) -> dict[str, str] | None:
    flash = FLASHBACK.search(text)
    mark = DATE.search(text) or SKIP.search(text)
    if flash and (mark is None or flash.start() <= mark.start()):
        return {"label": _span(text, flash), "tense": "past"}
    if mark:
        return {"label": _span(text, mark), "tense": "ongoing"}
    return None


def _span(text: str, match: re.Match[str]) -> str:
    """The words around the cue, to the clause's end: "Three days later", "三日后，两人来到清河镇"."""
    start = max(text.rfind(x, 0, match.start()) for x in '.!?。！？*"“”\n') + 1
    ends = [i for i in (text.find(x, match.end()) for x in '.!?。！？*"“”\n,，') if i >= 0]
    return text[start : min(ends) if ends else len(text)].strip()[:120]


def read_scene(messages: Sequence[tuple[int, str, Sequence[Mention]]]) -> Scene:
    """``messages``: (index, text, mentions) of the batch's own messages, in order."""
    scene = Scene({}, [], {}, None)
    for index, text, mentions in messages:
        places = _places(mentions)
        moved = _moved_to(text, places)
        if moved:
            scene.place[index] = moved
        for pair in _neighbours(text, places):
            if pair not in scene.adjacency:
                scene.adjacency.append(pair)
        when = _time_of(text)
        if when:
            scene.time[index] = when
            if when["tense"] != "past" and not FUTURE.search(when["label"]):
                scene.now = when  # "I'll get you there on Saturday" names a day to come, not today
    return scene


def place_at(scene: Scene, index: int) -> str | None:
    """The place of the scene at message ``index`` (the last move at or before it in the batch)."""
    moves = [i for i in scene.place if i <= index]
    return scene.place[max(moves)] if moves else None
