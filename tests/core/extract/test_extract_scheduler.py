"""The scheduler: batches per reply with context, events, tickets, pause, shutdown, rebuild."""

from __future__ import annotations

import threading
from pathlib import Path

from bme_desktop.core.extract.scheduler import ExtractionWorker
from bme_desktop.core.settings import Settings
from tests.core.extract.extract_helpers import canonical_graph, chat, open_service, record_events

TURNS = (
    ("assistant", "Welcome to the Silver Tavern."),
    ("user", "I love apple pie."),
    ("assistant", "Alice nods. Marcus arrives."),
    ("user", "Hello Marcus."),
    ("assistant", "Marcus says you must always pay first."),
    ("user", "Fine."),
)


def test_sync_wait_extracts_one_batch_per_reply_with_context(tmp_path: Path) -> None:
    with open_service(tmp_path) as svc:
        result = svc.sync("c", chat(*TURNS), complete=True, wait=True).value
        batches = svc.read(lambda r: r.batches("c", kind="extract"))
        assert result.done == 3
        assert [(b.read_from, b.read_to) for b in batches] == [(0, 0), (0, 2), (0, 4)]
        events = [n for n in svc.all_nodes("c") if n.type == "event"]
        assert sorted(tuple(e.source_indices) for e in events) == [(0,), (1, 2), (3, 4)]


def test_context_window_is_k_messages_before_the_batch(tmp_path: Path) -> None:
    settings = Settings()
    settings.extraction.context_messages = 1
    with open_service(tmp_path, settings) as svc:
        svc.sync("c", chat(*TURNS), complete=True, wait=True)
        batches = svc.read(lambda r: r.batches("c", kind="extract"))
        assert [(b.read_from, b.read_to) for b in batches] == [(0, 0), (0, 2), (2, 4)]


def test_every_n_replies_waits_for_the_nth_reply(tmp_path: Path) -> None:
    settings = Settings()
    settings.extraction.every_n_replies = 2
    with open_service(tmp_path, settings) as svc:
        svc.sync("c", chat(*TURNS), complete=True, wait=True)
        batches = svc.read(lambda r: r.batches("c", kind="extract"))
        assert [(b.read_from, b.read_to) for b in batches] == [(0, 2)]


def test_progress_events_name_the_range_and_extractor(tmp_path: Path) -> None:
    with open_service(tmp_path) as svc:
        events = record_events(svc)
        svc.sync("c", chat(*TURNS[:3]), complete=True, wait=True)
        finished = [e for e in events if e.type == "extraction.finished"]
        started = [e for e in events if e.type == "extraction.started"]
        assert [(e.data["from"], e.data["to"]) for e in started] == [(0, 0), (1, 2)]
        assert [e.data["extractor"] for e in finished] == ["heuristic", "heuristic"]
        assert finished[-1].data["created"] > 0
        assert any(e.type == "graph.changed" for e in events)


def test_a_pass_tells_its_progress_and_ends_with_nothing_due(tmp_path: Path) -> None:
    with open_service(tmp_path) as svc:
        events = record_events(svc)
        svc.sync("c", chat(*TURNS), complete=True, wait=True)
        progress = [e.data for e in events if e.type == "extraction.progress"]
        assert progress and progress[-1]["total"] == len(TURNS)
        assert progress[-1]["extracted"] == len(TURNS) - 1  # the last user message waits for a reply
        assert progress[-1]["due"] == 0 and progress[-1]["eta_s"] is None


def test_extraction_runs_off_the_writer_thread(tmp_path: Path) -> None:
    with open_service(tmp_path) as svc:
        threads: set[str] = set()
        svc.events.subscribe(
            lambda e: threads.add(threading.current_thread().name) if e.type == "extraction.started" else None
        )
        svc.sync("c", chat(*TURNS[:3]), complete=True, wait=True)
        assert threads == {"bme-extract"}


def test_pause_holds_automatic_extraction_until_resumed(tmp_path: Path) -> None:
    with open_service(tmp_path) as svc:
        worker = svc.extraction
        assert isinstance(worker, ExtractionWorker)
        with worker.pause():
            result = svc.sync("c", chat(*TURNS[:3]), complete=True, wait=True, wait_timeout=0.3).value
            assert result.done == 0 and svc.all_nodes("c") == []
        ticket = svc.extraction.schedule("c")
        assert ticket.wait(30) == 2
        assert svc.all_nodes("c")


def test_shutdown_releases_waiters_and_refuses_new_work(tmp_path: Path) -> None:
    svc = open_service(tmp_path).__enter__()
    worker = svc.extraction
    assert isinstance(worker, ExtractionWorker)
    with worker.pause():
        ticket = worker.schedule("c")
        worker.shutdown(wait=True)
        assert ticket.wait(5) == 0
    assert worker.schedule("c").queued == 0
    svc.close()


def test_rebuild_recreates_the_same_graph_and_is_one_task(tmp_path: Path) -> None:
    with open_service(tmp_path) as svc:
        svc.sync("c", chat(*TURNS), complete=True, wait=True)
        before = canonical_graph(svc, "c")
        change = svc.run_maintenance("c", "rebuild").value
        assert canonical_graph(svc, "c") == before
        assert change.nodes_removed and change.nodes_added
        assert len(svc.read(lambda r: r.batches("c", kind="extract", status="applied"))) == 3


def test_default_pipelines_attach_the_extraction_worker(tmp_path: Path) -> None:
    with open_service(tmp_path, everything=True) as svc:
        assert isinstance(svc.extraction, ExtractionWorker)
        assert "rebuild" in svc.maintenance_tasks


def test_what_extraction_writes_is_told_apart_from_the_sync_that_queued_it(tmp_path: Path) -> None:
    from bme_desktop.core.events import GraphChanged, Initiator

    with open_service(tmp_path) as svc:
        seen: list[GraphChanged] = []
        svc.events.on(GraphChanged, seen.append)
        synced = svc.operate(lambda: svc.sync("c", chat(*TURNS[:3]), complete=True, wait=True).value)
        assert synced.initiator is Initiator.SYNC and synced.changes == ()  # extraction is not the sync's
        assert seen and {e.initiator for e in seen} == {Initiator.EXTRACTION}
