"""The app shows memory beyond one chat (issue 18.5): chats grouped by character or persona,
a scope filter and scope badges in the memory table, the node editor moving a memory between
scopes (one undo step) and showing a lorebook memory read-only; World Info out and in."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.model import Node, Scope
from bme_desktop.core.scopes import ChatIdentity
from bme_desktop.core.service import MemoryService
from bme_desktop.core.worldinfo import LoreEntry
from bme_desktop.ui.chat_switcher import ChatSwitcher
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.memory_model import COLUMNS
from bme_desktop.ui.panels.actions_files import FileActions
from bme_desktop.ui.panels.memories import MemoriesPanel
from bme_desktop.ui.panels.node_editor import NodeEditor

CHAT = "chat-1"
TOWER = LoreEntry(
    book="Eldoria",
    uid="3",
    keys=("Glass Tower",),
    comment="Glass Tower",
    content="The Glass Tower stands on the northern cliffs.",
)


def identities(service: MemoryService) -> None:
    for chat, character, cid in (
        ("a", "Mira", "mira.png"),
        ("b", "Mira", "mira.png"),
        ("c", "Garrick", "g.png"),
    ):
        service.sync(
            chat,
            [],
            identity=ChatIdentity(
                character=character, character_id=cid, user="Alex", persona_id="alex", world="Eldoria"
            ),
        )


def test_chats_are_grouped_by_character_and_by_persona(
    qtbot, context: AppContext, service: MemoryService, settled: Callable[[], None]
) -> None:
    identities(service)
    switcher = ChatSwitcher(context)
    qtbot.addWidget(switcher)
    settled()
    assert sorted(switcher.group_names()) == ["Garrick · 1 chat", "Mira · 2 chats"]
    assert switcher.chat_items()["a"].text().splitlines() == [
        "a",
        switcher.chat_items()["a"].text().splitlines()[1],
    ]
    assert "as Alex" in switcher.chat_items()["a"].text()
    switcher.grouping.setCurrentIndex(switcher.grouping.findData("persona"))
    assert switcher.group_names() == ["Alex · 3 chats"]
    switcher.grouping.setCurrentIndex(switcher.grouping.findData("none"))
    assert switcher.group_names() == [] and set(switcher.chat_items()) == {"a", "b", "c"}


def test_picking_a_chat_under_its_character_opens_it(
    qtbot, context: AppContext, service: MemoryService, settled: Callable[[], None]
) -> None:
    identities(service)
    switcher = ChatSwitcher(context)
    qtbot.addWidget(switcher)
    settled()
    switcher.select("c")
    assert context.chat_id == "c"


def _scope_column(panel: MemoriesPanel) -> list[str]:
    column = [name for name, _key in COLUMNS].index("scope")
    return [panel.model.index(r, column).data() for r in range(panel.model.rowCount())]


def test_the_table_shows_scope_badges_and_filters_by_scope(
    qtbot, context: AppContext, service: MemoryService, settled: Callable[[], None]
) -> None:
    identities(service)
    service.create_node(
        "a",
        NodeDraft(
            type="fact",
            fields={"statement": "Alex was born in March", "subject": "Alex"},
            scope=Scope(kind="persona"),
        ),
    )
    service.create_node("a", NodeDraft(type="event", fields={"summary": "They found a red stone"}))
    service.sync_lorebook("a", [TOWER])
    panel = MemoriesPanel(context)
    qtbot.addWidget(panel)
    context.set_chat("a")
    settled()
    assert sorted(_scope_column(panel)) == ["Lorebook", "Persona", "This chat"]
    panel.scope_filter.setCurrentIndex(panel.scope_filter.findData("persona"))
    settled()
    assert [panel.model.node_at(r).title for r in range(panel.model.rowCount())] == ["Alex"]  # type: ignore[union-attr]
    assert panel.count.text() == "1 of 3 memories"


def test_the_editor_moves_a_memory_to_another_scope_in_one_undo_step(
    qtbot, context: AppContext, service: MemoryService, settled: Callable[[], None]
) -> None:
    identities(service)
    node = service.create_node("a", NodeDraft(type="fact", fields={"statement": "Mira fears the sea"})).value
    context.set_chat("a")
    editor = NodeEditor(context)
    qtbot.addWidget(editor)
    editor.load(node.id)
    settled()
    editor.scope.setCurrentIndex(editor.scope.findData("character"))
    editor.save()
    settled()
    assert service.get_node("a", node.id).scope.kind == "character"
    assert service.undo("a").value and service.get_node("a", node.id).scope.kind == "chat"


def test_a_lorebook_memory_is_shown_read_only_with_where_it_came_from(
    qtbot, context: AppContext, service: MemoryService, settled: Callable[[], None]
) -> None:
    identities(service)
    service.sync_lorebook("a", [TOWER])
    (tower,) = [n for n in service.all_nodes("a") if n.title == "Glass Tower"]
    context.set_chat("a")
    editor = NodeEditor(context)
    qtbot.addWidget(editor)
    editor.load(tower.id)
    settled()
    assert "SillyTavern lorebook “Eldoria”" in editor.lore.text() and not editor.lore.isHidden()
    assert not editor.save_button.isEnabled() and not editor.delete_button.isEnabled()
    assert editor.field_edit("statement").isReadOnly()


def test_selected_memories_export_as_world_info_and_a_file_imports_into_a_scope(
    qtbot,
    context: AppContext,
    service: MemoryService,
    seed: Callable[..., Node],
    settled: Callable[[], None],
    tmp_path: Path,
) -> None:
    identities(service)
    service.create_node(
        "a", NodeDraft(type="location", fields={"name": "Sunken Library", "state": "Half drowned."})
    )
    panel = MemoriesPanel(context)
    qtbot.addWidget(panel)
    context.set_chat("a")
    settled()
    panel.table.selectAll()
    target = tmp_path / "lore.json"
    panel.ops.export_worldinfo(str(target))
    settled()
    entry = json.loads(target.read_text(encoding="utf-8"))["entries"]["0"]
    assert (entry["key"], entry["content"]) == (["Sunken Library"], "Half drowned.")
    context.set_chat("c")
    actions = FileActions(context)
    qtbot.addWidget(actions)
    actions.import_worldinfo(str(target), "world")
    settled()
    assert [(n.title, n.scope.kind) for n in service.all_nodes("c")] == [("Sunken Library", "world")]
    assert "Added 1 memories from “lore”" in actions.rows["import_worldinfo"].result.text()


def test_a_malformed_world_info_file_is_refused_and_nothing_written(
    qtbot, context: AppContext, service: MemoryService, settled: Callable[[], None], tmp_path: Path
) -> None:
    identities(service)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"entries": {"0": {"key": ["a"], "content": "x" * 100_000}}}), encoding="utf-8")
    context.set_chat("a")
    actions = FileActions(context)
    qtbot.addWidget(actions)
    actions.import_worldinfo(str(bad), "world")
    settled()
    assert "100,000 characters long" in actions.rows["import_worldinfo"].result.text()
    assert service.all_nodes("a") == []


def test_a_character_group_s_menu_shows_the_character_across_chats_in_the_graph(
    qtbot, context: AppContext, service: MemoryService, settled: Callable[[], None]
) -> None:
    from bme_desktop.ui.main_window import MainWindow

    identities(service)
    window = MainWindow(context)
    qtbot.addWidget(window)
    settled()
    chats = window.chats
    mira = next(
        chats.proxy.index(r, 0)
        for r in range(chats.proxy.rowCount())
        if str(chats.proxy.index(r, 0).data()).startswith("Mira")
    )
    assert chats.group_menu(chats.list.model().index(0, 0, mira)) is None  # a chat row has no such menu
    menu = chats.group_menu(mira)
    assert menu is not None
    menu.actions()[0].trigger()
    assert context.chat_id == "b"  # the group's newest chat
    assert window.graph_toolbar.across.isChecked() and window.stack.currentWidget() is window.views["graph2d"]
