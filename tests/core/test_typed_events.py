"""The bus carries dataclass events, subscribed to by class; the string-typed form of before
builds the same typed events (the adapter)."""

from __future__ import annotations

from bme_desktop.core.events import (
    WIRE_NAMES,
    ChangeRecord,
    ChatDeleted,
    ChatSynced,
    Event,
    EventBus,
    ExtractionProgressed,
    GraphChanged,
    Notice,
)


def test_class_subscribers_get_only_their_classes() -> None:
    bus = EventBus()
    graph: list[GraphChanged] = []
    chats: list[Event] = []
    every: list[Event] = []
    bus.on(GraphChanged, graph.append)
    unsubscribe = bus.on((ChatSynced, ChatDeleted), chats.append)
    bus.subscribe(every.append)
    change = ChangeRecord("c", nodes_added={"n1"})
    events = [GraphChanged("c", change), ChatSynced("c", stored=2), ChatDeleted("c")]
    for event in events:
        bus.publish(event)
    unsubscribe()
    bus.publish(ChatDeleted("d"))
    assert graph == [events[0]] and graph[0].change.nodes_added == {"n1"}
    assert chats == events[1:]
    assert every == [*events, ChatDeleted("d")]


def test_a_broken_subscriber_does_not_stop_the_others() -> None:
    bus = EventBus()
    seen: list[Event] = []

    def broken(_event: Event) -> None:
        raise RuntimeError("boom")

    bus.on(ChatDeleted, broken)
    bus.on(ChatDeleted, seen.append)
    bus.publish(ChatDeleted("c"))
    assert seen == [ChatDeleted("c")]


def test_the_string_typed_form_builds_the_typed_event() -> None:
    progress = Event("extraction.progress", "c", {"extracted": 2, "total": 9, "due": 7, "eta_s": 5})
    assert isinstance(progress, ExtractionProgressed) and (progress.extracted, progress.due) == (2, 7)
    assert progress.type == "extraction.progress" and progress.data["eta_s"] == 5
    synced = Event("chat.synced", "c", {"stored": 1, "changed_from": None, "rescoped": True}, remote=True)
    assert isinstance(synced, ChatSynced) and synced.remote and synced.rescoped
    other = Event("something.else", "c", {"a": 1})
    assert isinstance(other, Notice) and other.to_json() == {"type": "something.else", "chat_id": "c", "a": 1}


def test_every_typed_event_has_one_wire_name() -> None:
    assert len(set(WIRE_NAMES.values())) == len(WIRE_NAMES)
    change = ChangeRecord("c", nodes_added={"n1"})
    assert GraphChanged("c", change).to_json() == {
        "type": "graph.changed",
        "chat_id": "c",
        **change.counts(),
        "changes": change.to_json(),
    }
    assert ChatSynced("c", 3, None, 1).to_json() == {
        "type": "chat.synced",
        "chat_id": "c",
        "stored": 3,
        "changed_from": None,
        "revision": 1,
    }
