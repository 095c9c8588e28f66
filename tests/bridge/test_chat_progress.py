"""``GET /v1/chats/{id}`` says how far extraction is: messages extracted of those stored, those
still due, and the pace and time left while some are."""

from __future__ import annotations

import threading
from pathlib import Path

import httpx

from bme_desktop.bridge.config import BridgeConfig
from bme_desktop.bridge.server import BridgeServer
from bme_desktop.core.extract.progress import ExtractionProgress, Pace
from bme_desktop.core.extract.scheduler import ExtractionWorker, attach
from bme_desktop.core.model import MessageIn
from bme_desktop.core.service import MemoryService

from .helpers import TOKEN, messages


def test_the_chat_says_how_many_messages_are_extracted_and_how_many_are_due(
    service: MemoryService, api: httpx.Client
) -> None:
    worker = attach(service)
    with worker.pause():
        assert (
            api.post("/v1/chats/c/sync", json={"messages": messages(9), "complete": True}).status_code == 200
        )
        before = api.get("/v1/chats/c").json()["extraction"]
    assert api.post("/v1/chats/c/sync", json={"messages": [], "wait": True}).json()["extraction"]["done"]
    after = api.get("/v1/chats/c").json()["extraction"]
    assert (before["extracted"], before["total"], before["due"]) == (
        0,
        9,
        8,
    )  # the last turn waits for a reply
    assert (after["extracted"], after["total"], after["due"], after["eta_s"]) == (8, 9, 0, None)


def test_the_estimate_is_the_time_left_at_the_pace_of_the_last_batches() -> None:
    now = [0.0]
    pace = Pace(clock=lambda: now[0])
    for _ in range(5):
        pace.note("c", 2)  # two messages a batch, a batch every half second
        now[0] += 0.5
    found = pace.estimate("c", ExtractionProgress(extracted=10, total=100, due=90))
    assert found.rate == 4.0 and found.eta_s == 22.5
    assert pace.estimate("c", ExtractionProgress(extracted=100, total=100, due=0)).eta_s is None


def test_an_import_cut_short_by_a_restart_goes_on_when_the_bridge_starts_again(tmp_path: Path) -> None:
    data = tmp_path / "restart"
    first = MemoryService.open(data)
    with first.extraction.pause():  # type: ignore[attr-defined]
        first.sync("c", [MessageIn(m["index"], m["role"], m["text"]) for m in messages(9)], complete=True)
        first.close()  # stopped before any batch ran
    again = MemoryService.open(data)
    finished = threading.Event()
    again.events.subscribe(
        lambda e: finished.set() if e.type == "extraction.finished" and e.data["to"] == 7 else None
    )
    server = BridgeServer(again, TOKEN, BridgeConfig(port=0))
    try:
        before = again.read(lambda r: r.batches("c", kind="extract"))
        server.start()  # no sync arrives: the bridge's start resumes the import
        assert finished.wait(300)
        worker = again.extraction
        assert isinstance(worker, ExtractionWorker)
        progress = worker.progress("c")
    finally:
        server.stop()
        again.close()
    assert before == [] and progress is not None and (progress.extracted, progress.due) == (8, 0)
