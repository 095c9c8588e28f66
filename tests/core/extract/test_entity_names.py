"""Finding entity names offline: greetings and titles are nobody, context decides person or
place, chats state aliases, and partial names are parts of one name."""

from __future__ import annotations

from bme_desktop.core.extract import entities
from bme_desktop.core.extract.names import Mention, NameFinder

FINDER = NameFinder()


def found(text: str, known: tuple[str, ...] = (), **kw: str) -> dict[str, Mention]:
    return {m.name: m for m in FINDER.find(text, known=known, window=text, **kw)}


def test_greetings_interjections_and_bare_titles_are_nobody() -> None:
    text = (
        '"Welcome, traveller!" *she says.* "Hush now. Aye, the road is long." "Blast, this rain." '
        '"Brother, sit with us." "Careful! Alright, alright." The 14th of Harvestmoon came.'
    )
    assert found(text) == {}


def test_shouting_in_capitals_makes_no_names() -> None:
    assert found("STOP RIGHT THERE! GET OUT OF MY HOUSE, NOW!") == {}


def test_a_common_word_is_a_name_only_when_it_acts_like_one() -> None:
    assert found("I hope so. Hope is all we have, and we will wait.") == {}
    names = found("I hope so. We will wait. Hope smiled at Will. Will said nothing.")
    assert names["Hope"].kind == "character" and names["Will"].kind == "character"


def test_context_decides_person_or_place() -> None:
    names = found(
        "Rain drums on the shutters of the Crooked Lantern, the only inn in Thornwick. "
        "Later they rode into Greyfen Marsh, and Kestrel smiled."
    )
    assert names["Crooked Lantern"].kind == "location"
    assert names["Thornwick"].kind == "location"
    assert names["Greyfen Marsh"].kind == "location"
    assert names["Kestrel"].kind == "character"


def test_titles_and_stated_aliases_travel_with_the_name() -> None:
    names = found(
        "Her full name's Kestrel Marrow, but the watchmen call her the Grey Fox. "
        "We owe taxes to Lord Hadrian Mercer, Baron of the valley. Captain Roderick Vale waits."
    )
    assert "Grey Fox" in names["Kestrel Marrow"].aliases
    assert "Baron" in names["Lord Hadrian Mercer"].aliases
    assert "Roderick Vale" in names["Captain Roderick Vale"].aliases


def test_chinese_interjections_and_common_words_are_nobody() -> None:
    text = "他冷笑一声。“老天爷！哎呀，师姐，明白了，多谢。”外面下着小雨。"
    assert {m.kind for m in found(text).values()} <= {"location"} and "冷笑" not in found(text)
    assert "小雨" not in found(text)
    assert "小雨" in found("小雨笑了。", known=("小雨",))


def test_a_speakers_name_is_cut_out_before_tagging() -> None:
    names = found("一个月后，周航冲进图书馆三楼。", known=("周航", "沈念"))
    assert "周航" in names and "周航冲" not in names


def test_chinese_places_are_specific_names_before_a_place_word() -> None:
    names = found("三日后，两人来到清河镇，走进悦来客栈。昨天退房走了，说要去落霞谷。他住男生宿舍7号楼。")
    assert {n for n, m in names.items() if m.kind == "location"} >= {
        "清河镇",
        "悦来客栈",
        "落霞谷",
        "男生宿舍7号楼",
    }
    assert "退房" not in names


def test_chinese_surname_title_forms_and_stated_aliases() -> None:
    names = found(
        "一个圆脸胖子迎出来：“我是这儿的掌柜林福，大家都叫我林老板。”",
        known=("苏青衣", "林远"),
        speaker="苏青衣",
        addressee="林远",
    )
    assert set(names["林福"].aliases) >= {"林掌柜", "林老板"}
    assert "林老板" not in (names.get("苏青衣") or Mention("苏青衣", "character")).aliases


def test_partial_forms() -> None:
    assert entities.partial_of("Roderick", "Captain Roderick Vale")
    assert entities.partial_of("Maestra Weiss", "Maestra Ilona Weiss")
    assert entities.partial_of("Nana", "Nana Ada")
    assert not entities.partial_of("Ashdown Vale", "Sera Ashdown")
    assert entities.partial_of("Greyfen", "Greyfen Marsh", place=True)
    assert not entities.partial_of("Harlow", "Harlow Symphony Hall", place=True)
    assert entities.partial_of("陆师兄", "陆沉") and entities.partial_of("小沈", "沈念")
    assert entities.partial_of("老王", "王老板")
    assert not entities.partial_of("林掌柜", "林师弟")  # a role and a fellow disciple: two people
    assert not entities.partial_of("林远", "林福")
    assert entities.partial_of("寒潭", "后山寒潭", place=True) and entities.partial_of(
        "明德", "明德大学", place=True
    )
    assert entities.keys("Captain Roderick Vale") == {"captain roderick vale", "roderick vale"}
    assert entities.role_title("林掌柜") and not entities.role_title("陆师兄")


def test_emoji_around_a_name_and_mixed_languages() -> None:
    assert entities.keys("🌸Sakura🌸") == entities.keys("Sakura") and entities.keys("⚔️") == {"⚔️"}
    names = found("Hi Sakura! 我们去北京吧? 李雷在上海等我们。Sakura smiled.", known=("🌸Sakura🌸",))
    assert names["Sakura"].kind == "character" and names["李雷"].kind == "character"
    assert names["北京"].kind == "location" and names["上海"].kind == "location"
