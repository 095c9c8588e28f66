"""A process killed (SIGKILL) in the middle of extracting a 500-message chat loses no
accepted message and leaves no half batch; a resync finishes the job, and the graph equals a
from-scratch extraction."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from bme_desktop.core.model import MessageIn
from bme_desktop.core.service import MemoryService
from tests.core.extract.extract_helpers import canonical_graph, open_service

ROOT = Path(__file__).resolve().parents[3]
LINES = (
    "Marcus went to the Silver Tavern.",
    "I love green tea.",
    "You must always pay first.",
    "Alice smiles at Marcus.",
    "My birthday is in May.",
    "小明去了北京。",
    "Marcus wakes up angry.",
)


KILL_AFTER = 3  # extraction batches applied before the SIGKILL


def messages() -> list[MessageIn]:
    return [
        MessageIn(i, "user" if i % 2 == 0 else "assistant", f"{LINES[i % 7]} {LINES[(i * 3) % 7]} ({i})")
        for i in range(500)
    ]


CHILD = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from bme_desktop.core.service import MemoryService
    from bme_desktop.core.extract.scheduler import attach
    from tests.core.ingest.test_extraction_crash import messages
    svc = MemoryService.open(Path(sys.argv[1]), attach=False)
    attach(svc)
    svc.sync("c", messages(), complete=True)
    print("accepted", flush=True)
    time.sleep(600)
""")


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
def test_sigkill_during_extraction_loses_nothing_and_leaves_no_half_batch(tmp_path: Path) -> None:
    data = tmp_path / "data"
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(data)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == b"accepted"
        probe = MemoryService.open(data, attach=False)
        # Kill once a few batches are in: how long that takes depends on the machine's load,
        # so the bound is generous and the assertions below do not depend on how many.
        deadline = time.monotonic() + 200
        seen = 0
        while seen < KILL_AFTER and time.monotonic() < deadline:
            seen = len(probe.read(lambda r: r.batches("c", kind="extract")))
            time.sleep(0.05)
        probe.close()
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()

    with open_service(data) as svc:
        assert len(svc.messages("c")) == 500
        applied = svc.read(lambda r: r.batches("c", kind="extract", status="applied"))
        assert seen >= 1, "no batch was committed before the kill"
        assert seen <= len(applied) < 250  # every batch seen committed survives; the kill came midway
        state = svc.read(lambda r: r.chat_row("c"))["state"]  # type: ignore[index]
        assert state["extracted_to"] == applied[-1].read_to
        assert state["extraction_count"] == len(applied)
        assert {n.batch_id for n in svc.all_nodes("c")} <= {b.id for b in applied}
        svc.sync("c", messages(), complete=True, wait=True)
        assert len(svc.read(lambda r: r.batches("c", kind="extract", status="applied"))) == 250
        got = canonical_graph(svc, "c")
    with open_service(tmp_path / "fresh") as fresh:
        fresh.sync("c", messages(), complete=True, wait=True)
        assert canonical_graph(fresh, "c") == got
