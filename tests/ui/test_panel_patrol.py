"""The Patrol panel: the latest report's lists, selecting a memory, running
the patrol now, and asking what is known about something."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt

from bme_desktop.core import editing
from bme_desktop.core.events import Initiator
from bme_desktop.core.lifecycle.patrol_daily import latest_patrol, run_patrol
from bme_desktop.core.model import Node
from bme_desktop.core.operations import OpResult
from bme_desktop.core.service import MemoryService
from bme_desktop.core.store import tables as t
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.panels.patrol import PatrolPanel

CHAT = "chat-1"


def _top(section: PatrolPanel, row: int) -> str:
    return section.tree.topLevelItem(row).text(0)


def test_the_latest_report_is_listed_with_counts(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    seed("fact", {"statement": "Snow in June"})
    seed("fact", {"statement": "Rain in May"})
    run_patrol(service, CHAT)
    section = PatrolPanel(context)
    qtbot.addWidget(section)
    context.set_chat(CHAT)
    settled()
    assert section.counts()["unclassified"] == 2
    assert section.tree.topLevelItemCount() == 7
    assert "(2)" in _top(section, 4) and section.tree.topLevelItem(4).childCount() == 2


def test_clicking_an_item_selects_its_memory(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    node = seed("fact", {"statement": "Snow in June"})
    run_patrol(service, CHAT)
    section = PatrolPanel(context)
    qtbot.addWidget(section)
    context.set_chat(CHAT)
    settled()
    selected: list[str] = []
    context.sigNodeSelected.connect(selected.append)
    child = section.tree.topLevelItem(4).child(0)
    section.tree.itemClicked.emit(child, 0)
    assert selected == [node.id]


def test_run_patrol_now_stores_and_shows_a_report(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    seed("fact", {"statement": "Snow in June"})
    section = PatrolPanel(context)
    qtbot.addWidget(section)
    context.set_chat(CHAT)
    settled()
    assert section.tree.topLevelItemCount() == 0 and latest_patrol(service, CHAT) is None
    done: list[OpResult[object]] = []
    context.sigOperationDone.connect(done.append)
    section.run_button.click()
    settled()
    assert latest_patrol(service, CHAT) is not None
    assert [(r.initiator, r.origin) for r in done] == [(Initiator.UPKEEP, section)]  # the app's runner
    assert section.counts()["unclassified"] == 1 and section.tree.topLevelItemCount() == 7


def test_asking_shows_what_is_known_and_how_sure(
    qtbot, context: AppContext, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    seed("fact", {"statement": "Lyra loves green tea"})
    section = PatrolPanel(context)
    qtbot.addWidget(section)
    context.set_chat(CHAT)
    settled()
    section.about_edit.setText("tea")
    section.ask_button.click()
    settled()
    assert "Lyra loves green tea" in section.answer.toPlainText()
    section.about_edit.setText("dragons")
    section.ask_button.click()
    settled()
    assert "dragons" in section.answer.toPlainText() and "Lyra" not in section.answer.toPlainText()


def test_entries_past_the_cap_are_counted_and_said_to_be_not_listed(qtbot, context: AppContext) -> None:
    section = PatrolPanel(context)
    qtbot.addWidget(section)
    entry = {"ids": ["a", "b"], "titles": ["A", "B"], "note": "similarity 0.99"}
    section.show_record({"at": 0.0, "report": {"duplicates": [entry] * 3, "omitted": {"duplicates": 40}}})
    duplicates = section.tree.topLevelItem(1)
    assert "(43)" in duplicates.text(0) and duplicates.childCount() == 4
    assert "40" in duplicates.child(3).text(0)


def _auto_event(service: MemoryService, text: str) -> Node:
    """An event as extraction writes it (retention never retires what was written by hand)."""
    return service.write(
        lambda uow: editing.create_node(
            uow, CHAT, editing.NodeDraft(type="event", fields={"summary": text}), manual=False
        )
    )


def _patrolled(
    qtbot, context: AppContext, service: MemoryService, settled: Callable[[], None]
) -> PatrolPanel:
    """The panel showing a patrol run now on the chat."""
    run_patrol(service, CHAT)
    section = PatrolPanel(context)
    qtbot.addWidget(section)
    context.set_chat(CHAT)
    settled()
    return section


def test_the_report_previews_what_the_next_upkeep_retires(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    seed("fact", {"statement": "Snow in June"})  # the chat
    events = [_auto_event(service, f"The tide rose {i} times") for i in range(3)]
    service.settings.lifecycle.retention_max_count = {"event": 1}
    section = _patrolled(qtbot, context, service, settled)
    top = section.tree.topLevelItem(6)
    assert top.text(0) == "Will be retired at the next upkeep (2)" and top.childCount() == 2
    assert section.counts()["retiring"] == 2
    listed = {top.child(i).data(0, Qt.ItemDataRole.UserRole + 1)[0] for i in range(2)}
    assert listed < {e.id for e in events}


def test_a_refused_rule_is_shown_under_the_preview(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    seed("fact", {"statement": "Snow in June"})
    old = _auto_event(service, "The tide rose")
    service.write(
        lambda uow: uow.conn.execute(
            t.nodes.update().where(t.nodes.c.id == old.id).values(created_at=service.now() - 2 * 86400.0)
        )
    )  # two days old
    service.settings.lifecycle.retention_max_age_days = {"event": 1.0}
    top = _patrolled(qtbot, context, service, settled).tree.topLevelItem(6)
    assert top.text(0) == "Will be retired at the next upkeep (0)"
    assert top.child(0).text(0).startswith("Refused: the maximum age of Event (1 days) would retire all 1")
