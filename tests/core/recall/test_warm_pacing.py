"""While a chat is being extracted (an import), the recall warmer rebuilds its graph at most every
``WARM_EVERY_S``; otherwise after every change. The clock and the rest are the test's."""

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
        self.importing: set[str] = set()

    def warm(self, chat_id: str) -> None:
        self.log.append(f"build {chat_id}")

    def prefetch_next(self, chat_id: str) -> None:
        self.log.append(f"prefetch {chat_id}")

    def extracting(self, chat_id: str) -> bool:
        return chat_id in self.importing

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
    recaller.importing.add("a")
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
