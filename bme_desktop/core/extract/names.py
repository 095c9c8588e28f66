"""Finding names of characters and places in chat text, without a model.

English: capitalised words and short runs of them (``Silver Tavern``, ``Flat 4B``), minus
function words, greetings and interjections, months and weekdays. A name is weighed by its
context over the whole window: a place after "in / at / into / from / near ..." or ending
in a place word (Tavern, Castle, ...) or set beside one ("the Crooked Lantern, the only
inn"); a person before "said / smiled / asked ..." or after a title (Captain, Lady, Mr.).
A capitalised word at the start of a sentence counts only when the name is known (a
speaker) or also appears mid-sentence or in such a context; a common word ("Hope", "Will")
that the window also writes in lower case needs such a context. A title alone ("Brother",
"Captain") is nobody, except "the Baron".
Chinese: jieba part-of-speech tags ``nr``/``nrt``/``nrfg`` (people) and ``ns`` (places) on
a private tagger, kept only when the word is a rare one (jieba's dictionary frequency) or
has a surname; surname + title forms (林掌柜, 陆师兄) and nicknames (小沈, 老王); places as
a specific name before a place word (悦来客栈, 落霞谷, 明德大学图书馆). The speakers' own
names are cut out before tagging, so "周航冲进" cannot become a person "周航冲".
Aliases the chat states travel with a mention ("call her the Grey Fox", "Lord Hadrian
Mercer, Baron of the valley", 掌柜林福, 大家都叫我林老板).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from . import entities as ent
from .textutil import has_han

if TYPE_CHECKING:
    from jieba import Tokenizer
    from jieba.posseg import POSTokenizer

Kind = Literal["character", "location"]

_STOP = frozenset(
    """
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
welcome goodbye bye farewell greetings morning evening night afternoon good great fine nice cool right sure
aye nay yeah yep yup nope nah wow whoa woah oops ouch ugh oof hmm hm huh hah ha haha heh eh er um uh ahh aha
hush shh psst blast damn dammit darn hell heavens gosh jeez geez alas hurrah hooray bravo cheers congrats
alright deal done noted careful look listen wait stop come go quick quickly hurry enough seriously honestly
really definitely absolutely exactly indeed certainly totally literally anyway besides actually obviously
never always sometimes often whatever whoever wherever somehow someone something somewhere nothing nobody
everyone everything everybody anybody anyone sorry excuse pardon thank congratulations happy merry dear
darling sweetie honey babe buddy pal mate friend friends folks guys man dude bro sis kid kids boy girl
ladies gentlemen sir everybody hey yo oi ahoy howdy hiya shit fuck crap legal hide run fight help
""".split()  # noqa: SIM905
)
_NAMEABLE = frozenset(
    {"will", "may", "april", "june", "august", "grace", "faith", "joy", "hope", "mark", "rose"}
)
_PLACE_WORDS = frozenset(
    """
tavern inn castle forest woods city town village river mountain mountains temple palace market street
hall tower library academy harbor harbour port lake cave caves garden gardens bridge square road
kingdom empire valley desert island sea bay shrine church cathedral manor keep fortress camp station
school university hospital cafe café bar shop store park house mansion ruins gate gates district
coffee bakery diner restaurant pub hotel motel apartment apartments flat court lane avenue boulevard plaza
mall center centre studio gym office bank museum theatre theater stadium arena club lodge chapel abbey
monastery marsh swamp fen moor moors hill hills peak pass cliff cliffs canyon glen dale grove meadow meadows
farm ranch mine mines quarry dock docks wharf pier beach coast shore falls springs pond lagoon citadel
sanctum tomb crypt catacombs dungeon prison jail barracks outpost realm province county isle peninsula
highway trail alley heights orchard vineyard plains wastes wilds reach crossing tunnels sewers
""".split()  # noqa: SIM905
)
_PLACE_BEFORE = re.compile(
    r"(?:\b(?:in|at|into|inside|outside|near|towards?|toward|from|across|through|beyond|reached|reach|entered|"
    r"enter|leaving|left|leave|visit(?:ed|ing)?|to the|of the (?:town|city|village|kingdom) of|"
    r"(?:went|go|goes|going|get|got|arrived?|arriving|travell?ed|travel|walked|headed|heading|returned|rode|ran|"
    r"came|moved|moving|fled|drove|drive|flew|fly|flying|back)"
    r"\s+(?:to|from|back to|into))\s+(?:the\s+)?)$",
    re.I,
)
_PERSON_AFTER = re.compile(
    r"^(?:'s?\s+(?:eyes|face|voice|hands?|arms?|smile|jaw|grin|gaze|brother|sister|mother|father|son|daughter|"
    r"wife|husband|friend|grandson|granddaughter|room|ears)\b|,?\s+(?:who|whose)\b|\s+(?:says|said|asks|asked|"
    r"smiles|smiled|grins|grinned|nods|nodded|laughs|laughed|sighs|sighed|whispers|whispered|replies|replied|"
    r"shrugs|shrugged|frowns|frowned|winks|winked|leans|leaned|looks|looked|shakes|shook|giggles|giggled|"
    r"mutters|muttered|beams|beamed|narrows|narrowed|squints|squinted|groans|groaned|yawns|yawned|stretches|"
    r"stretched|hesitates|hesitated|wants|wanted|thinks|thought|knows|knew|told|tells|swore|swears|promised|"
    r"promises|cried|cries|shouted|shouts|turns|turned|stands|stood|sits|sat|walks|walked|runs|ran|gasps|"
    r"gasped|blushes|blushed|texted|texts|called|calls|lives|lived|works|worked|turns)\b)",
    re.I,
)
_PERSON_BEFORE = re.compile(
    r"\b(?:named|name's|name is|i'm|i am|told|tell|asked|ask|met|meet|thank|thanks|with|and|"
    r"(?:my|your|his|her|our|their) (?:sister|brother|mother|father|son|daughter|wife|husband|friend|"
    r"boss|landlord|cousin|uncle|aunt|nana|grandma|grandpa|grandson|granddaughter|roommate|partner),?)\s+$",
    re.I,
)
_APPOSITIVE_PLACE = re.compile(
    r"^,\s+(?:the|a|an|our|my|that)\s+(?:[a-z'-]+\s+){0,3}?(" + "|".join(sorted(_PLACE_WORDS)) + r")\b"
)
_APPOSITIVE_TITLE = re.compile(r"^,\s+(?:the\s+)?([A-Z][a-z]+)(?:\s+of\b|[,.!?;])")
_ALIAS_CUE = re.compile(
    r"\b(?:call(?:s|ed)?|nicknamed|known as|goes by)\s+(?:(me|him|her|them|you)\s+)?(?:the\s+)?"
    r"([A-Z][a-z'’]+(?:\s+[A-Z][a-z'’]+){0,2})"
)
_UP, _LOW = "A-ZÀ-ÖØ-Þ", "a-zß-öø-ÿ'’"
_CAP_RUN = re.compile(
    rf"(?<![\w'’])(?:(?:Mr|Mrs|Ms|Dr|St|Mx)\.\s+)?[{_UP}][{_LOW}]+(?:[ "
    rf"-][{_UP}][{_LOW}]*)*(?:\s+\d+[A-Z]?\b)?"
)
_DATE_BEFORE = re.compile(r"\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?$", re.I)
_SENTENCE_START = re.compile(r"(?:^|[.!?\"“”:;…\n]\s*|\*\s*|[-—(]\s*)$")
_ZH_PERSON = frozenset({"nr", "nrt", "nrfg"})
_ZH_PLACE = frozenset({"ns"})
_ZH_COMMON = 100  # a word jieba's dictionary counts this often is a word, not a name
_ZH_PLACE_COMMON = 200
_ZH_MIN_PLACE = 5  # rarer "places" are mostly jieba's guesses (潭里, 回山)
_ZH_PLACE_HEADS = tuple(
    sorted(
        """
客栈 酒楼 酒馆 茶馆 茶楼 饭馆 饭庄 大道 大街 街 路 巷 胡同 桥 寺 庙 观 宫 殿 阁 楼 塔 堂 院 府 宅 园 馆 房 潭
湖 河
江 海 岛 山 峰 岭 谷 崖 洞 村 镇 城 关 宿舍 图书馆 医院 学校 大学 中学 小学 广场 公园 车站 机场 码头 山庄 书院
山谷
号楼 楼 教学楼 食堂 商场 超市 咖啡馆 咖啡店 书店 花园 庄 寨 坊 台 洲 泉 湾 港 宗 派 门派
""".split(),  # noqa: SIM905
        key=lambda s: (-len(s), s),
    )
)
_ZH_SETTLEMENT = frozenset("城镇村县州府省市国都京乡")
_ZH_NAMED_SUFFIX = frozenset("阁殿楼塔堂院府宫寺庙观潭谷峰宗派")
_ZH_RARE = 20  # a modifier this rare in jieba's dictionary is a name (落霞, 悦来)
_ZH_PLACE_BEFORE = re.compile(
    r"(?:在|到|去|来到|回到|前往|赶往|进了|进入|走进|住在|离开|出了|路过|经过|从|往|向)$"
)
_ZH_ALIAS_CUE = re.compile(
    r"(叫我|叫他|叫她|称我|称他|称她|人称|外号|绰号|又名|号称)[‘“'\"「]?([\u4e00-\u9fff]{2,4})"
)
_ZH_LEADING = "和跟与同对给把被让叫向找问是在"
_ZH_STOP_NAMES = frozenset(
    {
        "老天爷",
        "老天",
        "天哪",
        "天呐",
        "哎呀",
        "拜托",
        "好啦",
        "成交",
        "好嘞",
        "笨蛋",
        "多谢",
        "谢谢",
        "阿姨",
        "师父",
        "师尊",
        "掌门",
        "大家",
        "小姐",
        "公子",
        "少爷",
        "姑娘",
    }
)
_ZH_DHARMA_TITLES = frozenset(
    {"真人", "道长", "道人", "上人", "禅师", "法师", "真君", "散人", "老祖", "尊者", "仙子"}
)
_WORK_TITLE = re.compile(r"[《〈][^》〉]{0,80}[》〉]")  # book-title marks: a work's name


@dataclass(frozen=True)
class Mention:
    name: str
    kind: Kind
    aliases: tuple[str, ...] = ()


_PLACE_SUFFIX = re.compile(
    r"(?:town|ton|burg|burgh|ville|shire|ford|port|haven|field|wood|land|mere|wick)$", re.I
)


def place_word(word: str) -> bool:
    return word.lower() in _PLACE_WORDS


def zh_place_head(name: str) -> str | None:
    """The place word a Chinese name ends with (客栈, 谷, 号楼), if any."""
    return next((h for h in _ZH_PLACE_HEADS if name.endswith(h)), None)


def _place_name(name: str) -> bool:
    last = name.split()[-1]
    if last.lower() in _PLACE_WORDS or (len(last) > 6 and _PLACE_SUFFIX.search(last)):
        return True
    first = name.split()[0].lower()
    return (
        len(name.split()) > 1 and first in _PLACE_WORDS and not ent.is_title(first)
    )  # Castle Mercer, Flat 4B


def _trim(run: str) -> str:
    words = run.replace("’", "'").split()
    while (
        words
        and (words[0].lower() in _STOP or words[0].lower().rstrip("'s") in _STOP)
        and not ent.is_title(words[0])
    ):
        words = words[1:]
    while words and (words[-1].lower() in _STOP or ent.is_title(words[-1])) and len(words) > 1:
        words = words[:-1]
    if words and words[-1].lower() in _STOP:
        words = words[:-1]
    name = " ".join(words)
    return name[:-2] if name.endswith("'s") else name


@dataclass
class _Evidence:
    person: int = 0
    place: int = 0
    mid: bool = False  # seen where a sentence does not start
    lower: bool = False  # the window also writes it in lower case: a common word
    the: bool = False  # "the Sunken Chapel": a thing or a place more than a person


def _evidence(name: str, window: str) -> _Evidence:
    ev = _Evidence()
    if len(name.split()) == 1 and re.search(rf"(?<![\w'’]){re.escape(name.lower())}(?![\w'’])", window):
        ev.lower = True
    for match in re.finditer(rf"(?<![\w'’]){re.escape(name)}(?![\w’]|'(?!s\b))", window):
        before, after = window[: match.start()], window[match.end() :]
        if _SENTENCE_START.search(before) is None:
            ev.mid = True
        if re.search(r"\bthe\s+$", before[-5:], re.I):
            ev.the = True
        if _PLACE_BEFORE.search(before[-48:]) or _APPOSITIVE_PLACE.match(after[:60]):
            ev.place += 1
        if _PERSON_AFTER.match(after[:40]) or _PERSON_BEFORE.search(before[-40:]):
            ev.person += 1
    return ev


def _kind(name: str, ev: _Evidence) -> Kind:
    titles, _ = ent.split_title(name)
    if titles and not _place_name(name):
        return "character"
    if _place_name(name):
        return "location" if ev.person <= ev.place + 1 else "character"
    if ev.place > ev.person:
        return "location"
    if ev.person == 0 and ev.the and len(name.split()) > 1:
        return "location"
    return "character"


class NameFinder:
    """Finds names; holds its own lazily built jieba POS tagger (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pos: POSTokenizer | None = None
        self._jieba: Tokenizer | None = None

    def _tagger(self) -> POSTokenizer:
        if self._pos is None:
            from jieba.posseg import POSTokenizer

            from ..recall.tokenize import shared_jieba

            self._jieba = shared_jieba()
            self._pos = POSTokenizer(self._jieba)
        return self._pos

    def _freq(self, word: str) -> int:
        assert self._jieba is not None
        self._jieba.check_initialized()
        return int(self._jieba.FREQ.get(word) or 0)

    # ------------------------------------------------------------------ Chinese
    def _tag(self, text: str, known: list[str]) -> list[tuple[str, str]]:
        """(word, flag) pairs; the known names are cut out whole (flag ``known``)."""
        names = sorted({k for k in known if len(k) >= 2 and has_han(k)}, key=lambda k: (-len(k), k))
        parts = re.split("(" + "|".join(map(re.escape, names)) + ")", text) if names else [text]
        out: list[tuple[str, str]] = []
        tagger = self._tagger()
        for part in parts:
            if not part:
                continue
            if part in names:
                out.append((part, "known"))
            else:
                out.extend((p.word, p.flag) for p in tagger.cut(part))
        return out

    def _zh_person(self, word: str, flag: str, speakers: set[str]) -> str | None:
        if word in speakers:
            return word
        rest = word[1:]
        if (
            len(word) >= 3
            and word[0] in _ZH_LEADING
            and (ent.zh_form(rest) is not None or rest in speakers or (len(rest) == 2 and rest[0] == rest[1]))
        ):
            word = rest  # 跟林福 -> 林福, 和晴晴 -> 晴晴: a preposition jieba glued to a name
        if len(word) < 2 or len(word) > 4 or word in _ZH_STOP_NAMES or ent.zh_title_only(word):
            return None
        form = ent.zh_form(word)
        if form is not None and (form.title or form.nick):
            return word
        if (
            len(word) == 2
            and word[0] in ent.ZH_NICK_PREFIXES
            and flag.startswith("n")
            and not self._freq(word)
        ):
            return word  # 小桃, 阿福: a nickname jieba's dictionary does not know
        if flag not in _ZH_PERSON:
            return None
        if self._freq(word) >= _ZH_COMMON and (len(word) == 2 or form is None):
            return None  # 明白, 谢谢, 朱砂: words; 林黛玉 is a name the dictionary knows
        if form is None and not (len(word) == 2 and word[0] == word[1]):
            return None  # no surname: 令牌, 寿元; 晴晴-like doubled names pass
        return word

    def _zh_place(self, tokens: list[tuple[str, str]], i: int) -> tuple[str, int] | None:
        """A place name ending at token ``i``: a place word with a specific name before it
        (悦来客栈, 落霞谷, 男生宿舍7号楼) or a rare word ending in one (藏经阁); with the index of
        its first token."""
        word, flag = tokens[i]
        head = next((h for h in _ZH_PLACE_HEADS if word.endswith(h)), None)
        if head is None or not flag.startswith("n") or flag in _ZH_PLACE:
            return None
        if word != head and not (
            len(word) == 2 and self._freq(word) < _ZH_RARE
        ):  # one word ending in a place word
            if len(word) >= 3 and word[-1] in _ZH_NAMED_SUFFIX and self._freq(word) < _ZH_PLACE_COMMON:
                return word, i
            return None
        name, start, specific = word, i, False
        j = i - 1
        while j >= 0 and len(name) < 10:
            w, f = tokens[j]
            numeral = re.fullmatch(r"[0-9A-Za-z]+|号", w) is not None
            leftmost = tokens[start][0]
            if not (leftmost in _ZH_PLACE_HEADS or re.fullmatch(r"[0-9A-Za-z]+|号", leftmost) or start == i):
                break  # 明德大学图书馆 grows left from the place words; 藏经阁 stops it
            if not (numeral or (f.startswith("n") and has_han(w))) or f == "known":
                break
            form = ent.zh_form(w)
            if (
                w in _ZH_STOP_NAMES
                or ent.zh_title_only(w)
                or (form is not None and (form.title or form.nick))
            ):
                break
            if (
                numeral
                or f in ("nr", "nrt", "nrfg", "ns", "nz")
                or self._freq(w) < _ZH_RARE
                or (len(w) >= 2 and len(head) >= 2 and f == "n" and self._freq(w) < _ZH_COMMON * 5)
            ):
                specific = True  # 落霞谷, 7号楼; 樱花大道 (a plain noun before a long place word)
            name, start = w + name, j
            j -= 1
        return (name, start) if specific and name != head else None

    def chinese(self, text: str, known: Iterable[str] = ()) -> list[Mention]:
        if not has_han(text):
            return []
        speakers = {k for k in known if k and has_han(k)}
        text = _WORK_TITLE.sub("，", text)  # 《哈利·波特》 names a book, not a person or a place
        with self._lock:
            tokens = self._tag(text, sorted(speakers))
            out: list[Mention] = []
            used: set[int] = set()
            # places first: a specific name before a place word
            for i in reversed(range(len(tokens))):  # the longest name wins: 明德大学图书馆, not 明德大学
                found = self._zh_place(tokens, i)
                if found is not None:
                    name, start = found
                    if any(k in used for k in range(start, i + 1)):
                        continue
                    used.update(range(start, i + 1))
                    out.append(Mention(name, "location"))
            for i, (word, flag) in enumerate(tokens):
                if i in used or not has_han(word):
                    continue
                nxt = tokens[i + 1][0] if i + 1 < len(tokens) else ""
                prev = tokens[i - 1][0] if i > 0 else ""
                if (
                    word in ent.ZH_SURNAMES
                    and flag.startswith("n")
                    and nxt in ent.ZH_TITLES
                    and i + 1 not in used
                ):
                    used.update((i, i + 1))
                    out.append(Mention(word + nxt, "character"))
                    continue
                if len(word) == 2 and flag.startswith("n") and nxt in _ZH_DHARMA_TITLES and i + 1 not in used:
                    used.update((i, i + 1))
                    out.append(Mention(word + nxt, "character"))  # 玄机真人, 清虚道长
                    continue
                if (
                    flag in ("nr", "nrt")
                    and len(word) in (1, 2)
                    and ent.zh_surname(word)
                    and i + 1 < len(tokens)
                    and tokens[i + 1][1] == "nr"
                    and len(nxt) == 1
                    and nxt not in ent.ZH_SURNAMES
                ):
                    word = word + nxt  # 林子/nr 轩/nr -> 林子轩
                    used.add(i + 1)
                if flag in _ZH_PLACE and len(word) >= 2:
                    freq = self._freq(word)
                    settled = word[-1] in _ZH_SETTLEMENT and (freq > 0 or len(word) >= 3)
                    rare = _ZH_MIN_PLACE <= freq < _ZH_PLACE_COMMON and len(word) >= 3
                    if settled or rare or _ZH_PLACE_BEFORE.search(prev):
                        out.append(Mention(word, "location"))
                    continue
                person = self._zh_person(word, flag, speakers)
                if person is not None:
                    used.add(i)
                    if nxt in ent.ZH_TITLES and ent.zh_form(person) is not None:
                        out.append(Mention(person, "character", (person + nxt,)))
                    elif (
                        prev in ent.ZH_TITLES
                        and ent.zh_form(person) is not None
                        and not ent.zh_title_only(person)
                    ):
                        surname = ent.zh_form(person).surname  # type: ignore[union-attr]
                        out.append(Mention(person, "character", (surname + prev,)))
                    else:
                        out.append(Mention(person, "character"))
        return out

    # ------------------------------------------------------------------ English
    def english(self, text: str, known: set[str], window: str) -> list[Mention]:
        out: list[Mention] = []
        for match in _CAP_RUN.finditer(text):
            before = text[: match.start()]
            name = _trim(match.group())
            if name.lower() not in _STOP and match.group().lower() in _NAMEABLE:
                name = match.group()  # "Will said", "May smiled": a name that is also a word
            if (
                not name
                or len(name) < 2
                or (
                    name.lower() in _STOP
                    and not (name.lower() in _NAMEABLE and _evidence(name, window).person)
                )
            ):
                continue
            if _DATE_BEFORE.search(before[-12:]):
                continue  # "the 14th of Harvestmoon": a month
            titles, core = ent.split_title(name)
            if not core:  # a title alone: "Brother," is nobody; "the Baron", "with Nana" are somebody
                after = text[match.end() : match.end() + 2]
                the = re.search(r"\bthe\s+$", before[-5:], re.I) is not None
                if len(titles) == 1 and (
                    (the and name.lower() not in ent.KIN_TITLES)
                    or (not the and not after.startswith(",") and _evidence(name, window).person)
                ):
                    out.append(Mention(name, "character"))
                continue
            if core.lower() in _STOP and core.lower() not in _NAMEABLE:
                continue
            ev = _evidence(name, window)
            strong = ev.person > 0 or ev.place > 0 or bool(titles) or _place_name(name)
            at_start = _SENTENCE_START.search(before) is not None
            if name.lower() not in known:
                if at_start and not ev.mid and not strong:
                    continue
                if ev.lower and not strong:
                    continue  # "Hope" where the chat also says "hope": a word, unless it acts like a name
            kind: Kind = "character" if name.lower() in known else _kind(name, ev)
            out.append(Mention(name, kind, self._english_aliases(name, match.end(), text)))
        return out

    @staticmethod
    def _english_aliases(name: str, end: int, text: str) -> tuple[str, ...]:
        aliases: list[str] = []
        titles, core = ent.split_title(name)
        if titles and core:
            aliases.append(core)
        m = _APPOSITIVE_TITLE.match(text[end : end + 40])
        if m and ent.is_title(m.group(1)):
            aliases.append(m.group(1))
        return tuple(aliases)

    def _stated_aliases(
        self, text: str, speaker: str | None, addressee: str | None, found: dict[str, Mention]
    ) -> None:
        """Aliases a sentence states: "call her the Grey Fox", "大家都叫我林老板", and a Chinese
        surname form beside the one full name of that surname ("掌柜林福" / "顾言就是顾主席")."""
        for who in (speaker, addressee):
            if who and re.search(r"\bcall(?:s|ed)?\s+(?:me|you)\b|叫我|称我", text):
                found.setdefault(who.lower(), Mention(who, "character"))
        people = [m for m in found.values() if m.kind == "character"]
        for sentence in re.split(r"(?<=[.!?。！？])\s*", text):
            inside = [m for m in people if m.name in sentence]
            cues = [(c.group(1) or "", c.group(2)) for c in _ALIAS_CUE.finditer(sentence)]
            cues += [(c.group(1), c.group(2)) for c in _ZH_ALIAS_CUE.finditer(sentence)]
            for pronoun, alias in cues:
                # a role-play reply voices many people: a name in the sentence owns the alias first
                others = {
                    m.name
                    for m in inside
                    if alias not in m.name and m.name not in alias and m.name not in (speaker, addressee)
                }
                owner = others.pop() if len(others) == 1 else None
                if owner is None and not others:
                    owner = (
                        speaker
                        if pronoun in ("me", "叫我", "称我")
                        else addressee
                        if pronoun == "you"
                        else None
                    )
                self._add_alias(found, owner, alias)
            full = [
                m.name for m in inside if (f := ent.zh_form(m.name)) is not None and f.given and not f.title
            ]
            for m in inside:
                form = ent.zh_form(m.name)
                if form is None or form.given or not (form.title or form.nick):
                    continue
                same = {
                    n for n in full if ent.zh_surname(n) == form.surname and n not in (speaker, addressee)
                }
                if len(same) == 1:
                    self._add_alias(found, same.pop(), m.name)

    @staticmethod
    def _add_alias(found: dict[str, Mention], owner: str | None, alias: str) -> None:
        if not owner or not alias or ent.normal(alias) == ent.normal(owner):
            return
        key = owner.lower()
        m = found.get(key)
        if m is None:
            return
        if alias not in m.aliases:
            found[key] = Mention(m.name, m.kind, (*m.aliases, alias))
        twin = found.get(alias.lower())
        if twin is not None and twin.kind == "character":
            found[alias.lower()] = Mention(twin.name, twin.kind, tuple(dict.fromkeys((*twin.aliases, owner))))

    def find(
        self,
        text: str,
        *,
        known: Iterable[str] = (),
        window: str = "",
        speaker: str | None = None,
        addressee: str | None = None,
    ) -> list[Mention]:
        """Names in ``text`` in order of first appearance, each once. ``known`` names (speakers)
        are always found; ``window`` is the surrounding text used to confirm new names and
        weigh their kind; ``speaker`` and ``addressee`` own "call me ..." / "calls you ..."."""
        known_list = [k for k in known if k]
        known_lower = {k.lower() for k in known_list}
        found: dict[str, Mention] = {}
        for name in known_list:
            if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.I):
                found.setdefault(name.lower(), Mention(name, "character"))
        for mention in self.english(text, known_lower, window or text) + self.chinese(text, known_list):
            key = mention.name.lower()
            if key in found:
                old = found[key]
                merged = tuple(dict.fromkeys((*old.aliases, *mention.aliases)))
                found[key] = Mention(old.name, old.kind, merged)
            else:
                found[key] = mention
        self._stated_aliases(text, speaker, addressee, found)
        order = {key: text.lower().find(key) for key in found}
        return [found[k] for k in sorted(found, key=lambda k: (order[k], k))]
