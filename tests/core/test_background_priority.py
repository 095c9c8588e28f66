"""Background threads run at a lower priority than the threads a user waits for."""

from __future__ import annotations

import os
import threading

import pytest

from bme_desktop.core.background import lower_thread_priority


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="no per-thread priority on this platform")
def test_only_the_calling_thread_is_lowered() -> None:
    before = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    seen: dict[str, int] = {}

    def worker() -> None:
        if lower_thread_priority(5):
            seen["worker"] = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    if "worker" not in seen:
        pytest.skip("this system does not allow changing a thread's priority")
    assert seen["worker"] == min(19, before + 5)
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == before
