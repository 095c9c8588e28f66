"""The recall state of a chat reloads only what changed, and keeps its diffusion graph when
an edit does not touch it (recall hits, review cards)."""

from __future__ import annotations

from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.lifecycle.hits import record_recall_hits
from bme_desktop.core.model import MessageIn
from bme_desktop.core.recall.chat_state import RecallCache
from bme_desktop.core.service import MemoryService

CHAT = "state-chat"


def setup(service: MemoryService) -> tuple[RecallCache, str, str]:
    service.sync(CHAT, [MessageIn(0, "user", "The key is in the lighthouse."), MessageIn(1, "assistant", "Yes.")])
    key = service.create_node(CHAT, NodeDraft("event", {"summary": "Tom hides the key"}, source_indices=[0]))
    lamp = service.create_node(CHAT, NodeDraft("event", {"summary": "Lena lights the lamp"}, source_indices=[1]))
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
