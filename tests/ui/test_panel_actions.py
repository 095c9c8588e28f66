"""The Actions panel runs maintenance tasks on a worker and reports what changed."""

from __future__ import annotations

from collections.abc import Callable

from bme_desktop.core.lifecycle.tasks import register_tasks
from bme_desktop.core.model import Node
from bme_desktop.core.service import MemoryService
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.panels.actions import ActionsPanel

CHAT = "chat-1"


def test_running_upkeep_promotes_an_important_draft_and_shows_the_count(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    register_tasks(service)
    draft = seed(
        "fact", {"statement": "the lighthouse key is under the stone"}, tier="short_term", importance=9.0
    )
    panel = ActionsPanel(context)
    qtbot.addWidget(panel)
    context.set_chat(CHAT)
    row = panel.rows["upkeep"]
    assert row.button.isEnabled()
    row.button.click()
    settled()
    assert service.get_node(CHAT, draft.id).tier == "long_term"
    assert "1 memories changed in" in row.result.text()
    assert row.button.isEnabled() and not row.progress.isVisible()


def test_a_task_this_version_has_not_registered_is_disabled_with_a_reason(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    seed()
    service.maintenance_tasks.pop("reflect", None)
    panel = ActionsPanel(context)
    qtbot.addWidget(panel)
    context.set_chat(CHAT)
    settled()  # the panel's own loading (backup status, the chat's facts) is done
    row = panel.rows["reflect"]
    assert not row.button.isEnabled()
    assert "cannot run" in row.button.toolTip()
    panel.run("reflect")  # refused without a worker
    assert not context.runner.busy


def test_a_conflict_from_the_service_is_shown_as_the_result(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    from bme_desktop.core.errors import Conflict

    seed()

    def refuse(_chat_id: str) -> object:
        raise Conflict("the graph is being restored")

    service.maintenance_tasks["summarize"] = refuse  # type: ignore[assignment]
    panel = ActionsPanel(context)
    qtbot.addWidget(panel)
    context.set_chat(CHAT)
    panel.rows["summarize"].button.click()
    settled()
    assert "the graph is being restored" in panel.rows["summarize"].result.text()
