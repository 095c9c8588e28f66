"""The after-extraction steps: one write after each extraction batch, each step its own batch."""

from __future__ import annotations

from typing import Any

import pytest
from lifecycle_helpers import CHAT

from bme_desktop.core import editing
from bme_desktop.core.events import Event
from bme_desktop.core.lifecycle.worker import LifecycleWorker
from bme_desktop.core.model import MessageIn
from bme_desktop.core.service import MemoryService


def _extraction(uow: Any, start: int, end: int) -> None:
    uow.begin_batch(CHAT, "extract", actor="test", read_from=start, read_to=end)
    editing.create_node(
        uow,
        CHAT,
        editing.NodeDraft(
            type="event", fields={"summary": f"Event {end} at the gate."}, source_indices=[end]
        ),
        manual=False,
    )
    uow.end_batch()


def test_the_after_extraction_steps_share_one_write_and_keep_a_batch_each(
    service: MemoryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    service.sync(
        CHAT,
        [
            MessageIn(i, "user" if i % 2 == 0 else "assistant", f"I need to find the key {i}.")
            for i in range(6)
        ],
    )
    for k in range(service.settings.lifecycle.summary_every):
        service.write(lambda uow, k=k: _extraction(uow, 2 * k, 2 * k + 1))
    worker = LifecycleWorker(service).start()
    writes: list[Any] = []
    write = service.write
    monkeypatch.setattr(service, "write", lambda fn: writes.append(fn) or write(fn))
    try:
        service.events.publish(Event("extraction.finished", CHAT, {}))
        assert service.wait_for_follow_up(CHAT, 30)  # the steps run on the worker's thread
    finally:
        worker.stop()
    kinds = [b.kind for b in service.read(lambda r: r.batches(CHAT))]
    assert len(writes) == 1
    assert "summarize" in kinds and "working" in kinds
