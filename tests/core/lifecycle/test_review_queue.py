"""The review queue's cards: why each memory waits, and the messages it came from."""

from __future__ import annotations

from lifecycle_helpers import CHAT, auto_node, get

from bme_desktop.core.lifecycle import run_upkeep
from bme_desktop.core.lifecycle.review import decide
from bme_desktop.core.lifecycle.review_queue import MAX_SOURCES, review_card
from bme_desktop.core.lifecycle.tiers import PROMOTED_FLAG
from bme_desktop.core.model import MessageIn
from bme_desktop.core.service import MemoryService

FACT = {"statement": "The bridge at Kell is out", "category": "fact"}


def _messages(service: MemoryService, count: int) -> None:
    service.sync(
        CHAT,
        [
            MessageIn(index=i, role="user" if i % 2 == 0 else "assistant", text=f"message {i}")
            for i in range(count)
        ],
        complete=True,
    )


def test_a_new_long_term_memory_says_the_review_mode_listed_it_and_shows_its_sources(
    service: MemoryService,
) -> None:
    _messages(service, 12)
    node = auto_node(service, "fact", FACT, source_indices=[3, 4])
    run_upkeep(service, CHAT)
    card = review_card(service, CHAT, node.id)
    assert get(service, node.id).review_status == "pending"
    assert card.reason.code == "new_long_term"
    assert [(m.index, m.text) for m in card.sources] == [(3, "message 3"), (4, "message 4")]
    assert card.more_sources == 0


def test_reasons_for_a_reopened_and_a_promoted_memory(service: MemoryService) -> None:
    _messages(service, 2)
    reopened = auto_node(service, "fact", FACT)
    decide(service, CHAT, [reopened.id], "pending")
    assert review_card(service, CHAT, reopened.id).reason.code == "reopened"
    promoted = auto_node(service, "fact", {"statement": "Often recalled"})
    service.write(
        lambda uow: uow.put_node(
            type(promoted)(
                **{**get(service, promoted.id).__dict__, "flags": {PROMOTED_FLAG: True}, "recall_count": 7}
            )
        )
    )
    card = review_card(service, CHAT, promoted.id)
    assert card.reason.code == "promoted" and card.reason.detail["recalls"] == 7


def test_far_apart_sources_are_read_one_by_one_and_the_rest_counted(service: MemoryService) -> None:
    _messages(service, 200)
    indices = [1, 50, 120, 150, 180, 199]
    node = auto_node(service, "fact", FACT, source_indices=indices)
    card = review_card(service, CHAT, node.id)
    assert [m.index for m in card.sources] == indices[:MAX_SOURCES]
    assert card.more_sources == len(indices) - MAX_SOURCES
