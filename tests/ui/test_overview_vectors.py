"""The Overview says how far recall's vector index is, and which model (and engine) embeds."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bme_desktop.core.model import Node
from bme_desktop.core.recall.pipeline import HybridRecaller
from bme_desktop.core.service import MemoryService
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.panels.overview import OverviewPanel, VectorState, vector_state_text

CHAT = "chat-1"


def test_each_state_of_the_index_reads_as_one_line() -> None:
    assert "off" in vector_state_text(None, 3)
    assert "first recall" in vector_state_text(VectorState(None, None, True, None), 3)
    waiting = vector_state_text(VectorState("e5", 2, True, "onnxruntime"), 5)
    assert "2 of 5" in waiting and "more on the way" in waiting and "e5 on ONNX Runtime" in waiting
    done = vector_state_text(VectorState("hashed", 5, False, None), 5)
    assert "5 memories embedded" in done and done.endswith("hashed")


@pytest.fixture
def recaller(hashed_recaller: HybridRecaller) -> HybridRecaller:
    return hashed_recaller


def test_the_panel_shows_the_embedded_count_once_the_index_is_ready(
    qtbot,
    context: AppContext,
    service: MemoryService,
    recaller: HybridRecaller,
    seed: Callable[..., Node],
    settled: Callable[[], None],
) -> None:
    for _ in range(3):
        seed()
    panel = OverviewPanel(context)
    qtbot.addWidget(panel)
    context.set_chat(CHAT)  # no recall yet: opening the chat's overview loads its vectors
    settled()
    # while the memories are embedded the panel looks again every 2 s, until all are in
    qtbot.waitUntil(lambda: "3 memories embedded" in panel.vectors.text(), timeout=15000)
    assert recaller.vectors is not None and recaller.vectors.embedder() is not None
    assert recaller.vectors.embedder().name in panel.vectors.text()  # type: ignore[union-attr]
