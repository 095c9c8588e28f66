"""The Injection panel: the detail of a kept recall, the record actions (edit, delete,
re-run) and the playground that shows what recall would return with each score component."""

from __future__ import annotations

from collections.abc import Callable

from bme_desktop.core.model import Node
from bme_desktop.core.recall.api import RecallRequest
from bme_desktop.core.service import MemoryService
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.panels.injection import InjectionPanel

CHAT = "chat-1"


def _panel(qtbot, context: AppContext, settled: Callable[[], None]) -> InjectionPanel:
    panel = InjectionPanel(context)
    qtbot.addWidget(panel)
    context.set_chat(CHAT)
    settled()
    return panel


def _keep(service: MemoryService, index: int, text: str) -> None:
    service.recall(RecallRequest(CHAT, text, index=index), keep=True)


def test_the_detail_counts_the_selected_records_memories(qtbot, context: AppContext, service: MemoryService,
                                                         seed: Callable[..., Node],
                                                         settled: Callable[[], None]) -> None:
    seed("fact", {"statement": "The lighthouse keeper hoards brass keys"})
    _keep(service, 0, "zzqx nothing matches this")
    _keep(service, 2, "the lighthouse keeper and the brass keys")
    kept = {r.index: r for r in service.recall_records(CHAT)}
    assert kept[2].nodes and not kept[0].nodes
    panel = _panel(qtbot, context, settled)
    assert panel.detail.text().startswith("Message 2 · 1 memories")
    assert panel.text.toPlainText() == kept[2].injection
    panel.list.setCurrentIndex(panel.model.index(1, 0))
    assert "no memory matched" in panel.detail.text()
    assert "Pick a recall" not in panel.text.placeholderText()
