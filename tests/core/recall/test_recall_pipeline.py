"""The hybrid recaller end to end, on a real SQLite store with hand-made memories."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.model import MessageIn, Node
from bme_desktop.core.recall.api import RecallRequest
from bme_desktop.core.recall.injection import HEADER
from bme_desktop.core.recall.pipeline import HybridRecaller, attach
from bme_desktop.core.service import MemoryService
from tests.fakes.embedders import CountingEmbedder


@pytest.fixture
def embedder() -> CountingEmbedder:
    return CountingEmbedder()


@pytest.fixture
def recaller(service: MemoryService, embedder: CountingEmbedder) -> Iterator[HybridRecaller]:
    attached = attach(service, lambda: embedder)
    yield attached
    assert attached.vectors is not None
    attached.vectors.stop()


CHAT = "chat-1"
MESSAGES = [
    MessageIn(
        0, "user", "Hi Lena, I found an old brass key in the cellar.", name="Tom", time="2023-05-01T10:00:00Z"
    ),
    MessageIn(
        1,
        "assistant",
        "Lena turns the key over. It opens the lighthouse door, she says.",
        name="Lena",
        time="2023-05-01T10:01:00Z",
    ),
    MessageIn(
        2, "user", "We should sail to the northern island tomorrow.", name="Tom", time="2023-05-02T09:00:00Z"
    ),
    MessageIn(
        3,
        "assistant",
        "Lena packs bread and a lantern for the voyage.",
        name="Lena",
        time="2023-05-02T09:01:00Z",
    ),
]


@pytest.fixture
def chat(service: MemoryService) -> str:
    service.sync(CHAT, MESSAGES, character="Lena", user="Tom")
    return CHAT


def fact(service: MemoryService, chat: str, text: str, sources: list[int], **kw: object) -> Node:
    return service.create_node(
        chat, NodeDraft("fact", {"statement": text}, source_indices=sources, **kw)
    ).value  # type: ignore[arg-type]


def settle(recaller: HybridRecaller) -> None:
    assert recaller.vectors is not None and recaller.vectors.index(CHAT) is not None
    assert recaller.vectors.wait_idle(30)


def ids(result: object) -> list[str]:
    return [r.node.id for r in result.nodes]  # type: ignore[attr-defined]


def test_relevant_memory_ranks_first_with_score_components(
    service: MemoryService, chat: str, recaller: HybridRecaller
) -> None:
    key = fact(service, chat, "The brass key opens the lighthouse door.", [0, 1])
    fact(service, chat, "Bread and a lantern were packed for the voyage.", [3])
    settle(recaller)
    result = service.recall(
        RecallRequest(chat, "What does the brass key open?", last_reply="", previous_input="")
    )
    assert ids(result)[0] == key.id
    components = result.nodes[0].components
    assert {"vector", "lexical", "diffusion", "importance", "w_pov", "w_region", "w_time"} <= set(components)
    assert components["lexical"] > 0 and components["vector"] > 0
    assert result.injection.startswith(HEADER)


def test_rejected_deleted_and_merged_away_memories_are_never_returned(
    service: MemoryService, chat: str, recaller: HybridRecaller
) -> None:
    hidden = [
        fact(service, chat, "The brass key is archived.", [0], tier="archived"),
        fact(service, chat, "The brass key is rejected.", [0], review_status="rejected"),
        fact(service, chat, "The brass key is deleted.", [0]),
    ]
    service.delete_node(chat, hidden[-1].id)
    shown = fact(service, chat, "The brass key is ordinary.", [0])
    settle(recaller)
    result = service.recall(RecallRequest(chat, "Where is the brass key?", top_k=20))
    assert ids(result) == [shown.id]


def test_a_sleeping_memory_stays_out_of_a_passing_mention_and_answers_a_direct_ask(
    service: MemoryService, chat: str, recaller: HybridRecaller
) -> None:
    awake = fact(service, chat, "The brass key opens the lighthouse door at the harbour.", [0])
    dormant = fact(service, chat, "The brass key was once lost in the well.", [1], tier="dormant")
    settle(recaller)
    passing = service.recall(
        RecallRequest(
            chat,
            "I turn the brass key in the lighthouse door at the harbour.",
            top_k=20,
            last_reply="",
            previous_input="",
        )
    )
    assert ids(passing) == [awake.id]
    asked = service.recall(
        RecallRequest(chat, "Where was the brass key lost?", top_k=20, last_reply="", previous_input="")
    )
    assert dormant.id in ids(asked)
    assert next(r for r in asked.nodes if r.node.id == dormant.id).components["woken"] == 1.0


def test_name_anchor_pulls_in_the_named_memory_and_its_neighbour(
    service: MemoryService, chat: str, recaller: HybridRecaller
) -> None:
    lena = service.create_node(chat, NodeDraft("character", {"name": "Lena", "state": "keeper"})).value
    oath = fact(service, chat, "A promise was made at dawn.", [1])
    service.link(chat, lena.id, oath.id, "related")
    settle(recaller)
    result = service.recall(RecallRequest(chat, "Tell me about Lena.", last_reply="", previous_input=""))
    by_id = {r.node.id: r for r in result.nodes}
    assert by_id[lena.id].components["anchor"] == 1.0
    assert by_id[oath.id].components["diffusion"] > 0 and by_id[oath.id].components["lexical"] == 0


def test_greeting_recalls_only_core_memories(
    service: MemoryService, chat: str, recaller: HybridRecaller
) -> None:
    rule = service.create_node(
        chat, NodeDraft("rule", {"title": "Honesty", "constraint": "Lena never lies."})
    ).value
    fact(service, chat, "Hi there, the brass key opens the door.", [0])
    result = service.recall(RecallRequest(chat, "hi!"))
    assert ids(result) == [rule.id]
    assert any("greeting" in s for s in result.skipped_stages)


def test_remember_when_returns_archived_messages_with_their_index(
    service: MemoryService, chat: str, recaller: HybridRecaller
) -> None:
    result = service.recall(RecallRequest(chat, "Do you remember the lantern for the voyage?"))
    archive = [r for r in result.nodes if r.bucket == "archive"]
    assert archive and archive[0].node.source_indices == [3]
    assert "chat archive" in result.injection
    plain = service.recall(RecallRequest(chat, "What about the lantern for the voyage?"))
    assert not [r for r in plain.nodes if r.bucket == "archive"]


def test_during_an_import_the_messages_not_extracted_yet_are_searched_as_messages(
    service: MemoryService, recaller: HybridRecaller
) -> None:
    """A long history's first import extracts batch after batch: meanwhile a recall finds the
    newest scene in the messages no batch has read yet (word for word), and says so; a chat
    nobody extracts (extraction off or paused) is recalled as usual."""
    from bme_desktop.core.extract.api import NoExtraction

    class Importing(NoExtraction):  # the chat is queued for extraction
        def busy(self, chat_id: str) -> bool:
            return True

    service.use_extraction(Importing())
    history = [
        MessageIn(i, "user" if i % 2 == 0 else "assistant", f"We walk on through the valley, day {i}.")
        for i in range(300)
    ]
    history[6] = MessageIn(6, "user", "The silver compass lies under the old mill.")
    history[271] = MessageIn(271, "assistant", "Now the silver compass hangs at the harbour gate.")
    service.sync("import", history, complete=True)

    def extracted(to: int) -> None:
        def write(uow: object) -> None:
            pk = uow.read.chat_pk("import")  # type: ignore[attr-defined]
            uow.set_chat_state(pk, {**uow.chat_state(pk), "extracted_to": to})  # type: ignore[attr-defined]

        service.write(write)  # type: ignore[arg-type]
        fact(service, "import", f"Tom keeps walking (read to {to}).", [to])  # a batch's memory

    extracted(19)
    result = service.recall(RecallRequest("import", "Where is the silver compass?"))
    archive = [r.node.source_indices for r in result.nodes if r.bucket == "archive"]
    assert archive == [[271]]  # the newest scene; message 6 waits for its batch
    assert recaller.importing("import")  # so the warmer paces the chat's graph builds
    assert (
        "memories (partial: messages 20–299 not extracted yet; searched as messages)" in result.skipped_stages
    )
    service.use_extraction(NoExtraction())
    result = service.recall(RecallRequest("import", "Where is the silver compass?"))
    assert not [r for r in result.nodes if r.bucket == "archive"]
    service.use_extraction(Importing())
    extracted(150)  # the import has almost caught up (the last 149 follow within seconds): as usual
    result = service.recall(RecallRequest("import", "Where is the silver compass?"))
    assert not [r for r in result.nodes if r.bucket == "archive"]
    assert not [s for s in result.skipped_stages if s.startswith("memories")]
    assert not recaller.importing("import")  # its last batches are built at once


def test_remember_when_never_returns_the_message_being_answered(
    service: MemoryService, chat: str, recaller: HybridRecaller
) -> None:
    result = service.recall(RecallRequest(chat, "Do you remember the lantern for the voyage?", index=3))
    assert not [r for r in result.nodes if r.bucket == "archive" and r.node.source_indices[0] >= 3]


def test_a_named_day_favours_memories_from_that_day(
    service: MemoryService, chat: str, recaller: HybridRecaller
) -> None:
    first = fact(service, chat, "Tom talked about the sea.", [0])
    second = fact(service, chat, "Tom talked about the sea.", [2])
    settle(recaller)
    for day, expected in (("5月2日", second), ("May 1", first)):
        result = service.recall(RecallRequest(chat, f"What did Tom say about the sea on {day}?"))
        memories = [r for r in result.nodes if r.bucket != "archive"]
        assert memories[0].node.id == expected.id, day


def test_vector_index_follows_a_node_edit_without_a_rebuild(
    service: MemoryService, chat: str, recaller: HybridRecaller, embedder: CountingEmbedder
) -> None:
    a = fact(service, chat, "The brass key opens the lighthouse door.", [0])
    fact(service, chat, "Bread was packed.", [3])
    settle(recaller)
    assert recaller.vectors is not None
    index = recaller.vectors.index(chat)
    assert index is not None and len(index) == 2
    before = index.vectors_of([a.id])[1].copy()
    embedder.embedded.clear()
    service.update_node(chat, a.id, {"fields": {"statement": "The silver key opens the chapel."}})
    assert recaller.vectors.wait_idle(30)
    assert len(embedder.embedded) == 1 and "silver key" in embedder.embedded[0]
    assert recaller.vectors.index(chat) is index
    assert not (index.vectors_of([a.id])[1] == before).all()


def test_rebuild_vectors_re_embeds_every_memory(
    service: MemoryService, chat: str, recaller: HybridRecaller, embedder: CountingEmbedder
) -> None:
    fact(service, chat, "The brass key opens the lighthouse door.", [0])
    fact(service, chat, "Bread was packed.", [3])
    settle(recaller)
    embedder.embedded.clear()
    service.run_maintenance(chat, "rebuild_vectors")
    assert len(embedder.embedded) == 2


def test_repeat_suppression_lowers_memories_injected_on_the_previous_turn(
    service: MemoryService, chat: str, recaller: HybridRecaller
) -> None:
    fact(service, chat, "The brass key opens the lighthouse door.", [0])
    settle(recaller)
    first = service.recall(RecallRequest(chat, "the brass key", index=4))
    again = service.recall(RecallRequest(chat, "the brass key", index=6))
    assert "w_repeat" not in first.nodes[0].components
    assert again.nodes[0].components["w_repeat"] < 1.0


def test_the_review_gate_holds_pending_memories_and_the_recall_says_how_many(
    service: MemoryService, chat: str, recaller: HybridRecaller
) -> None:
    pending = fact(service, chat, "The brass key opens the lighthouse door.", [0], review_status="pending")
    settle(recaller)
    ask = RecallRequest(chat, "What does the brass key open?", last_reply="", previous_input="")
    audit = service.recall(ask)
    assert ids(audit) == [pending.id] and audit.held_for_review == 0  # by default review is an audit
    service.settings.lifecycle.review_gate = True
    gated = service.recall(ask)
    assert ids(gated) == [] and gated.held_for_review == 1


def test_a_named_month_favours_memories_from_that_month(
    service: MemoryService, chat: str, recaller: HybridRecaller
) -> None:
    may = fact(service, chat, "Tom talked about the sea.", [0])
    service.sync(chat, [MessageIn(4, "user", "June already.", name="Tom", time="2023-06-09T09:00:00Z")])
    june = fact(service, chat, "Tom talked about the sea.", [4])
    settle(recaller)
    for month, expected in (("in June 2023", june), ("last May", may), ("2023年5月", may)):
        result = service.recall(RecallRequest(chat, f"What did Tom say about the sea {month}?"))
        memories = [r for r in result.nodes if r.bucket != "archive"]
        assert memories[0].node.id == expected.id, month


def test_a_recall_storm_on_one_index_reviews_each_memory_once(
    service: MemoryService, chat: str, recaller: HybridRecaller
) -> None:
    key = fact(service, chat, "The brass key opens the lighthouse door.", [0, 1])
    settle(recaller)
    for typed in (
        "Wh",
        "Where",
        "Where does the",
        "Where does the brass key",
        "Where does the brass key go?",
    ) * 4:
        service.recall(RecallRequest(chat, typed, index=4))  # a script recalling on every keystroke
    service.flush_later_writes()
    assert service.get_node(chat, key.id).recall_count == 1
    service.recall(RecallRequest(chat, "And the brass key?", index=6))  # the next turn counts again
    service.flush_later_writes()
    assert service.get_node(chat, key.id).recall_count == 2


def test_a_recall_far_ahead_of_the_chat_answers_and_hides_nothing(
    service: MemoryService, chat: str, recaller: HybridRecaller
) -> None:
    key = fact(service, chat, "The brass key opens the lighthouse door.", [0, 1])
    settle(recaller)
    ahead = service.recall(RecallRequest(chat, "Where does the brass key go?", index=1_000_000))
    service.flush_later_writes()
    assert key.id in ids(ahead)
    again = service.recall(RecallRequest(chat, "Where does the brass key go?", index=4))
    assert key.id in ids(again) and again.held_for_review == 0


def test_naming_a_person_anchors_the_person_not_every_fact_about_her(
    service: MemoryService, chat: str, recaller: HybridRecaller
) -> None:
    lena = service.create_node(chat, NodeDraft("character", {"name": "Lena", "state": "keeper"})).value
    about = service.create_node(
        chat, NodeDraft("fact", {"subject": "Lena", "statement": "Lena hums at dawn."})
    ).value
    settle(recaller)
    result = service.recall(
        RecallRequest(chat, "What is Lena doing?", top_k=20, last_reply="", previous_input="")
    )
    components = {r.node.id: r.components for r in result.nodes}
    assert components[lena.id]["anchor"] == 1.0
    assert components.get(about.id, {}).get("anchor", 0.0) == 0.0


def test_the_character_spoken_to_does_not_outrank_what_is_asked(
    service: MemoryService, chat: str, recaller: HybridRecaller
) -> None:
    service.create_node(chat, NodeDraft("character", {"name": "Lena", "state": "keeper"}))
    for i, text in enumerate(["Lena laughs at Lena's own joke, Lena says.", "Lena, Lena and Lena sing."]):
        fact(service, chat, text, [i])
    lantern = fact(service, chat, "The lantern hangs in the mill.", [3])
    settle(recaller)
    result = service.recall(
        RecallRequest(chat, "Lena, where is the lantern?", top_k=1, last_reply="", previous_input="")
    )
    assert ids(result)[0] == lantern.id
