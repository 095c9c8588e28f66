"""Query vectors made ahead of the recall (after a sync, while the user types), and recalls
of one chat that run side by side."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence

import numpy as np
import numpy.typing as npt
import pytest

from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.events import Event
from bme_desktop.core.model import MessageIn
from bme_desktop.core.providers.local_embedder_hashed import HashedNgramEmbedder
from bme_desktop.core.recall.api import RecallRequest
from bme_desktop.core.recall.cues import clean_input
from bme_desktop.core.recall.embedding import QueryCache
from bme_desktop.core.recall.pipeline import HybridRecaller, attach
from bme_desktop.core.recall.query import PART_CHARS
from bme_desktop.core.service import MemoryService

CHAT = "prefetch-chat"
REPLY = "Lena lights the lantern and points at the lighthouse across the bay."
MESSAGES = [
    MessageIn(0, "user", "Where did you hide the brass key?", name="Tom"),
    MessageIn(1, "assistant", REPLY, name="Lena"),
]


class QueryCounter:
    """Hashed n-gram vectors; records each query text embedded, and can hold one back."""

    def __init__(self) -> None:
        self._inner = HashedNgramEmbedder(dim=128)
        self.name = self._inner.name
        self.dim: int | None = 128
        self.queries: list[str] = []
        self.hold: str | None = None
        self.holding = threading.Event()
        self.release = threading.Event()

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return self._inner.embed(texts)

    def embed_query(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        if self.hold is not None and self.hold in texts:
            self.holding.set()
            assert self.release.wait(20)
        self.queries.extend(texts)
        return self._inner.embed(texts)


@pytest.fixture
def counter() -> QueryCounter:
    return QueryCounter()


@pytest.fixture
def recaller(service: MemoryService, counter: QueryCounter) -> Iterator[HybridRecaller]:
    cache = QueryCache(counter)
    attached = attach(service, lambda: cache)
    service.sync(CHAT, MESSAGES, character="Lena", user="Tom")
    service.create_node(
        CHAT, NodeDraft("fact", {"statement": "The brass key opens the lighthouse."}, source_indices=[0])
    )
    assert attached.vectors is not None and attached.vectors.index(CHAT) is not None
    assert attached.vectors.wait_idle(30)
    yield attached
    attached.vectors.stop()


def wait_cached(recaller: HybridRecaller, text: str) -> None:
    assert recaller.vectors is not None
    cache = recaller.vectors.embedder()
    assert isinstance(cache, QueryCache)
    deadline = time.monotonic() + 20
    while not cache.cached(text):
        assert time.monotonic() < deadline, f"{text!r} was never prefetched"
        time.sleep(0.01)


def wait_context_cached(recaller: HybridRecaller) -> None:
    """Both context parts a recall blends in (the last reply, the previous input) are
    prefetched one by one after the sync. A recall arriving while the second still queues
    takes it over (queries come first) and embeds it in its own batch, so a test that counts
    what a recall embeds, or holds one recall's batch back, waits for both."""
    wait_cached(recaller, clean_input(REPLY, PART_CHARS))
    wait_cached(recaller, clean_input(MESSAGES[0].text, PART_CHARS))


def test_the_reply_just_synced_is_embedded_before_the_next_recall(
    service: MemoryService, recaller: HybridRecaller, counter: QueryCounter
) -> None:
    wait_context_cached(recaller)
    before = len(counter.queries)
    result = service.recall(RecallRequest(CHAT, "Tell me about the brass key", index=2))
    assert counter.queries[before:] == ["Tell me about the brass key"]  # only the new input
    assert "vector (embedding failed" not in " ".join(result.skipped_stages)


def test_prepare_embeds_the_input_being_typed(
    service: MemoryService, recaller: HybridRecaller, counter: QueryCounter
) -> None:
    recaller.prepare(CHAT, "Do you still have the brass key?", index=2)
    wait_cached(recaller, "Do you still have the brass key?")
    wait_cached(recaller, clean_input(REPLY, PART_CHARS))
    before = len(counter.queries)
    result = service.recall(RecallRequest(CHAT, "Do you still have the brass key?", index=2))
    assert counter.queries[before:] == []
    assert result.nodes and "brass key" in result.injection


def test_recalls_of_one_chat_do_not_wait_for_each_other(
    service: MemoryService, recaller: HybridRecaller, counter: QueryCounter
) -> None:
    wait_context_cached(recaller)  # else the held recall embeds a context part the other one waits for
    service.settings.recall.timeout_s = 60.0  # the slow recall waits for its vector, not skips it
    counter.hold = "a question whose embedding is slow"
    slow = threading.Thread(target=service.recall, args=(RecallRequest(CHAT, counter.hold),))
    slow.start()
    assert counter.holding.wait(20)
    try:
        result = service.recall(
            RecallRequest(CHAT, "Where is the brass key?")
        )  # would block behind a chat lock
        assert "brass key" in result.injection
        assert slow.is_alive()  # the first recall is still waiting for its embedding
    finally:
        counter.release.set()
        slow.join(20)
    assert not slow.is_alive()


def test_a_kept_recall_is_readable_as_soon_as_the_recall_answers(
    service: MemoryService, recaller: HybridRecaller
) -> None:
    result = service.recall(RecallRequest(CHAT, "Where is the brass key?", index=2))
    kept = service.recall_record(CHAT, 2)
    assert kept is not None and kept.injection == result.injection


def test_a_change_is_absorbed_in_the_background_before_the_next_recall(
    service: MemoryService, recaller: HybridRecaller, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bme_desktop.core.recall import pipeline

    service.recall(RecallRequest(CHAT, "Where is the brass key?"))  # loads the chat's recall state
    key = service.create_node(
        CHAT, NodeDraft("event", {"summary": "Tom drops the key"}, source_indices=[0])
    ).value
    lamp = service.create_node(
        CHAT, NodeDraft("event", {"summary": "Lena lights the lamp"}, source_indices=[1])
    ).value
    service.link(CHAT, key.id, lamp.id, "related")
    deadline = time.monotonic() + 20
    while (
        not recaller.cache.state(CHAT).edges
        or recaller.cache.state(CHAT).graph is None
        or recaller.cache.state(CHAT).graph[0] != recaller.cache.state(CHAT).graph_version
    ):
        assert time.monotonic() < deadline, "the graph was not rebuilt in the background"
        time.sleep(0.01)
    builds: list[int] = []
    real = pipeline.build_graph
    monkeypatch.setattr(pipeline, "build_graph", lambda *a: builds.append(1) or real(*a))
    result = service.recall(RecallRequest(CHAT, "Where did Tom drop the key?"))
    assert builds == [] and any(r.node.id == key.id for r in result.nodes)


def test_a_recall_uses_the_previous_graph_while_the_warmer_has_a_build_queued(
    service: MemoryService, recaller: HybridRecaller, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An import changes the graph every batch: a recall between a batch and the warmer's build
    takes the graph it has rather than build one itself; without a build queued it builds."""
    from bme_desktop.core.recall import pipeline

    service.recall(RecallRequest(CHAT, "Where is the brass key?"))  # loads the chat's state and graph
    recaller.cache.state(CHAT)
    here = threading.get_ident()
    builds: list[int] = []  # the graphs this thread (the recall's) built
    real = pipeline.build_graph
    monkeypatch.setattr(
        pipeline,
        "build_graph",
        lambda *a: (builds.append(1) if threading.get_ident() == here else None) or real(*a),
    )
    recaller.expect_warm(CHAT)  # as the warmer does when a change arrives
    recaller.cache.state(CHAT).graph_version += 1  # the change the warmer will build for
    service.recall(RecallRequest(CHAT, "Where is the brass key now?"))
    assert builds == []
    recaller.warm_done(CHAT)  # the build ran (or will not): the next recall builds what it needs
    recaller.cache.state(CHAT).graph_version += 1
    service.recall(RecallRequest(CHAT, "Where is the brass key at last?"))
    assert builds == [1]


def test_prepare_takes_the_context_the_recall_will_send(
    service: MemoryService, recaller: HybridRecaller, counter: QueryCounter
) -> None:
    recaller.prepare(
        CHAT, "And the lamp?", index=2, last_reply="The lamp is in the shed.", previous_input="Hi"
    )
    for text in ("And the lamp?", "The lamp is in the shed.", "Hi"):
        wait_cached(recaller, text)
    before = len(counter.queries)
    service.recall(
        RecallRequest(
            CHAT, "And the lamp?", index=2, last_reply="The lamp is in the shed.", previous_input="Hi"
        )
    )
    assert counter.queries[before:] == []


@pytest.mark.skipif(not hasattr(os, "setpriority"), reason="no per-thread priority on this platform")
def test_the_background_refresh_runs_at_normal_priority_and_the_graph_build_at_low(
    service: MemoryService, recaller: HybridRecaller, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A recall may wait for the refresh, never for the graph build: only the build is niced."""
    service.recall(RecallRequest(CHAT, "Where is the brass key?"))  # loads the chat's recall state
    normal = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    seen: dict[str, int] = {}

    def spy(name: str, real: Callable[[str], None]) -> Callable[[str], None]:
        def run(chat_id: str) -> None:
            seen.setdefault(name, os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
            real(chat_id)

        return run

    monkeypatch.setattr(recaller, "refresh", spy("refresh", recaller.refresh))
    monkeypatch.setattr(recaller, "warm", spy("warm", recaller.warm))
    service.create_node(CHAT, NodeDraft("event", {"summary": "Tom drops the key"}, source_indices=[0]))
    deadline = time.monotonic() + 20
    while len(seen) < 2:
        assert time.monotonic() < deadline, f"the background steps did not both run: {seen}"
        time.sleep(0.01)
    assert seen["refresh"] == normal
    assert seen["warm"] > normal


def test_another_instances_sync_warms_only_a_chat_this_one_recalls(
    service: MemoryService, recaller: HybridRecaller
) -> None:
    service.events.publish(Event("chat.synced", "theirs", {"stored": 1, "changed_from": None}, remote=True))
    service.events.publish(Event("chat.synced", "barrier", {"stored": 1, "changed_from": None}))
    deadline = time.monotonic() + 20
    while "barrier" not in recaller.cache.chats():  # the warmer takes chats in order, on one thread
        assert time.monotonic() < deadline, "the local sync was never warmed"
        time.sleep(0.01)
    assert "theirs" not in recaller.cache.chats()
