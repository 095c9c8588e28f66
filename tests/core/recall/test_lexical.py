"""The incremental BM25 index."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bme_desktop.core.recall.lexical import BM25Index
from bme_desktop.core.recall.tokenize import TextTokenizer

DOCS = {
    "pottery": "Melanie signed up for a pottery class and made a bowl",
    "adoption": "Caroline has been researching adoption agencies",
    "beach": "We went camping near the beach with the kids",
    "guitar": "John plays the guitar in a band on weekends",
}


def make_index(**kwargs: object) -> BM25Index:
    index = BM25Index(**kwargs)  # type: ignore[arg-type]
    for doc_id, text in DOCS.items():
        index.add(doc_id, text)
    return index


def test_obviously_relevant_document_ranks_first() -> None:
    hits = make_index().search("When did Melanie go to her pottery class?")
    assert hits[0].doc_id == "pottery"


def test_scores_lie_in_unit_interval_and_best_is_one_with_max_normalisation() -> None:
    hits = make_index().search("camping with kids near the pottery beach")
    assert all(0.0 <= h.score <= 1.0 for h in hits)
    assert hits[0].score == pytest.approx(1.0)


def test_bound_normalisation_stays_in_unit_interval_below_one() -> None:
    hits = make_index(normalisation="bound").search("guitar band weekends")
    assert hits[0].doc_id == "guitar"
    assert 0.0 < hits[0].score < 1.0


def test_non_matching_documents_are_not_returned() -> None:
    assert [h.doc_id for h in make_index().search("guitar")] == ["guitar"]


def test_k_limits_the_number_of_hits() -> None:
    assert len(make_index().search("the kids pottery guitar adoption", k=2)) == 2


def test_removed_document_is_no_longer_found() -> None:
    index = make_index()
    assert index.remove("pottery")
    assert index.search("pottery") == []
    assert "pottery" not in index and len(index) == 3


def test_removing_an_unknown_id_reports_false() -> None:
    assert not make_index().remove("nope")


def test_update_replaces_the_old_text() -> None:
    index = make_index()
    index.update("guitar", "John now plays the violin")
    assert index.search("guitar") == []
    assert index.search("violin")[0].doc_id == "guitar"


def test_changes_after_a_bulk_merge_are_seen() -> None:
    index = BM25Index()
    index.add_many(DOCS.items())
    index.remove("beach")
    index.add("sailing", "Sailing on the lake at the beach")
    assert [h.doc_id for h in index.search("beach")] == ["sailing"]


def test_many_incremental_changes_agree_with_a_fresh_index() -> None:
    churned = BM25Index()
    for i in range(1500):
        churned.add(f"d{i}", f"topic{i % 37} common words number {i}")
    for i in range(0, 1500, 3):
        churned.remove(f"d{i}")
    for i in range(1, 1500, 3):
        churned.update(f"d{i}", f"topic{(i + 1) % 37} changed words")
    fresh = BM25Index()
    for i in range(1500):
        if i % 3 == 1:
            fresh.add(f"d{i}", f"topic{(i + 1) % 37} changed words")
        elif i % 3 == 2:
            fresh.add(f"d{i}", f"topic{i % 37} common words number {i}")
    query = "topic5 changed"
    assert [(h.doc_id, round(h.score, 9)) for h in churned.search(query, k=20)] == [
        (h.doc_id, round(h.score, 9)) for h in fresh.search(query, k=20)
    ]


def test_title_field_outweighs_body() -> None:
    index = BM25Index()
    index.add("titled", {"title": "Bowl", "body": "a thing Melanie made in class"})
    index.add("mentioned", {"title": "Class", "body": "a bowl Melanie made in class"})
    assert index.search("bowl")[0].doc_id == "titled"


def test_exact_name_in_query_is_found() -> None:
    index = BM25Index()
    index.add("n1", {"title": "Pottery Class", "body": "weekly"})
    index.add("n2", {"title": "Al", "body": "a friend"})
    index.add("n3", {"title": "科幻电影", "body": "推荐"})
    assert index.exact_name_hits("Tell me about the pottery class again") == ["n1"]
    assert index.exact_name_hits("I also like it") == []  # "Al" only as a whole word
    assert index.exact_name_hits("那部科幻电影叫什么") == ["n3"]


def test_names_of_every_length_are_found_and_names_sharing_a_prefix_stay_apart() -> None:
    index = BM25Index()
    titles = {
        "two": "小明",
        "three": "张小明",
        "four": "Mira",
        "long": "Miranda Hall",
        "longer": "Miranda Hallway",
    }
    for doc_id, title in titles.items():
        index.add(doc_id, {"title": title, "body": "x"})
    assert index.exact_name_hits("小明和张小明去找 Miranda Hall") == ["two", "three", "long"]
    assert index.exact_name_hits("Mira met Miranda Hallway") == ["four", "longer"]
    index.remove("long")
    assert index.exact_name_hits("Miranda Hall and Miranda Hallway") == ["longer"]


def test_exact_name_boost_lifts_the_named_document_first() -> None:
    index = BM25Index(field_weights={"title": 0.0, "body": 1.0})  # names matter only through the boost
    index.add("named", {"title": "Bluebird", "body": "the cafe on Main Street"})
    index.add("chatty", {"title": "note", "body": "bluebird bluebird song sung every morning, a bluebird"})
    assert index.search("where is bluebird")[0].doc_id == "chatty"
    boosted = index.search("where is bluebird", name_boost=0.5)
    assert boosted[0].doc_id == "named"
    assert all(0.0 <= h.score <= 1.0 for h in boosted)


def test_removed_document_loses_its_name() -> None:
    index = BM25Index()
    index.add("n1", {"title": "Pottery Class", "body": "weekly"})
    index.remove("n1")
    assert index.exact_name_hits("pottery class") == []


def test_chinese_documents_rank_by_shared_words() -> None:
    index = BM25Index(TextTokenizer(chinese="jieba+bigram"))
    index.add("film", "我给你推荐过一部科幻电影，叫星际穿越")
    index.add("food", "今天中午吃了火锅，很好吃")
    assert index.search("我推荐过的科幻电影叫什么？")[0].doc_id == "film"


def test_empty_index_and_empty_query_return_nothing() -> None:
    assert BM25Index().search("anything") == []
    assert make_index().search("the of and") == []


def test_single_character_chinese_query_finds_the_word() -> None:
    index = BM25Index()
    index.add("cat", "我家的猫很可爱")
    index.add("dog", "邻居养了一只小狗")
    assert [h.doc_id for h in index.search("猫")] == ["cat"]


_WORDS = ["apple", "banana", "cherry", "dog", "egg", "fig", "grape", "猫", "科幻", "电影"]


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["add", "remove", "merge"]),
            st.integers(0, 7),
            st.lists(st.sampled_from(_WORDS), min_size=1, max_size=6),
        ),
        max_size=40,
    ),
    st.lists(st.sampled_from(_WORDS), min_size=1, max_size=3),
)
def test_any_sequence_of_changes_scores_like_a_fresh_index(
    operations: list[tuple[str, int, list[str]]], query_words: list[str]
) -> None:
    churned = BM25Index(TextTokenizer(chinese="bigram"))
    final: dict[str, str] = {}
    for operation, number, words in operations:
        doc_id = f"d{number}"
        if operation == "add":
            churned.add(doc_id, " ".join(words))
            final[doc_id] = " ".join(words)
        elif operation == "remove":
            assert churned.remove(doc_id) == (final.pop(doc_id, None) is not None)
        else:
            churned.add_many([])  # folds pending changes into the main matrix
    fresh = BM25Index(TextTokenizer(chinese="bigram"))
    for doc_id, text in sorted(final.items()):
        fresh.add(doc_id, text)
    query = " ".join(query_words)
    got = {h.doc_id: round(h.score, 9) for h in churned.search(query, k=10)}
    want = {h.doc_id: round(h.score, 9) for h in fresh.search(query, k=10)}
    assert got == want
