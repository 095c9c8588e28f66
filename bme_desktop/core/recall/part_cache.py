"""First-stage results per query part, kept while the index they came from is unchanged.

Consecutive recalls of a chat share query parts (the last reply and the previous input stay
the same until the next turn; a swipe repeats everything; ``prepare`` computes them while
the user types), and a part's BM25 or cosine candidates depend only on its text and on the
index. Each entry is stamped with the index's version: any change to the index (a memory
added, removed or re-worded) makes it stale. A recall hit changes neither index."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

V = TypeVar("V")
SIZE = 64


class PartCache(Generic[V]):
    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._entries: OrderedDict[tuple[str, str], tuple[Hashable, V]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, kind: str, text: str, version: Hashable) -> V | None:
        with self._lock:
            found = self._entries.get((kind, text))
            if found is None or found[0] != version:
                return None
            self._entries.move_to_end((kind, text))
            return found[1]

    def put(self, kind: str, text: str, version: Hashable, value: V) -> None:
        with self._lock:
            self._entries[(kind, text)] = (version, value)
            self._entries.move_to_end((kind, text))
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
