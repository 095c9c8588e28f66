"""Same messages in, same memories out (issue 15.4): however one chat is split into syncs,
whether or not each sync waits, however far the background vector index has got when a
batch is extracted (held back entirely, or caught up after every sync), and on SQLite or
PostgreSQL, the memories (type, title, source indices) equal those of a clean run that syncs
one turn at a time on SQLite with the index always caught up; editing a message and
restoring it (two rollbacks and re-extractions) ends there too.

The embedder knows a few concepts, so near-duplicate matching by cosine and by word overlap
disagree on purpose: "Marcus drinks at the Silver Tavern." and "Marcus sips ale in an old
inn." are the same memory to it (few shared words), "… Silver Tavern!" is not (the same
words). A decision that fell back to word overlap while the index lagged would show."""

from __future__ import annotations

import functools
import tempfile
import threading
import uuid
import zlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import numpy.typing as npt
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bme_desktop.core.extract.scheduler import attach as attach_extraction
from bme_desktop.core.model import MessageIn
from bme_desktop.core.recall.pipeline import attach as attach_recall
from bme_desktop.core.service import MemoryService

CONCEPTS = (("tavern", " inn", "pub"), ("key",), ("tea",), ("!",), ("sword", "blade"))
USER_LINES = ("Where is he?", "And then?", "What now?")
REPLIES = (
    "Marcus drinks at the Silver Tavern.",
    "Marcus sips ale in an old inn.",
    "Marcus drinks at the Silver Tavern!",
    "Lena hides the brass key under the stone.",
    "Lena tucks the key beneath a rock.",
    "I love green tea, Lena says.",
    "Lena always drinks tea at dawn.",
    "Marcus sharpens his sword.",
    "Marcus polishes the old blade.",
    "It is raining over Rivertown.",
    "Nothing happens.",
)
Memory = tuple[str, str, tuple[int, ...]]


class ConceptEmbedder:
    """One dimension per concept (texts without one get their own direction). The vector
    maintainer's thread waits at ``gate`` while it is closed: an index that lags behind."""

    name = "concepts"
    dim: int | None = len(CONCEPTS) + 8

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.gate.set()

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        if threading.current_thread().name.startswith("bme-vectors"):
            assert self.gate.wait(120), "the test never let the vector index catch up"
        rows = np.zeros((len(texts), len(CONCEPTS) + 8), dtype=np.float32)
        for i, text in enumerate(texts):
            lowered = text.lower()
            for c, words in enumerate(CONCEPTS):
                rows[i, c] = sum(lowered.count(w) for w in words)
            if not rows[i].any():
                rows[i, len(CONCEPTS) + zlib.crc32(text.encode()) % 8] = 1.0
        return rows

    def embed_query(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return self.embed(texts)


@contextmanager
def running(database_url: str | None) -> Iterator[tuple[MemoryService, ConceptEmbedder]]:
    embedder = ConceptEmbedder()
    with tempfile.TemporaryDirectory() as tmp:
        service = MemoryService.open(Path(tmp), database_url=database_url, attach=False)
        attach_extraction(service)
        recaller = attach_recall(service, lambda: embedder)
        try:
            yield service, embedder
        finally:
            embedder.gate.set()
            assert recaller.vectors is not None
            recaller.vectors.stop()
            service.close()


def messages(turns: Sequence[tuple[int, int]]) -> list[MessageIn]:
    out: list[MessageIn] = []
    for user, reply in turns:
        out.append(MessageIn(len(out), "user", USER_LINES[user], name="Tom"))
        out.append(MessageIn(len(out), "assistant", REPLIES[reply], name="Alice"))
    return out


def memories(service: MemoryService, chat_id: str) -> list[Memory]:
    return sorted((n.type, n.title, tuple(sorted(n.source_indices))) for n in service.all_nodes(chat_id))


def caught_up(service: MemoryService) -> None:
    vectors = getattr(service.recaller, "vectors", None)
    assert vectors is not None and vectors.wait_idle(120)


@functools.lru_cache(maxsize=32)
def clean_run(turns: tuple[tuple[int, int], ...]) -> tuple[Memory, ...]:
    """One turn per sync on SQLite, the vector index caught up after each (kept per chat: the
    PostgreSQL variant draws the same examples and compares with the same SQLite runs)."""
    chat = messages(turns)
    with running(None) as (service, _):
        for n in range(0, len(chat), 2):
            service.sync("clean", chat[n : n + 2], wait=True)
            caught_up(service)
        return tuple(memories(service, "clean"))


turns_st = st.lists(
    st.tuples(st.integers(0, len(USER_LINES) - 1), st.integers(0, len(REPLIES) - 1)), min_size=3, max_size=7
)
# per sync: how many messages, whether it waits, whether the vector index may catch up after it
syncs_st = st.lists(st.tuples(st.integers(1, 7), st.booleans(), st.booleans()), min_size=1, max_size=8)


@settings(
    max_examples=6,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(turns=turns_st, syncs=syncs_st, edit=st.integers(0, 100))
@example(turns=[(0, 0), (1, 1), (2, 2), (0, 3), (1, 4)], syncs=[(10, True, False)], edit=3)
def test_the_same_chat_gives_the_same_memories_however_it_arrives(
    database_url: str, turns: list[tuple[int, int]], syncs: list[tuple[int, bool, bool]], edit: int
) -> None:
    chat = messages(turns)
    expected = list(clean_run(tuple(turns)))
    chat_id = f"c-{uuid.uuid4().hex[:8]}"  # examples share the test's database
    with running(database_url) as (service, embedder):
        embedder.gate.clear()  # held until a sync lets it catch up
        sent = 0
        for size, wait, catch_up in syncs:
            if sent >= len(chat):
                break
            service.sync(chat_id, chat[sent : sent + size], wait=wait)
            sent += size
            if catch_up:
                embedder.gate.set()
                caught_up(service)
                embedder.gate.clear()
        if sent < len(chat):
            service.sync(chat_id, chat[sent:], wait=True)
        service.sync(chat_id, [], wait=True)  # whatever a sync that did not wait left behind
        assert memories(service, chat_id) == expected

        k = edit % len(chat)
        service.sync(
            chat_id,
            [MessageIn(k, chat[k].role, chat[k].text + " Then silence.", name=chat[k].name)],
            wait=True,
        )
        service.sync(chat_id, [chat[k]], wait=True)
        assert memories(service, chat_id) == expected
