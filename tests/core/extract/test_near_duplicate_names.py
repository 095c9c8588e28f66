"""A near duplicate by similarity never joins a memory about other people or places."""

from __future__ import annotations

from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.extract import matching
from bme_desktop.core.extract.vector_match import VectorScores
from bme_desktop.core.model import MessageIn, Node, Scope
from bme_desktop.core.service import MemoryService
from bme_desktop.core.store.unit_of_work import UnitOfWork

CHAT = "names-chat"


def _story(service: MemoryService) -> Node:
    service.sync(CHAT, [MessageIn(i, "user" if i % 2 == 0 else "assistant", f"line {i}") for i in range(4)])
    for name in ("苏婉", "赵小桃", "Lena Brandt"):
        service.create_node(CHAT, NodeDraft("character", {"name": name}))
    return service.create_node(
        CHAT, NodeDraft("event", {"summary": "林川答应一定帮苏婉找回玉佩"}, source_indices=[0])
    ).value


def _nearest(service: MemoryService, summary: str, existing: Node) -> Node | None:
    def run(uow: UnitOfWork) -> Node | None:
        names = matching.folded_names(matching.entity_nodes(uow, CHAT))
        above = VectorScores(indexed=frozenset({existing.id}), above={existing.id: 0.98}, threshold=0.975)
        found = matching.nearest(
            uow, CHAT, "event", {"summary": summary}, Scope(), since=None, vectors=above, names=names
        )
        return found.node if found else None

    return service.write(run)


def test_a_promise_to_someone_else_is_not_a_duplicate_however_close(service: MemoryService) -> None:
    existing = _story(service)
    assert _nearest(service, "林川答应一定帮赵小桃找回玉佩", existing) is None


def test_the_same_people_at_that_cosine_are_a_duplicate(service: MemoryService) -> None:
    existing = _story(service)
    assert _nearest(service, "林川答应一定帮苏婉找回那块玉佩", existing) == existing
    # naming one more than the other may be the same memory told in more detail
    assert _nearest(service, "林川在雨里答应苏婉和赵小桃，一定帮苏婉找回玉佩", existing) == existing


def test_latin_names_count_as_whole_words_only() -> None:
    names = matching.folded_names(
        [
            Node(
                id="c",
                chat_id=CHAT,
                type="character",
                title="Lena Brandt",
                fields={"name": "Lena Brandt", "aliases": "Lena"},
            )
        ]
    )
    assert matching.names_in("lena brandt hides the key", names) == {"lena brandt", "lena"}
    assert matching.names_in("Magdalena hides the key", names) == frozenset()
