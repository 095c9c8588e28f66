"""The memory details list where a memory came from (source messages) and what happened to it
(extraction's previous values and the audit log entries naming it)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from bme_desktop.core.model import MessageIn, Node
from bme_desktop.core.service import MemoryService
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.memory_detail_dialogs import MessageDialog
from bme_desktop.ui.panels.memories import MemoriesPanel

CHAT = "chat-1"


def _panel(qtbot, context: AppContext, node: Node, settled: Callable[[], None]) -> MemoriesPanel:
    panel = MemoriesPanel(context)
    qtbot.addWidget(panel)
    context.set_chat(CHAT)
    settled()
    context.sigNodeSelected.emit(node.id)
    settled()
    return panel


def test_details_list_the_source_messages_with_speaker_and_first_line(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    seed()
    service.sync(
        CHAT,
        [
            MessageIn(index=0, role="user", text="hello"),
            MessageIn(index=1, role="assistant", text="hi"),
            MessageIn(index=2, role="user", name="Mara", text="The lantern went out\nand more"),
        ],
        complete=True,
    )
    node = seed("fact", {"statement": "The lantern went out"}, source_indices=[0, 2])
    panel = _panel(qtbot, context, node, settled)
    items = [panel.details.sources.item(i).text() for i in range(panel.details.sources.count())]
    assert items == ["#0 · User · hello", "#2 · Mara · The lantern went out"]


def test_clicking_a_source_opens_the_message_with_its_neighbours(
    qtbot, context: AppContext, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    node = seed("fact", {"statement": "hi"}, source_indices=[1])
    panel = _panel(qtbot, context, node, settled)
    panel.details._open_message(panel.details.sources.item(0))
    settled()
    dialog = panel.details.findChild(MessageDialog)
    assert dialog is not None and [m.index for m in dialog.messages] == [0, 1]
    assert "hello" in dialog.text.toPlainText() and "hi" in dialog.text.toPlainText()


def test_history_shows_audit_entries_and_previous_values(
    qtbot,
    context: AppContext,
    service: MemoryService,
    seed: Callable[..., Node],
    settled: Callable[[], None],
    tmp_path: Path,
) -> None:
    node = seed("fact", {"statement": "Lyra fears water"})
    service.update_node(CHAT, node.id, {"importance": 8.0}, actor="Mara")
    stored = service.get_node(CHAT, node.id)  # as extraction leaves a revised node:
    revised = replace(stored, flags={"history": [{"batch": 1, "fields": {"statement": "Lyra loves water"}}]})
    service.write(lambda uow: uow.put_node(revised))
    panel = _panel(qtbot, context, node, settled)
    panel.resize(900, 700)
    panel.show()
    settled()
    lines = [panel.details.history.item(i).text() for i in range(panel.details.history.count())]
    assert any("Mara" in line and "edited" in line for line in lines)
    assert any("test" in line and "created" in line for line in lines)
    assert any("statement: Lyra loves water" in line for line in lines)
    panel.details.setCurrentIndex(1)
    assert panel.grab().save(str(tmp_path / "memories-selected.png"))


def test_history_says_which_memory_superseded_this_one(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    old = seed("fact", {"statement": "Tomas loves mushroom stew"}, source_indices=[5])
    new = seed("fact", {"statement": "Tomas hates mushrooms now"}, source_indices=[47])
    stored = service.get_node(CHAT, old.id)  # as extraction leaves a replaced fact:
    service.write(
        lambda uow: uow.put_node(
            replace(
                stored,
                flags={
                    "superseded_by": new.id,
                    "validity": {"from_index": 5, "until_index": 47, "invalidated_at": 1.0e9},
                },
            )
        )
    )
    panel = _panel(qtbot, context, old, settled)
    lines = [panel.details.history.item(i).text() for i in range(panel.details.history.count())]
    assert any("superseded by: " in line and "(#47)" in line for line in lines)
