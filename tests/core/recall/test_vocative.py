"""The addressee: a known name called out at the start or end of the input is who is spoken to,
not what is asked about (recall/vocative.py)."""

from __future__ import annotations

from bme_desktop.core.recall.vocative import addressee

NAMES = {"sera", "jordan", "林老板"}


def is_name(name: str) -> bool:
    return name.lower() in NAMES


def test_a_known_name_called_out_first_or_last_is_left_out_of_the_query() -> None:
    assert addressee("Sera, what is my actual profession?", is_name).text == "what is my actual profession?"
    assert addressee("What instrument do I play, Jordan?", is_name).text == "What instrument do I play?"
    assert addressee("林老板，今天有什么好菜？", is_name).text == "今天有什么好菜？"


def test_an_unknown_word_before_a_comma_stays() -> None:
    for text in (
        "Well, what is my actual profession?",
        "Yesterday, where did we sleep?",
        "Who took the Moonstone Chalice, and where did she leave it?",
    ):
        said = addressee(text, is_name)
        assert said.text == text and said.name is None


def test_a_name_that_is_the_whole_question_stays() -> None:
    assert addressee("Sera, hi", is_name).text == "Sera, hi"


def test_asking_the_addressee_about_themselves_keeps_the_name_they_are_asked_by() -> None:
    said = addressee("What are you afraid of, Jordan?", is_name)
    assert said.about_addressee and said.text == "What are you afraid of, Jordan?"
    assert addressee("Sera, what do you think Roderick did?", is_name).about_addressee
    assert not addressee("Sera, what is my profession?", is_name).about_addressee
