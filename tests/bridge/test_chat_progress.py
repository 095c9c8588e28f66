"""``GET /v1/chats/{id}`` says how far extraction is: messages extracted of those stored, those
still due, and the pace and time left while some are."""

from __future__ import annotations

import httpx

from bme_desktop.core.extract.progress import ExtractionProgress, Pace
from bme_desktop.core.extract.scheduler import attach
from bme_desktop.core.service import MemoryService

from .helpers import messages


def test_the_chat_says_how_many_messages_are_extracted_and_how_many_are_due(
        service: MemoryService, api: httpx.Client) -> None:
    worker = attach(service)
    with worker.pause():
        assert api.post("/v1/chats/c/sync", json={"messages": messages(9), "complete": True}).status_code == 200
        before = api.get("/v1/chats/c").json()["extraction"]
    assert api.post("/v1/chats/c/sync", json={"messages": [], "wait": True}).json()["extraction"]["done"]
    after = api.get("/v1/chats/c").json()["extraction"]
    assert (before["extracted"], before["total"], before["due"]) == (0, 9, 8)  # the last turn waits for a reply
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
