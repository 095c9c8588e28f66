"""The contract every embedder meets (remote OpenAI-compatible, local offline, test doubles).

Keep this Protocol minimal and stable: the recall pipeline and the vector cache depend on it.

* ``name`` identifies the model that produced the vectors. Stored next to cached vectors;
  when it changes, the cache is invalid and memories are re-embedded.
* ``dim`` is the vector dimension, or ``None`` until the first call has revealed it.
* ``embed(texts)`` returns a ``float32`` array of shape ``(len(texts), dim)``, row ``i`` for
  ``texts[i]``, each row L2-normalised (an all-zero row stays zero). An empty input returns
  shape ``(0, dim or 0)``. Errors are :class:`~.errors.LLMError` subclasses.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

EmbeddingMatrix = npt.NDArray[np.float32]


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors."""

    @property
    def name(self) -> str: ...

    @property
    def dim(self) -> int | None: ...

    def embed(self, texts: Sequence[str]) -> EmbeddingMatrix: ...
