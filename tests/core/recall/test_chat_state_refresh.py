"""The recall state of a chat reloads only what changed, and keeps its diffusion graph when
an edit does not touch it (recall hits, review cards)."""

from __future__ import annotations

from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.lifecycle.recall_hits import record_recall_hits
from bme_desktop.core.model import MessageIn
from bme_desktop.core.recall.chat_state import RecallCache
from bme_desktop.core.service import MemoryService

CHAT = "state-chat"


def setup(service: MemoryService) -> tuple[RecallCache, str, str]:
    service.sync(
        CHAT, [MessageIn(0, "user", "The key is in the lighthouse."), MessageIn(1, "assistant", "Yes.")]
    )
    key = service.create_node(
        CHAT, NodeDraft("event", {"summary": "Tom hides the key"}, source_indices=[0])
    ).value
    lamp = service.create_node(
        CHAT, NodeDraft("event", {"summary": "Lena lights the lamp"}, source_indices=[1])
    ).value
    return RecallCache(service), key.id, lamp.id


def test_a_recall_hit_keeps_the_graph_and_the_text_index(service: MemoryService) -> None:
    cache, key, _ = setup(service)
    state = cache.state(CHAT)
    version = state.graph_version
    record_recall_hits(service, CHAT, [key])
    state = cache.state(CHAT)
    assert state.graph_version == version
    assert state.nodes[key].recall_count == 1  # the fresh row was taken all the same
    assert [h.doc_id for h in state.lexical.search("hides key")] == [key]


def test_a_new_edge_or_an_edited_text_is_seen(service: MemoryService) -> None:
    cache, key, lamp = setup(service)
    version = cache.state(CHAT).graph_version
    service.link(CHAT, key, lamp, "related")
    state = cache.state(CHAT)
    assert state.graph_version > version and len(state.edges) == 1
    service.update_node(CHAT, lamp, {"fields": {"summary": "Lena breaks the lamp"}})
    assert [h.doc_id for h in cache.state(CHAT).lexical.search("breaks")] == [lamp]


def test_changed_edges_are_read_by_id_and_match_a_full_read(service: MemoryService) -> None:
    """An extraction's few new edges are read by id, not every edge of the chat again; what the
    state holds is what a fresh load holds (links, unlinks, undo and redo)."""
    cache, key, lamp = setup(service)
    third = service.create_node(
        CHAT, NodeDraft("event", {"summary": "Ada keeps watch"}, source_indices=[1])
    ).value
    cache.state(CHAT)
    reads: list[int] = []
    edges = service.edges
    service.edges = lambda *a, **k: reads.append(1) or edges(*a, **k)  # type: ignore[method-assign]
    first = service.link(CHAT, key, lamp, "related").value
    second = service.link(CHAT, lamp, third.id, "related").value
    service.link(CHAT, key, third.id, "related")
    service.unlink(CHAT, first.id)
    service.undo(CHAT)  # the unlink: the edge is back
    service.undo(CHAT)  # the third link: gone
    service.redo(CHAT)
    service.unlink(CHAT, second.id)
    state = cache.state(CHAT)
    assert reads == []  # not one full read of the chat's edges
    fresh = RecallCache(service).state(CHAT)
    assert {e.id: e for e in state.edges} == {e.id: e for e in fresh.edges}
    assert second.id not in {e.id for e in state.edges} and first.id in {e.id for e in state.edges}


def test_part_results_are_reused_until_the_index_changes(service: MemoryService) -> None:
    from bme_desktop.core.recall.candidates import lexical_part

    cache, key, _ = setup(service)
    state = cache.state(CHAT)
    calls: list[str] = []
    search = state.lexical.search
    state.lexical.search = lambda text, k=10, name_boost=0.0: (
        calls.append(text) or search(text, k, name_boost)
    )  # type: ignore[method-assign]
    first = lexical_part(state, "the key")
    assert lexical_part(state, "the key") == first and calls == ["the key"]
    record_recall_hits(service, CHAT, [key])  # no text changed: still valid
    assert lexical_part(cache.state(CHAT), "the key") == first and calls == ["the key"]
    added = service.create_node(
        CHAT, NodeDraft("event", {"summary": "Mira finds the key"}, source_indices=[1])
    ).value
    fresh = lexical_part(cache.state(CHAT), "the key")
    assert calls == ["the key", "the key"] and added.id in fresh


def test_vector_part_results_are_reused_until_the_vector_index_changes() -> None:
    import numpy as np

    from bme_desktop.core.index.vector_index import VectorIndex
    from bme_desktop.core.recall.candidates import VectorScorer
    from bme_desktop.core.recall.part_cache import PartCache
    from bme_desktop.core.recall.query import Query, QueryPart

    index = VectorIndex("m", 2)
    index.upsert(["a", "b", "c", "d", "e"], np.eye(5, 2, dtype=np.float32) + 0.1)
    calls: list[int] = []
    scores = index.scores
    index.scores = lambda q: calls.append(1) or scores(q)  # type: ignore[method-assign]
    cache: PartCache[tuple[dict[str, float], tuple[float, float]]] = PartCache()
    query = Query("x", (QueryPart("x", 1.0, "current"),))
    vectors = np.array([[1.0, 0.0]], dtype=np.float32)
    first = VectorScorer.create(index, query, vectors, cache).candidates()
    assert VectorScorer.create(index, query, vectors, cache).candidates() == first and len(calls) == 1
    index.upsert(["f"], np.array([[1.0, 0.0]], dtype=np.float32))
    assert "f" in VectorScorer.create(index, query, vectors, cache).candidates() and len(calls) == 2


def test_recalls_keep_reading_while_a_refresh_reads_the_database(service: MemoryService) -> None:
    import threading

    cache, key, _ = setup(service)
    state = cache.state(CHAT)
    reading_db, release = threading.Event(), threading.Event()
    real_read = cache._read

    def slow_read(*args: object) -> object:
        reading_db.set()
        assert release.wait(20)
        return real_read(*args)  # type: ignore[arg-type]

    cache._read = slow_read  # type: ignore[method-assign]
    service.update_node(CHAT, key, {"fields": {"summary": "Tom moves the key"}})
    refresher = threading.Thread(target=cache.state, args=(CHAT,))
    refresher.start()
    try:
        assert reading_db.wait(20)
        got_in = threading.Event()

        def reader() -> None:
            with state.rw.reading():
                got_in.set()

        threading.Thread(target=reader).start()
        assert got_in.wait(5)  # a recall is not held up by the refresh's database read
    finally:
        release.set()
        refresher.join(20)
    assert [h.doc_id for h in cache.state(CHAT).lexical.search("moves")] == [key]
