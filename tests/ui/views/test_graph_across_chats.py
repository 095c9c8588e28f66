"""The 2D graph's "This character across chats" (issue 18.5): one character's memories from all
its chats, each chat a community, other chats' memories read-only, and a way back."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from PySide6.QtWidgets import QWidget

from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.model import MessageIn, Node, Scope
from bme_desktop.core.scopes import ChatIdentity
from bme_desktop.core.service import MemoryService
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.views.graph2d import Graph2DView
from bme_desktop.ui.views.graph_toolbar import GraphToolbar


def chat(service: MemoryService, chat_id: str, character: str) -> None:
    service.sync(
        chat_id,
        [MessageIn(index=0, role="user", text="hello"), MessageIn(index=1, role="assistant", text="hi")],
        complete=True,
        identity=ChatIdentity(character=character, user="Alex"),
    )


def memory(service: MemoryService, chat_id: str, statement: str, kind: str = "chat") -> Node:
    return service.create_node(
        chat_id, NodeDraft(type="fact", fields={"statement": statement}, scope=Scope(kind=kind)), actor="test"
    ).value


@pytest.fixture
def story(service: MemoryService) -> dict[str, Node]:
    for chat_id, character in (("mira-a", "Mira"), ("mira-b", "Mira"), ("garrick-c", "Garrick")):
        chat(service, chat_id, character)
    return {
        "cave": memory(service, "mira-a", "They found a red stone in the cave"),
        "fear": memory(service, "mira-a", "Mira fears the sea", "character"),
        "storm": memory(service, "mira-b", "A storm broke over the harbour"),
        "birthday": memory(service, "garrick-c", "Alex's birthday is the ninth of March", "persona"),
        "forge": memory(service, "garrick-c", "Garrick mended the compass at the forge"),
    }


@pytest.fixture
def graph(
    qtbot, context: AppContext, story: dict[str, Node], settled: Callable[[], None]
) -> Iterator[tuple[Graph2DView, GraphToolbar]]:
    context.set_chat("mira-a")
    view = Graph2DView(context, use_opengl=False)
    bar = GraphToolbar(context, [view])
    host = QWidget()
    qtbot.addWidget(host)
    view.setParent(host)
    bar.setParent(host)
    view.resize(600, 400)
    host.show()
    settled()
    qtbot.waitUntil(lambda: view.state.data.n == 2, timeout=60000)
    yield view, bar
    host.close()


def shown(view: Graph2DView) -> set[str]:
    return set(view.state.data.ids)


def test_the_toggle_shows_the_character_s_memories_from_all_its_chats_by_chat_and_goes_back(
    qtbot, graph: tuple[Graph2DView, GraphToolbar], story: dict[str, Node]
) -> None:
    view, bar = graph
    bar.across.click()
    want = {story[k].id for k in ("cave", "fear", "storm", "birthday")}  # not Garrick's own forge
    qtbot.waitUntil(lambda: shown(view) == want and view.source.communities.count == 3, timeout=60000)
    assert sorted(view.source.communities.names) == ["garrick-c", "mira-a", "mira-b"]  # a community a chat
    assert bar.across_note.isVisibleTo(bar) and "across 2 chat" in bar.across_note.text()
    bar.across.click()
    qtbot.waitUntil(lambda: shown(view) == {story["cave"].id, story["fear"].id}, timeout=60000)
    assert not bar.across_note.isVisibleTo(bar)


def test_another_chat_s_memory_selected_across_chats_is_not_opened_for_editing(
    qtbot, context: AppContext, graph: tuple[Graph2DView, GraphToolbar], story: dict[str, Node]
) -> None:
    view, bar = graph
    bar.across.click()
    qtbot.waitUntil(lambda: view.state.data.n == 4, timeout=60000)
    opened: list[str] = []
    context.sigNodeSelected.connect(opened.append)
    with qtbot.waitSignal(context.sigStatus, timeout=5000) as status:
        view.state.sigSelected.emit(story["storm"].id)
    assert "mira-b" in status.args[0] and opened == []
    view.state.sigSelected.emit(story["cave"].id)
    assert opened == [story["cave"].id]


def test_a_change_in_a_chat_that_lends_a_persona_memory_is_read_again(
    qtbot, graph: tuple[Graph2DView, GraphToolbar], service: MemoryService, story: dict[str, Node]
) -> None:
    view, bar = graph
    bar.across.click()
    qtbot.waitUntil(lambda: view.state.data.n == 4, timeout=60000)
    tastes = memory(service, "garrick-c", "Alex likes green tea", "persona")
    qtbot.waitUntil(lambda: tastes.id in shown(view), timeout=60000)


def test_the_legend_names_chats_not_communities_across_chats(
    qtbot, graph: tuple[Graph2DView, GraphToolbar], story: dict[str, Node]
) -> None:
    view, bar = graph
    view.set_color_by("community")
    bar.across.click()
    qtbot.waitUntil(lambda: view.source.communities.count == 3, timeout=60000)
    qtbot.waitUntil(lambda: "Chats" in view.legend.title.text(), timeout=10000)
    assert "mira-b" in view.legend.body.text()
    bar.across.click()
    qtbot.waitUntil(lambda: "Chats" not in view.legend.title.text(), timeout=60000)
    assert "Communities" in view.legend.title.text()


def test_a_chat_that_lent_nothing_yet_appears_without_switching_the_toggle_again(
    qtbot, graph: tuple[Graph2DView, GraphToolbar], service: MemoryService, story: dict[str, Node]
) -> None:
    view, bar = graph
    chat(service, "tom-d", "Tom")  # another character, same persona: lends nothing yet
    bar.across.click()
    qtbot.waitUntil(lambda: view.state.data.n == 4, timeout=60000)
    tea = memory(service, "tom-d", "Alex drinks tea at dawn", "persona")  # its first shared memory
    qtbot.waitUntil(lambda: tea.id in shown(view), timeout=60000)
    chat(service, "mira-e", "Mira")  # a new chat of the character, after the toggle
    kite = memory(service, "mira-e", "Mira flies a kite")
    qtbot.waitUntil(lambda: kite.id in shown(view), timeout=60000)
    assert "mira-e" in view.source.chats


def test_across_chats_the_time_scrubber_runs_over_the_open_chat_s_messages(
    qtbot, graph: tuple[Graph2DView, GraphToolbar], service: MemoryService, story: dict[str, Node]
) -> None:
    view, bar = graph
    for index in range(2, 40):
        service.sync("mira-b", [MessageIn(index=index, role="user", text=f"line {index}")])

    def sourced(chat_id: str, statement: str, message: int) -> Node:
        return service.create_node(
            chat_id,
            NodeDraft(type="fact", fields={"statement": statement}, source_indices=[message]),
            actor="test",
        ).value

    late = sourced("mira-b", "The lighthouse went dark", 30)  # message 31 of the other chat
    early = sourced("mira-a", "Mira lit a candle", 1)
    bar.across.click()
    qtbot.waitUntil(lambda: {late.id, early.id} <= shown(view), timeout=60000)
    assert bar.time.maximum() == 1  # this chat's messages, not the other chat's 31
    bar.time.setValue(0)
    qtbot.waitUntil(lambda: not view.state.filtered[view.state.data.row[early.id]], timeout=10000)
    assert view.state.filtered[view.state.data.row[late.id]]  # another chat's memory always shows
    assert "of this chat" in bar.time_label.text()
