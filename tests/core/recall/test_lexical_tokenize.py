"""The lexical tokenizer: English words, stop words, stems, Chinese words and bigrams."""

from __future__ import annotations

import pytest

from bme_desktop.core.recall.tokenize import TextTokenizer, light_stem


def test_english_is_lowercased_and_split_on_non_alphanumerics() -> None:
    assert TextTokenizer(stemmer="none").tokens("Pottery-CLASS, 2023!") == ["pottery", "class", "2023"]


def test_english_stop_words_are_dropped() -> None:
    tokens = TextTokenizer(stemmer="none").tokens("What did she do with the dog at the park")
    assert tokens == ["dog", "park"]


def test_stop_words_can_be_kept() -> None:
    assert "the" in TextTokenizer(remove_stop_words=False).tokens("the dog")


@pytest.mark.parametrize(
    ("word", "stem"),
    [("running", "run"), ("paintings", "paint"), ("studies", "study"), ("camped", "camp"), ("kids", "kid")],
)
def test_light_stemmer_strips_common_suffixes(word: str, stem: str) -> None:
    assert light_stem(word) == stem


def test_inflections_share_a_term() -> None:
    tokenizer = TextTokenizer()
    assert tokenizer.tokens("painting") == tokenizer.tokens("paints")


def test_chinese_bigrams_overlap() -> None:
    assert TextTokenizer(chinese="bigram").tokens("科幻电影") == ["科幻", "幻电", "电影"]


def test_chinese_single_character_run_is_kept_unless_a_stop_word() -> None:
    tokenizer = TextTokenizer(chinese="bigram")
    assert tokenizer.tokens("猫") == ["猫"]
    assert tokenizer.tokens("的") == []


def test_jieba_segments_words_and_drops_chinese_stop_words() -> None:
    tokens = TextTokenizer(chinese="jieba").tokens("我推荐了一部科幻电影")
    assert "科幻" in tokens and "电影" in tokens
    assert "我" not in tokens and "了" not in tokens


def test_jieba_plus_bigram_yields_both_kinds_of_terms() -> None:
    tokens = TextTokenizer(chinese="jieba+bigram").tokens("星际穿越")
    assert "星际" in tokens and "际穿" in tokens


def test_mixed_text_keeps_both_scripts_in_order() -> None:
    assert TextTokenizer(chinese="bigram", stemmer="none").tokens("我爱Python编程") == [
        "我爱",
        "python",
        "编程",
    ]


def test_full_width_forms_are_normalised() -> None:
    assert TextTokenizer(stemmer="none").tokens("ＡＢＣ１２３") == ["abc123"]


def test_tokenizing_is_deterministic_across_instances() -> None:
    text = "Caroline 去了 LGBTQ 支持小组, 感觉很有力量"
    assert TextTokenizer(chinese="jieba+bigram").tokens(text) == TextTokenizer(chinese="jieba+bigram").tokens(
        text
    )
