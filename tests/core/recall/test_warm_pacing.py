"""While a chat is being imported (extracted with a long backlog), the recall warmer rebuilds its
graph at most every ``WARM_EVERY_S``; otherwise after every change. The clock and the rest are
the test's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bme_desktop.core.recall.prefetch import WARM_EVERY_S, RecallWarmer


class Events:
    def on(self, kinds: object, handler: object) -> Callable[[], None]:
        return lambda: None


class Service:
    closed = False
    events = Events()

    def on_close(self, callback: object) -> None:
        pass


class Recaller:
    def __init__(self) -> None:
        self.log: list[str] = []
        self.imports: set[str] = set()  # being extracted with a backlog over IMPORT_BACKLOG
        self.extractions: set[str] = set()  # being extracted

    def warm(self, chat_id: str) -> None:
        self.log.append(f"build {chat_id}")

    def prefetch_next(self, chat_id: str) -> None:
        self.log.append(f"prefetch {chat_id}")

    def importing(self, chat_id: str) -> bool:
        return chat_id in self.imports

    def extracting(self, chat_id: str) -> bool:
        return chat_id in self.extractions | self.imports

    def warm_done(self, chat_id: str) -> None:
        pass


def paced() -> tuple[RecallWarmer, Recaller, list[float]]:
    recaller = Recaller()
    warmer = RecallWarmer(Service(), recaller)  # type: ignore[arg-type]
    now = [100.0]
    rests: list[float] = []

    def rest(seconds: float) -> Any:
        rests.append(seconds)
        recaller.log.append("rest")
        now[0] += seconds

    warmer._clock = lambda: now[0]
    warmer._rest = rest
    return warmer, recaller, rests


def test_a_chat_being_extracted_gets_its_graph_at_most_every_warm_every_s() -> None:
    warmer, recaller, rests = paced()
    recaller.imports.add("a")
    warmer._warm("a", False)  # the first build does not wait
    warmer._warm("a", True)  # the next waits, its context prefetched first
    assert rests == [WARM_EVERY_S]
    assert recaller.log == ["build a", "prefetch a", "rest", "build a"]
    warmer.stop()


def test_a_chat_not_being_extracted_gets_its_graph_after_every_change() -> None:
    warmer, recaller, rests = paced()
    for _ in range(3):
        warmer._warm("a", True)
    assert rests == [] and recaller.log == ["build a", "prefetch a"] * 3
    warmer.stop()


def test_the_last_batches_of_an_extraction_are_built_at_once() -> None:
    """A chat extracted with a short backlog (an import's last batches, a turn's batch) gets its
    graph after every batch: a recall right after the extraction sees the new memories."""
    warmer, recaller, rests = paced()
    recaller.extractions.add("a")
    for _ in range(3):
        warmer._warm("a", False)
    assert rests == [] and recaller.log == ["build a"] * 3
    warmer.stop()
