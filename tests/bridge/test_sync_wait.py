"""A sync that waits for its extraction (``wait: true``) holds no worker while it waits: the
bridge's other requests are answered meanwhile (bench/soak.py found 20 waiting clients holding
all four workers, and every other sync queued behind them for tens of seconds)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import httpx

from bme_desktop.bridge.server import BridgeServer
from bme_desktop.core.extract.api import ExtractionTicket
from bme_desktop.core.service import MemoryService

from .helpers import AUTH, messages


class HeldExtraction:
    """Every sync's extraction finishes only when the test releases it."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.waiting = threading.Semaphore(0)

    def schedule(self, chat_id: str, *, force: bool = False) -> ExtractionTicket:
        def wait(timeout: float | None) -> int:
            self.waiting.release()
            self.release.wait(timeout)
            return 1

        return ExtractionTicket(queued=1, waiter=wait)

    def shutdown(self, wait: bool = True) -> None:
        self.release.set()


def test_syncs_waiting_for_their_extraction_leave_the_workers_to_other_requests(
    service: MemoryService, make_bridge: Callable[..., BridgeServer]
) -> None:
    held = HeldExtraction()
    service.extraction = held
    bridge = make_bridge(workers=2)
    with httpx.Client(base_url=bridge.url, headers=AUTH, timeout=60) as api, ThreadPoolExecutor(3) as pool:
        waiting = [
            pool.submit(api.post, f"/v1/chats/w{k}/sync", json={"messages": messages(2), "wait": True})
            for k in range(3)
        ]  # more than there are workers
        for _ in waiting:
            assert held.waiting.acquire(timeout=60)  # each one's write is done; all three wait
        try:
            quick = api.post("/v1/chats/other/sync", json={"messages": messages(2)})
            assert quick.status_code == 200 and quick.json()["extraction"] == {"queued": 1, "done": 0}
            assert api.get("/v1/chats/w0").status_code == 200
            assert not any(f.done() for f in waiting)
        finally:
            held.release.set()
        for future in waiting:
            answer = future.result(timeout=60)
            assert answer.status_code == 200 and answer.json()["extraction"] == {"queued": 1, "done": 1}
