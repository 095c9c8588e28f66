"""What a memory is embedded from (``recall.documents.embed_text``), and what happens to
vectors stored from an earlier embedding text."""

from __future__ import annotations

import numpy as np

from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.events import StoreResync
from bme_desktop.core.index.vector_store import load_vectors, save_vectors, text_hash
from bme_desktop.core.model import MessageIn, Node
from bme_desktop.core.recall.documents import embed_text
from bme_desktop.core.recall.pipeline import attach
from bme_desktop.core.service import MemoryService
from tests.fakes.embedders import CountingEmbedder

SUMMARY = 'Alex: Ask Sera about the key. / Narrator: Sera smiled. "It is gone," she said.'


def event(**fields: str) -> Node:
    return Node(id="e", chat_id="c", type="event", title=fields.get("title", ""), fields=fields)


def test_an_event_is_embedded_from_what_was_said() -> None:
    """The title repeating the summary's first sentence (clipped or not) and participants the
    summary names are left out; the status stays."""
    assert embed_text(event(summary=SUMMARY, title="Sera smiled.", participants="Alex, Narrator, Sera")) == (
        SUMMARY
    )
    assert embed_text(event(summary=SUMMARY, title='Sera smiled. "It is…', status="open")) == (
        f"{SUMMARY} (status: open)"
    )


def test_an_event_keeps_a_title_and_participants_the_summary_lacks() -> None:
    text = embed_text(event(summary=SUMMARY, title="The key is lost", participants="Sera, Wren"))
    assert text == f"The key is lost: {SUMMARY} (participants: Sera, Wren)"


def test_other_memories_keep_their_title_and_fields() -> None:
    node = Node(
        id="f", chat_id="c", type="character", title="Sera", fields={"name": "Sera", "state": "a guide"}
    )
    assert embed_text(node) == "Sera: a guide"


def test_a_vector_stored_from_another_text_is_embedded_again(service: MemoryService) -> None:
    """A database written by a version that embedded other text (its vectors' text hashes no
    longer match): the index embeds those memories again when it loads, and only those."""
    embedder = CountingEmbedder(dim=16)
    vectors = attach(service, lambda: embedder).vectors
    assert vectors is not None
    service.sync("c", [MessageIn(0, "user", "hi"), MessageIn(1, "assistant", "Sera smiled.")])
    old = service.create_node(
        "c",
        NodeDraft(
            "event",
            {"summary": SUMMARY, "title": "Sera smiled.", "participants": "Sera"},
            source_indices=[0, 1],
        ),
    ).value
    kept = service.create_node(
        "c", NodeDraft("character", {"name": "Sera", "state": "a guide"}, source_indices=[1])
    ).value
    assert vectors.index("c") is not None and vectors.wait_idle(20)
    stale = text_hash(f"Sera smiled.: {SUMMARY} (participants: Sera)")  # the text embedded before
    service.write(
        lambda uow: save_vectors(uow, "c", embedder.name, [old.id], [stale], np.ones((1, 16), np.float32))
    )
    service.events.publish(StoreResync(None))  # the indexes are loaded again from the table
    embedder.embedded.clear()
    assert vectors.index("c") is not None and vectors.wait_idle(20)
    assert embedder.embedded == [embed_text(old)]
    stored = {v.node_id: v.text_hash for v in service.read(lambda r: load_vectors(r, "c", embedder.name))}
    assert stored == {old.id: text_hash(embed_text(old)), kept.id: text_hash(embed_text(kept))}
    vectors.stop()
