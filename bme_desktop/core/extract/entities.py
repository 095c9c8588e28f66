"""Entity names: titles, aliases and when two names are the same character or place.

Pure functions (no graph, no clock), shared by the name finder (which proposes names and
the aliases a chat states: "Captain Roderick Vale", "call me Mags", 掌柜林福) and the applier
(which resolves a proposed name against the memories already written: entity resolution on
write).

Forms of a name (its *keys*): the name itself, lower-cased, and without its leading titles
("Captain Roderick Vale" -> "roderick vale"). Two names are the same entity when their keys
meet (also through stored aliases). Beyond that, a *partial* name ("Roderick", "Vale",
陆师兄, 小沈) joins the one existing entity it can be part of; when several could be meant it
joins none.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from .textutil import has_han

ALIASES_FIELD = "aliases"
ALIAS_SEPARATOR = "; "
MAX_ALIASES = 12

# Titles and honorifics that stand before an English name.
EN_TITLES = frozenset(
    """
mr mrs ms miss mx dr doctor prof professor sir dame lord lady master mistress madam madame mme mlle monsieur
king queen prince princess emperor empress duke duchess baron baroness count countess earl marquis viscount
captain capt general gen colonel col major sergeant sgt lieutenant lt commander admiral officer detective
inspector chief sheriff marshal constable agent
father mother brother sister aunt auntie uncle grandma grandpa granny gramps nana papa mama
elder saint st abbot abbess bishop reverend rev priest priestess friar pastor
maestro maestra coach nurse ser
""".split()  # noqa: SIM905
)

KIN_TITLES = frozenset({"mother", "father", "brother", "sister", "sir", "lady", "lord", "dame", "master"})

# Chinese titles after a surname (林掌柜, 陆师兄, 陈教授). Relational ones are how the speakers
# address one another; the others name a role, rarely the role of a speaker of the chat.
ZH_RELATIONAL_TITLES = (
    "师兄",
    "师姐",
    "师弟",
    "师妹",
    "学长",
    "学姐",
    "学弟",
    "学妹",
    "大哥",
    "二哥",
    "大姐",
    "哥哥",
    "姐姐",
    "妹妹",
    "弟弟",
    "哥",
    "姐",
    "兄",
    "妹",
    "弟",
)
ZH_ROLE_TITLES = (
    "掌柜",
    "老板",
    "老板娘",
    "教授",
    "主席",
    "老师",
    "医生",
    "大夫",
    "先生",
    "小姐",
    "夫人",
    "太太",
    "将军",
    "大人",
    "公子",
    "姑娘",
    "队长",
    "经理",
    "主任",
    "总管",
    "师傅",
    "师父",
    "掌门",
    "长老",
    "护法",
    "真人",
    "道长",
    "大师",
    "捕头",
    "县令",
    "员外",
    "少爷",
    "同学",
    "阿姨",
    "叔叔",
    "伯伯",
    "奶奶",
    "爷爷",
    "校长",
    "院长",
    "局长",
    "班长",
    "总",
    "董",
)
ZH_TITLES = tuple(sorted({*ZH_RELATIONAL_TITLES, *ZH_ROLE_TITLES}, key=lambda s: (-len(s), s)))
ZH_NICK_PREFIXES = ("小", "老", "阿")

# Common Chinese surnames (the frequent single ones and the usual compound ones).
ZH_COMPOUND_SURNAMES = frozenset(
    {
        "欧阳",
        "司马",
        "上官",
        "诸葛",
        "东方",
        "慕容",
        "令狐",
        "皇甫",
        "南宫",
        "西门",
        "独孤",
        "公孙",
        "长孙",
        "宇文",
        "司徒",
        "夏侯",
        "轩辕",
        "端木",
        "尉迟",
        "百里",
        "呼延",
        "东郭",
        "澹台",
        "公冶",
        "太史",
        "申屠",
    }
)
ZH_SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈"
    "姚卢姜崔钟谭陆汪范金石廖贾夏韦付傅方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向"
    "汤常温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单"
    "季裴霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦麦褚娄"
    "窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂全佟应臧闵苟邬边卞姬师仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻"
    "苑迟邝楚萧燕慕容花云柳风"
)

_WORD = re.compile(r"[\w'’.-]+")
_DECORATION = re.compile(r"^[^\w\u3400-\u9fff]+|[^\w\u3400-\u9fff.]+$")


@dataclass(frozen=True)
class ZhForm:
    """A Chinese name split into surname, the rest, and a title or nickname prefix."""

    surname: str
    given: str = ""
    title: str = ""
    nick: bool = False  # 小沈, 老王: a surname with a nickname prefix

    @property
    def relational(self) -> bool:
        return self.nick or self.title in ZH_RELATIONAL_TITLES


def zh_surname(name: str) -> str:
    if name[:2] in ZH_COMPOUND_SURNAMES:
        return name[:2]
    return name[:1] if name[:1] in ZH_SURNAMES else ""


def zh_form(name: str) -> ZhForm | None:
    """``林掌柜`` -> (林, title 掌柜); ``小沈`` -> (沈, nick); ``林福`` -> (林, given 福); else None."""
    if not name or not has_han(name) or len(name) > 6:
        return None
    if len(name) == 2 and name[0] in ZH_NICK_PREFIXES and name[1] in ZH_SURNAMES:
        return ZhForm(name[1], nick=True)
    surname = zh_surname(name)
    if not surname:
        return None
    rest = name[len(surname) :]
    for title in ZH_TITLES:
        if rest.endswith(title):
            given = rest[: -len(title)]
            return ZhForm(surname, given, title) if len(given) <= 2 else None
    return ZhForm(surname, rest) if 1 <= len(rest) <= 2 else None


def zh_title_only(word: str) -> bool:
    """师姐, 掌柜的, 老板: a title alone names nobody in particular."""
    bare = word[:-1] if word.endswith("的") else word
    return bare in ZH_TITLES or bare in {"老天爷", "老天", "天哪", "天呐", "贵客", "客官", "小二"}


def split_title(name: str) -> tuple[list[str], str]:
    """Leading English titles and the rest: "Captain Roderick Vale" -> (["Captain"], "Roderick Vale")."""
    words = name.split()
    titles: list[str] = []
    while words and words[0].lower().rstrip(".") in EN_TITLES:
        titles.append(words.pop(0))
    return titles, " ".join(words)


def is_title(word: str) -> bool:
    return word.lower().rstrip(".") in EN_TITLES


def normal(name: str) -> str:
    """The comparison form of a name: lower-cased, squeezed, curly apostrophes straightened,
    emoji and symbols around it dropped, a leading article removed ("the Grey Fox" = "Grey Fox")."""
    text = " ".join(name.replace("’", "'").split()).lower()
    bare = _DECORATION.sub("", text)
    text = bare or text  # "🌸Sakura🌸" is Sakura; a name of emoji alone stays itself
    for article in ("the ", "a ", "an "):
        if text.startswith(article):
            text = text[len(article) :]
    return text


def keys(name: str) -> set[str]:
    """The forms under which ``name`` is the same entity as another name."""
    base = normal(name)
    if not base:
        return set()
    out = {base}
    if has_han(base):
        return out
    titles, core = split_title(base)
    if titles and core:
        out.add(core)
    return out


def aliases_of(fields: dict[str, str]) -> list[str]:
    raw = fields.get(ALIASES_FIELD, "")
    return [a.strip() for a in raw.split(ALIAS_SEPARATOR.strip()) if a.strip()]


def with_aliases(fields: dict[str, str], names: Iterable[str], name_field: str = "name") -> str:
    """The ``aliases`` value after adding ``names`` (not the entity's own name; no repeats,
    first ones kept; at most :data:`MAX_ALIASES`)."""
    own = normal(fields.get(name_field, ""))
    out: list[str] = []
    seen = {own}
    for alias in [*aliases_of(fields), *names]:
        key = normal(alias)
        if key and key not in seen:
            seen.add(key)
            out.append(" ".join(alias.split()))
    return ALIAS_SEPARATOR.join(out[:MAX_ALIASES])


def all_keys(name: str, aliases: Iterable[str]) -> set[str]:
    out = keys(name)
    for alias in aliases:
        out |= keys(alias)
    return out


def _tokens(name: str) -> list[str]:
    _, core = split_title(normal(name))
    return [w.strip(".'") for w in _WORD.findall(core) if w.strip(".'")]


def _zh_place_partial(short: str, full: str) -> bool:
    """寒潭 of 后山寒潭, 7号楼 of 男生宿舍7号楼 (the end of the name), 青云 of 青云宗 / 明德 of
    明德大学 (the name without its place word)."""
    from .names import zh_place_head  # the place words live with the name finder

    if len(short) < 2 or len(short) >= len(full):
        return False
    if full.endswith(short):
        return zh_place_head(short) is not None
    return (
        full.startswith(short) and zh_place_head(short) is None and zh_place_head(full) == full[len(short) :]
    )


def partial_of(short: str, full: str, place: bool = False) -> bool:
    """Whether ``short`` can be a partial form of ``full``: English, its words are some of
    the other's words ("Roderick" of "Captain Roderick Vale", "Maestra Weiss" of "Ilona
    Weiss"); Chinese, a surname form of the same surname (陆师兄 / 小沈 / 王老板 of 陆沉 /
    沈念 / 老王) or the given name (青衣 of 苏青衣)."""
    if normal(short) == normal(full):
        return False
    if has_han(short) or has_han(full):
        if place:
            return _zh_place_partial(short, full)
        a, b = zh_form(short), zh_form(full)
        if a is not None and b is not None and a.surname == b.surname:
            if a.given and b.given:
                return False  # two different full names
            if not a.given and not b.given:  # 老王 / 王老板 yes; 林掌柜 / 林师弟 are two people
                return a.nick or b.nick or a.title == b.title
            return True
        return (
            len(short) >= 2
            and full.endswith(short)
            and zh_surname(full) != ""
            and len(full) - len(short) == len(zh_surname(full))
        )
    titles, core = split_title(normal(short))
    if len(titles) == 1 and not core:  # "Nana" of "Nana Ada", "Captain" of "Captain Vale"
        return split_title(normal(full))[0][:1] == titles
    small, big = _tokens(short), _tokens(full)
    if not small or len(small) > len(big):
        return False
    if any(len(w) < 2 for w in small):
        return False
    if place:  # "Greyfen" of "Greyfen Marsh"; "Harlow" is not "Harlow Symphony Hall"
        from .names import place_word

        return set(small) <= set(big) and all(place_word(w) for w in big if w not in small)
    return set(small) <= set(big)


def role_title(short: str) -> bool:
    """A Chinese surname with a role title (林掌柜, 陈教授): it names a role, so it joins a full
    name only when the chat says so, never a speaker by its surname alone."""
    form = zh_form(short) if has_han(short) else None
    return form is not None and bool(form.title) and not form.relational and not form.given
