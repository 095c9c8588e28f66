"""A chat deleted after its recall state was loaded is not recalled from that state."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine

from bme_desktop.core.errors import NotFound
from bme_desktop.core.model import MessageIn
from bme_desktop.core.recall.api import RecallRequest
from bme_desktop.core.recall.pipeline import HybridRecaller
from bme_desktop.core.service import MemoryService
from bme_desktop.core.store import tables as t

CHAT = "chat-gone"


@pytest.fixture
def recaller(hashed_recaller: HybridRecaller) -> HybridRecaller:
    return hashed_recaller


def _loaded(service: MemoryService, recaller: HybridRecaller) -> None:
    service.sync(
        CHAT, [MessageIn(0, "user", "Lena found a brass key"), MessageIn(1, "assistant", "It opens a door")]
    )
    service.recall(RecallRequest(CHAT, "where is the brass key?"))
    assert recaller.knows_chat(CHAT)


def test_a_chat_deleted_through_the_service_is_not_found(
    service: MemoryService, recaller: HybridRecaller
) -> None:
    _loaded(service, recaller)
    service.delete_chat(CHAT)
    with pytest.raises(NotFound):
        service.recall(RecallRequest(CHAT, "where is the brass key?"))


def test_a_chat_deleted_by_another_app_on_the_database_is_not_found(
    service: MemoryService, recaller: HybridRecaller, database_url: str
) -> None:
    _loaded(service, recaller)
    other_app = create_engine(database_url)  # no events reach this service: only the database knows
    with other_app.begin() as conn:
        pk = conn.execute(t.chats.select().where(t.chats.c.chat_id == CHAT)).one().pk
        for table in (
            t.vectors,
            t.recall_records,
            t.summaries,
            t.edges,
            t.nodes,
            t.batches,
            t.messages,
            t.audit_log,
        ):
            conn.execute(table.delete().where(table.c.chat_pk == pk))
        conn.execute(t.chats.delete().where(t.chats.c.pk == pk))
    other_app.dispose()
    assert recaller.knows_chat(CHAT)  # the state is still loaded …
    with pytest.raises(NotFound):  # … but the recall checks the chat is still stored
        service.recall(RecallRequest(CHAT, "where is the brass key?"))


def test_an_unknown_chat_is_not_found_and_leaves_no_state(
    service: MemoryService, recaller: HybridRecaller
) -> None:
    with pytest.raises(NotFound):
        service.recall(RecallRequest("never-synced", "hello there, where is the key?"))
    assert not recaller.knows_chat("never-synced")
