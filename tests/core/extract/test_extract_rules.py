"""Rules of the world from rule-like statements only (English and Chinese)."""

from __future__ import annotations

import pytest

from bme_desktop.core.extract.cleaning import PreparedMessage
from bme_desktop.core.extract.heuristic import ChatInfo, HeuristicExtractor
from bme_desktop.core.extract.rules import is_rule, rules_in
from bme_desktop.core.extract.textutil import sentences

CHAT = ChatInfo(character="Sera", user="Tomas")


def rules_of(text: str) -> list[str]:
    plan = HeuristicExtractor().extract(
        [
            PreparedMessage(1, "user", None, "Hello.", False),
            PreparedMessage(2, "assistant", None, text, False),
        ],
        CHAT,
    )
    return [op.fields["constraint"] for op in plan.ops if op.type == "rule"]


@pytest.mark.parametrize(
    "sentence",
    [
        "No blade or arrow may be drawn inside these walls.",
        "Outsiders are forbidden to enter the archive.",
        "The drowned dead cannot cross running water.",
        "藏经阁内不得点明火，违者逐出宗门。",
        "灵力耗尽时强行施法，会折损寿元。",
        "宿舍十一点门禁。",
    ],
)
def test_prohibitions_obligations_and_costs_with_a_generic_subject_are_rules(sentence: str) -> None:
    assert is_rule(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "It must be tough.",
        "You must be so proud of them!",
        "I can't wait to see it.",
        "Never saw this coming.",
        "Must've taken you ages to design it.",
        "You must try the cake!",
        "The ticket costs 20 dollars.",
        "你必须好好休息。",
        "我不能再熬夜了。",
        "至少有一道让你称赞得不得了的菜吧。",
    ],
)
def test_empathy_guesses_wishes_and_orders_to_one_person_are_not_rules(sentence: str) -> None:
    assert not is_rule(sentence)


def test_a_character_as_subject_makes_a_statement_about_someone_not_a_rule() -> None:
    assert is_rule("Strangers must leave before dusk.")
    assert not is_rule("Marcus must leave before dusk.", names=["Marcus"])


def test_a_sentence_that_names_a_rule_joins_the_rule_it_introduces() -> None:
    said = sentences("You know the building rule. No pets anywhere in Maple Court. He'd evict us.")
    assert rules_in(said) == [(0, "You know the building rule. No pets anywhere in Maple Court.")]


def test_a_rule_named_and_stated_after_a_colon_is_one_rule() -> None:
    assert rules_of("You should know the first law of the marsh: magic out there costs life force.") == [
        "You should know the first law of the marsh: magic out there costs life force."
    ]
    assert rules_of("你先记住规矩：藏经阁内不得点明火。") == ["你先记住规矩：藏经阁内不得点明火。"]


def test_a_prohibition_is_a_rule_even_beside_a_remember_cue() -> None:
    assert rules_of("记住，陈教授的课迟到三次直接挂科。") == ["记住，陈教授的课迟到三次直接挂科。"]
    assert rules_of("Remember: no one may leave the keep after dark.") == [
        "Remember: no one may leave the keep after dark."
    ]


def test_a_question_tagged_on_a_rule_is_left_out_of_it() -> None:
    assert rules_of("宿舍十一点门禁，你住哪栋？") == ["宿舍十一点门禁"]
