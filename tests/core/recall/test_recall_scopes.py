"""The scope stage of recall (issue 18): a chat draws the memories other chats share with it —
kept current as those chats change — weighed by kind, and an isolated chat draws nothing."""

from __future__ import annotations

from dataclasses import replace

from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.model import Scope
from bme_desktop.core.recall.api import RecallRequest
from bme_desktop.core.recall.pipeline import HybridRecaller
from bme_desktop.core.scopes import ChatIdentity
from bme_desktop.core.service import MemoryService

FACT = {"statement": "Alex was born on the ninth of March", "subject": "Alex"}
QUESTION = "When was Alex born?"


def ids(service: MemoryService, chat: str) -> set[str]:
    return {r.node.id for r in service.recall(RecallRequest(chat, QUESTION)).nodes}


def test_a_chat_draws_what_others_share_and_follows_their_changes(
    service: MemoryService, hashed_recaller: object
) -> None:
    for chat, character in (("a", "Mira"), ("b", "Garrick")):
        service.sync(chat, [], identity=ChatIdentity(character=character, user="Alex", persona_id="alex"))
    assert ids(service, "b") == set()  # b's recall state is loaded before a has anything
    fact = service.create_node("a", NodeDraft(type="fact", fields=FACT, scope=Scope(kind="persona"))).value
    found = service.recall(RecallRequest("b", QUESTION)).nodes
    assert [(r.node.id, r.node.chat_id, r.components.get("w_scope")) for r in found] == [(fact.id, "a", 0.9)]
    service.move_scope("a", fact.id, "chat")
    assert ids(service, "b") == set()
    service.undo("a")
    assert ids(service, "b") == {fact.id}
    service.sync("b", [], identity=ChatIdentity(isolated=True))
    assert ids(service, "b") == set()


def test_a_kind_weighed_zero_is_not_drawn(service: MemoryService, hashed_recaller: object) -> None:
    for chat in ("a", "b"):
        service.sync(chat, [], identity=ChatIdentity(character="Mira", user="Alex"))
    fact = service.create_node("a", NodeDraft(type="fact", fields=FACT, scope=Scope(kind="persona"))).value
    assert ids(service, "b") == {fact.id}
    service.settings.recall = replace(service.settings.recall, weight_scope_persona=0.0)
    assert ids(service, "b") == set()
    assert ids(service, "a") == {fact.id}  # the chat's own memory, whatever its kind


def test_a_memory_another_chat_shares_is_found_by_meaning_too(
    service: MemoryService, hashed_recaller: HybridRecaller
) -> None:
    vectors = hashed_recaller.vectors
    assert vectors is not None
    for chat in ("a", "b"):
        service.sync(chat, [], identity=ChatIdentity(character="Mira", user="Alex"))
    assert ids(service, "b") == set()  # b's index is loaded before a shares anything
    fact = service.create_node("a", NodeDraft(type="fact", fields=FACT, scope=Scope(kind="persona"))).value
    assert vectors.wait_idle(60)
    assert fact.id in (vectors.index("b") or ())  # taken from a's stored vector, not embedded twice
    (found,) = service.recall(RecallRequest("b", QUESTION)).nodes
    assert (found.node.id, found.components["vector"] > 0) == (fact.id, True)
    service.move_scope("a", fact.id, "chat")
    assert vectors.wait_idle(60)
    assert fact.id not in (vectors.index("b") or ())
