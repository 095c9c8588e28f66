"""A first connect's import survives a restart midway (issue 22.3): a real ``bme-desktop serve``
is killed (SIGKILL, no shutdown) while it extracts a long chat pushed in one ``complete`` sync;
started again on the same data folder, it goes on from the last committed batch and finishes,
and nothing finished is done again: every batch committed before the kill is kept as it was,
no message is extracted twice, and no stored vector is embedded and written again. Meanwhile
``/v1/events`` reports the import's progress with its counts and, once the pace is known, the
time left (what the extension's badge and the app's status bar show)."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import literal_column, select

from bench.bench_common import start_bridge
from bme_desktop.bridge.client import BridgeClient
from bme_desktop.core.extract.progress import read_progress
from bme_desktop.core.service import MemoryService
from bme_desktop.core.store import tables as t

from .helpers import messages

CHAT = "long-chat"
MESSAGES = 240


@contextmanager
def serve(data: Path, token: str) -> Iterator[tuple[Any, httpx.Client]]:
    proc, url = start_bridge(data, token, __file__, bare=False)
    try:
        with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=120.0) as api:
            yield proc, api
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(60)


def listen(url: str, token: str, into: list[dict[str, Any]]) -> None:
    """Collect the chat's ``extraction.progress`` events until one says nothing is due."""

    async def run() -> None:
        async for event in BridgeClient(url, token).events(chat_id=CHAT):
            if event.get("type") == "extraction.progress":
                into.append(event)
                if not event.get("due"):
                    return

    with contextlib.suppress(Exception):  # the assertions below say what was missing
        asyncio.run(asyncio.wait_for(run(), 300))


def extraction(api: httpx.Client) -> dict[str, Any]:
    found: dict[str, Any] = api.get(f"/v1/chats/{CHAT}").json()["extraction"]
    return found


def stored(data: Path) -> tuple[list[tuple[int, int | None, str]], dict[str, tuple[int, str]], int]:
    """The chat's extraction batches (id, last message read, status), the rowid and text hash of
    each stored vector (a vector written again gets a new rowid) and the messages extracted so far."""
    service = MemoryService.open(data, attach=False)
    try:
        with service.store.engine.connect() as conn:
            batches = [
                (int(b), r, s)
                for b, r, s in conn.execute(
                    select(t.batches.c.id, t.batches.c.read_to, t.batches.c.status)
                    .where(t.batches.c.kind == "extract")
                    .order_by(t.batches.c.id)
                )
            ]
            vectors = {
                node_id: (int(rowid), hashed)
                for node_id, rowid, hashed in conn.execute(
                    select(t.vectors.c.node_id, literal_column("vectors.rowid"), t.vectors.c.text_hash)
                )
            }
        progress = service.read(lambda r: read_progress(r, CHAT))
        assert progress is not None
        return batches, vectors, progress.extracted
    finally:
        service.close()


def test_an_import_killed_midway_goes_on_from_its_last_batch_and_redoes_nothing(tmp_path: Path) -> None:
    data, token = tmp_path / "data", secrets.token_urlsafe(24)
    with serve(data, token) as (proc, api):
        answer = api.post(
            f"/v1/chats/{CHAT}/sync", json={"messages": messages(MESSAGES), "complete": True, "wait": False}
        )
        assert answer.status_code == 200
        deadline = time.monotonic() + 240
        while extraction(api)["extracted"] < 30:  # some batches are committed, most are not
            assert time.monotonic() < deadline, extraction(api)
            time.sleep(0.05)
        proc.kill()  # no shutdown: whatever was under way is lost
        proc.wait(60)
    before, vectors_before, extracted_before = stored(data)
    applied_before = [b for b in before if b[2] == "applied"]
    assert applied_before and extracted_before < MESSAGES - 1, (extracted_before, len(before))

    with serve(data, token) as (proc, api):  # no sync arrives: the start resumes the import
        progress: list[dict[str, Any]] = []
        listener = threading.Thread(target=listen, args=(str(api.base_url), token, progress), daemon=True)
        listener.start()
        deadline = time.monotonic() + 280
        while (found := extraction(api))["due"]:
            assert time.monotonic() < deadline, found
            time.sleep(0.2)
        assert api.post(f"/v1/chats/{CHAT}/sync", json={"messages": [], "wait": True}).status_code == 200
        assert (found["extracted"], found["total"]) == (MESSAGES, MESSAGES)
        listener.join(30)
    after, vectors_after, _ = stored(data)

    assert after[: len(before)] == before  # what was committed before the kill is kept as it was
    assert all(status == "applied" for _, _, status in after)
    ends = [read_to for _, read_to, _ in after]
    assert ends == sorted(set(ends))  # each batch goes on where the last one ended: none read twice
    # A memory a later batch changed is embedded again for its new text; one merged away loses its vector
    same = [i for i in vectors_before if i in vectors_after and vectors_after[i][1] == vectors_before[i][1]]
    assert [vectors_after[i] for i in same] == [
        vectors_before[i] for i in same
    ]  # none embedded again for the same text
    assert len(vectors_after) > len(vectors_before)
    assert progress and all(e["total"] == MESSAGES for e in progress)
    assert [e["extracted"] for e in progress] == sorted(e["extracted"] for e in progress)
    assert min(e["extracted"] for e in progress) >= extracted_before
    assert any(e["due"] and e["eta_s"] is not None and e["rate_per_s"] for e in progress)  # "about 3 min"
    assert progress[-1]["due"] == 0  # the last word: nothing due
