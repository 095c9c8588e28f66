"""The one operation runner (``AppContext.operate``): an edit runs off the GUI thread and comes
back as its OpResult (what changed, who started it); the editor tells its own edits from others'."""

from __future__ import annotations

import threading
from collections.abc import Callable

from PySide6.QtWidgets import QPlainTextEdit

from bme_desktop.core.events import Initiator
from bme_desktop.core.model import Node
from bme_desktop.core.operations import OpResult
from bme_desktop.core.service import MemoryService
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.panels.node_editor import NodeEditor

CHAT = "chat-1"  # the chat the ``seed`` fixture writes


def test_an_edit_comes_back_with_its_change_record_and_initiator(
    context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    node = seed()
    threads: list[str] = []
    results: list[OpResult[Node]] = []
    announced: list[OpResult[object]] = []
    context.sigOperationDone.connect(announced.append)

    def edit(s: MemoryService, origin: object | None) -> OpResult[Node]:
        threads.append(threading.current_thread().name)
        return s.update_node(CHAT, node.id, {"pinned": True}, origin=origin)

    context.operate(edit, results.append)
    settled()
    (result,) = results
    assert threads != [threading.main_thread().name]
    assert result.value.pinned and result.initiator is Initiator.USER
    assert result.change(CHAT).nodes_changed == {node.id}
    undone: list[OpResult[bool]] = []
    context.operate(lambda s, origin: s.undo(CHAT, origin=origin), undone.append)
    settled()
    assert undone[0].value and undone[0].initiator is Initiator.UNDO
    assert [r.initiator for r in announced] == [Initiator.USER, Initiator.UNDO]


def test_the_editor_reads_others_edits_again_but_not_its_own(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    node = seed(fields={"statement": "one"})
    context.set_chat(CHAT)
    editor = NodeEditor(context)
    qtbot.addWidget(editor)
    editor.load(node.id)
    settled()
    loads: list[str] = []
    load = editor.load
    editor.load = lambda node_id: (loads.append(node_id), load(node_id))[1]  # type: ignore[method-assign]
    edit = editor.field_edit("statement")
    if isinstance(edit, QPlainTextEdit):
        edit.setPlainText("two")
    else:
        edit.setText("two")
    editor.save()
    settled()
    assert loads == [] and editor.node is not None and editor.node.fields["statement"] == "two"
    service.update_node(CHAT, node.id, {"fields": {"statement": "three"}})  # another's edit
    settled()
    assert loads == [node.id] and editor.node is not None and editor.node.fields["statement"] == "three"
