"""Change notification between instances on one PostgreSQL database (``store/notify.py``)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import pytest
from sqlalchemy import text

from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.events import ChangeRecord, Event
from bme_desktop.core.model import MessageIn
from bme_desktop.core.providers.local_embedder_hashed import HashedNgramEmbedder
from bme_desktop.core.recall.api import RecallRequest
from bme_desktop.core.recall.pipeline import HybridRecaller, attach
from bme_desktop.core.service import MemoryService
from bme_desktop.core.store.notify import MAX_PAYLOAD, ChangeListener, payloads, to_event
from bme_desktop.core.store.store import Store
from tests.fakes.embedders import CountingEmbedder


def test_a_large_change_is_split_under_the_payload_limit_and_read_back_whole() -> None:
    change = ChangeRecord("chat/森林 😀" * 20, batch_id=7)
    change.nodes_added = {f"{i:08d}-aaaa-bbbb-cccc-{i:012d}" for i in range(2500)}
    change.nodes_removed = {f"r{i}" for i in range(300)}
    change.edges_changed = {f"e{i}" for i in range(900)}
    messages = payloads(
        "me", [change], [(change.chat_id, {"stored": 3, "changed_from": None, "revision": 4})], ["gone"]
    )
    assert len(messages) > 3 and all(len(m.encode()) <= MAX_PAYLOAD for m in messages)
    events = [e for e in (to_event(m, "other") for m in messages) if e is not None]
    graph = [e for e in events if e.type == "graph.changed"]
    assert all(e.remote and e.chat_id == change.chat_id and e.change is not None for e in graph)
    merged = ChangeRecord(change.chat_id)
    for e in graph:
        assert e.change is not None and e.change.batch_id == 7
        merged.merge(e.change)
    assert (merged.nodes_added, merged.nodes_removed, merged.edges_changed) == (
        change.nodes_added,
        change.nodes_removed,
        change.edges_changed,
    )
    assert [(e.type, e.chat_id, e.data) for e in events if e.type != "graph.changed"] == [
        ("chat.synced", change.chat_id, {"stored": 3, "changed_from": None, "revision": 4}),
        ("chat.deleted", "gone", {}),
    ]
    assert [to_event(m, "me") for m in messages] == [None] * len(messages)  # one's own writes
    assert to_event("not json", "me") is None and to_event('{"i": "x", "k": "graph"}', "me") is None


class Collector:
    def __init__(self, service: MemoryService) -> None:
        self.events: list[Event] = []
        self._cond = threading.Condition()
        service.events.subscribe(self._on_event)

    def _on_event(self, event: Event) -> None:
        with self._cond:
            self.events.append(event)
            self._cond.notify_all()

    def wait_for(self, found: Callable[[list[Event]], bool], timeout: float = 10.0) -> list[Event]:
        deadline = time.monotonic() + timeout
        with self._cond:
            while not found(self.events):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                self._cond.wait(remaining)
            return list(self.events)


@pytest.fixture
def pair(database_url: str) -> Iterator[tuple[MemoryService, MemoryService]]:
    a = MemoryService(Store(database_url))
    b = MemoryService(Store(database_url))
    yield a, b
    a.close()
    b.close()


@pytest.mark.parametrize(
    "database_url", [pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True
)
def test_what_one_instance_writes_reaches_the_other_as_remote_events(
    pair: tuple[MemoryService, MemoryService],
) -> None:
    a, b = pair
    seen_by_b, seen_by_a = Collector(b), Collector(a)
    a.sync("shared", [MessageIn(0, "user", "Mia was born on 3 May.")], complete=True)
    node = a.create_node(
        "shared", NodeDraft("fact", {"statement": "Mia was born on 3 May"}, source_indices=[0])
    ).value

    def arrived(events: list[Event]) -> bool:
        return any(
            e.type == "graph.changed" and e.change is not None and node.id in e.change.nodes_added
            for e in events
        )

    events = seen_by_b.wait_for(arrived)
    assert arrived(events), [e.to_json() for e in events]
    synced = [e for e in events if e.type == "chat.synced"]
    assert [(e.chat_id, e.data["stored"], e.remote) for e in synced] == [("shared", 1, True)]
    assert all(e.remote for e in events)
    assert b.get_node("shared", node.id).fields["statement"] == "Mia was born on 3 May"

    b.delete_chat("shared")
    events = seen_by_a.wait_for(lambda es: any(e.type == "chat.deleted" for e in es))
    assert [(e.type, e.chat_id, e.remote) for e in events if e.remote] == [("chat.deleted", "shared", True)]
    assert not [
        e for e in events if e.type == "graph.changed" and e.remote
    ]  # a's own writes come back as none


def test_vector_notifications_name_the_memories_and_split_under_the_limit() -> None:
    ids = [f"{i:08d}-aaaa-bbbb-cccc-{i:012d}" for i in range(600)]
    messages = payloads("me", [], vectors=[("chat", ids)])
    assert len(messages) > 1 and all(len(m.encode()) <= MAX_PAYLOAD for m in messages)
    events = [to_event(m, "other") for m in messages]
    assert all(
        e is not None and e.type == "vectors.saved" and e.remote and e.chat_id == "chat" for e in events
    )
    assert sorted(i for e in events if e is not None for i in e.data["ids"]) == ids


def _attach(service: MemoryService, embedder: object) -> HybridRecaller:
    recaller = attach(service, lambda: embedder)  # type: ignore[arg-type,return-value]
    service.on_close(lambda: recaller.vectors.stop() if recaller.vectors is not None else None)
    return recaller


@pytest.mark.parametrize(
    "database_url", [pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True
)
def test_a_vector_one_instance_stored_is_loaded_by_the_other_not_embedded_again(
    pair: tuple[MemoryService, MemoryService],
) -> None:
    a, b = pair
    embedders = CountingEmbedder(dim=64), CountingEmbedder(dim=64)
    _attach(a, embedders[0])
    on_b = _attach(b, embedders[1])
    assert on_b.vectors is not None
    seen_by_b = Collector(b)
    a.sync("shared", [MessageIn(0, "user", "Mia keeps bees behind the lighthouse.")], complete=True)
    b.recall(RecallRequest("shared", "Who keeps bees?"))  # b's recall state and vector index are loaded
    assert on_b.vectors.wait_idle(30)
    node = a.create_node(
        "shared", NodeDraft("fact", {"statement": "Mia keeps bees behind the lighthouse"}, source_indices=[0])
    ).value

    def stored(events: list[Event]) -> bool:
        return any(e.type == "vectors.saved" and node.id in e.data["ids"] for e in events)

    assert stored(seen_by_b.wait_for(stored, 60))
    assert on_b.vectors.wait_idle(30)
    index = on_b.vectors.index("shared")
    assert index is not None and index.text_hash(node.id) is not None
    assert [t for t in embedders[0].embedded if "bees" in t]  # a embedded it …
    assert not [t for t in embedders[1].embedded if "bees" in t]  # … and b took a's vector
    assert node.id in [r.node.id for r in b.recall(RecallRequest("shared", "Who keeps bees?")).nodes]


@pytest.mark.parametrize(
    "database_url", [pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True
)
def test_what_was_written_while_the_listener_was_down_reaches_recall_after_it_reconnects(
    pair: tuple[MemoryService, MemoryService], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = pair
    down, back = threading.Event(), threading.Event()

    def pause(self: ChangeListener, seconds: float) -> None:  # b's listener waits here to reconnect
        down.set()
        back.wait(60)

    monkeypatch.setattr(ChangeListener, "_pause", pause)
    on_b = _attach(b, HashedNgramEmbedder(dim=64))
    seen_by_b = Collector(b)
    a.sync("shared", [MessageIn(0, "user", "Mia keeps bees behind the lighthouse.")], complete=True)
    b.recall(RecallRequest("shared", "Where is the orchard?"))  # b's recall state is loaded
    listener = b._listener
    assert listener is not None and listener.backend_pid is not None
    with a.store.engine.connect() as conn:  # cut b's listening connection on the server
        assert conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": listener.backend_pid}).scalar()
    assert down.wait(30)  # b's listener lost its connection and waits to reconnect

    added = a.create_node(
        "shared", NodeDraft("event", {"summary": "Mia plants pears in the orchard"}, source_indices=[0])
    ).value  # committed while b is not listening
    assert added.id not in [
        r.node.id for r in b.recall(RecallRequest("shared", "Where is the orchard?")).nodes
    ]
    back.set()
    assert any(
        e.type == "store.resync"
        for e in seen_by_b.wait_for(lambda es: any(e.type == "store.resync" for e in es), 30)
    )
    assert b.recall(RecallRequest("shared", "Where is the orchard?")).nodes[0].node.id == added.id
    assert on_b.vectors is not None and on_b.vectors.wait_idle(30)
    index = on_b.vectors.index("shared")
    assert index is not None and index.text_hash(added.id) is not None
