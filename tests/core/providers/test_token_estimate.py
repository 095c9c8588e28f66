"""estimate_tokens: the documented heuristic ceil(cjk/1.5 + other/4)."""

from __future__ import annotations

from bme_desktop.core.providers import estimate_message_tokens, estimate_tokens
from bme_desktop.core.providers.tokens import count_cjk


def test_empty_text_is_zero_tokens() -> None:
    assert estimate_tokens("") == 0


def test_latin_text_is_a_quarter_of_its_characters_rounded_up() -> None:
    assert estimate_tokens("abcd") == 1
    assert estimate_tokens("abcde") == 2
    assert estimate_tokens("hello world") == 3


def test_cjk_characters_count_as_two_thirds_of_a_token() -> None:
    assert estimate_tokens("你好世界") == 3  # 4 / 1.5 = 2.67
    assert estimate_tokens("你好世界你好") == 4
    assert estimate_tokens("こんにちは") == 4  # kana count as CJK
    assert estimate_tokens("，。") == 2  # full-width punctuation too


def test_mixed_text_adds_both_parts() -> None:
    assert count_cjk("Alice 在图书馆") == 4
    assert estimate_tokens("Alice 在图书馆") == 5  # 4/1.5 + 6/4 = 4.17


def test_chinese_estimates_more_tokens_per_character_than_english() -> None:
    assert estimate_tokens("爱" * 300) > estimate_tokens("a" * 300)


def test_message_estimate_adds_a_per_message_overhead() -> None:
    messages = [{"role": "system", "content": "abcd"}, {"role": "user", "content": "你好世界"}]
    assert estimate_message_tokens(messages) == 1 + 3 + 2 * 4
