"""The bus only queues the life cycle's work: intake and the after-extraction steps run on the
worker's own thread (``bme-lifecycle``), never on the thread that published the event; the
wait paths (``sync(wait=True)``, the sync's ticket, imports, a recorded step, closing) wait
for that work, so new memories already wait in the review centre when they return."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from lifecycle_helpers import CHAT, auto_node, get

from bme_desktop.core.backup.export import dumps, export_document
from bme_desktop.core.backup.importer import import_chats
from bme_desktop.core.backup.validate import load_document
from bme_desktop.core.clock import ManualClock
from bme_desktop.core.events import ChangeRecord, ExtractionFinished, GraphChanged, Initiator
from bme_desktop.core.extract.scheduler import attach as attach_extraction
from bme_desktop.core.lifecycle import attach as attach_lifecycle
from bme_desktop.core.lifecycle import worker as worker_module
from bme_desktop.core.lifecycle.tasks import run_step
from bme_desktop.core.lifecycle.worker import FIRST_UPKEEP_DELAY_S, LifecycleWorker
from bme_desktop.core.recall.api import RecallRequest
from bme_desktop.core.rewrites import run_recorded
from bme_desktop.core.service import MemoryService
from bme_desktop.core.settings import Settings
from tests.core.extract.extract_helpers import chat
from tests.core.extract.test_extract_scheduler import TURNS

FACT = {"statement": "The bridge at Kell is out", "category": "fact"}
SLOW_S = 0.3  # how long each life-cycle step is held back: a path that does not wait for it misses it


class Steps:
    """A spy on the worker's ``run_step``: the threads its steps run on, each held back
    ``delay`` seconds (or until ``release`` is set, when ``hold``), then run for real."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, delay: float = 0.0, hold: bool = False) -> None:
        self.threads: list[str] = []
        self.entered = threading.Event()
        self.release = threading.Event()
        self.delay, self.hold = delay, hold
        monkeypatch.setattr(worker_module, "run_step", self)

    def __call__(self, service: Any, chat_id: str, step: Callable[..., Any], cancel: Any = None) -> Any:
        self.threads.append(threading.current_thread().name)
        self.entered.set()
        if self.hold:
            assert self.release.wait(30)
        time.sleep(self.delay)
        return run_step(service, chat_id, step, cancel)


@pytest.fixture
def worker(service: MemoryService) -> Iterator[LifecycleWorker]:
    started = LifecycleWorker(service).start()
    yield started
    started.stop()


@contextlib.contextmanager
def _extracting(path: Path, database_url: str, settings: Settings | None = None) -> Iterator[MemoryService]:
    """A service on ``database_url`` with extraction and the life cycle attached."""
    svc = MemoryService.open(path, database_url=database_url, settings=settings or Settings(), attach=False)
    try:
        attach_extraction(svc)
        attach_lifecycle(svc)
        yield svc
    finally:
        svc.close()


def _pending(svc: MemoryService, chat_id: str) -> tuple[int, int]:
    """(automatic memories, of them waiting in the review centre)."""
    auto = [n for n in svc.all_nodes(chat_id) if not n.manually_edited]
    return len(auto), sum(1 for n in auto if n.review_status == "pending")


def test_the_publisher_only_queues_the_intake_which_runs_on_the_life_cycle_thread(
    service: MemoryService, worker: LifecycleWorker, monkeypatch: pytest.MonkeyPatch
) -> None:
    steps = Steps(monkeypatch, hold=True)
    try:
        node = auto_node(service, "fact", FACT)  # the write publishes graph.changed on this thread
        assert steps.entered.wait(30)  # ... and returned while the intake is held on the worker
        assert steps.threads == ["bme-lifecycle"]
        assert get(service, node.id).review_status == "approved" and get(service, node.id).srs is None
        steps.release.set()
        assert service.wait_for_follow_up(CHAT, 30)
    finally:
        steps.release.set()
    assert get(service, node.id).review_status == "pending" and get(service, node.id).srs is not None


def test_no_subscriber_reads_or_writes_on_the_publishing_thread(
    service: MemoryService, worker: LifecycleWorker, hashed_recaller: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The life cycle, the vector maintainer, the recall cache and its warmer only queue or mark."""
    node = auto_node(service, "fact", FACT)
    service.recall(RecallRequest(CHAT, "the bridge at Kell"), keep=False)  # recall state and vectors loaded
    assert service.wait_for_follow_up(CHAT, 30)
    publishing: list[bool] = [False]
    done_here: list[str] = []
    for name in ("read", "write"):
        real = getattr(service, name)

        def spy(fn: Callable[..., Any], real: Callable[..., Any] = real, name: str = name) -> Any:
            if publishing[0] and threading.current_thread() is threading.main_thread():
                done_here.append(name)
            return real(fn)

        monkeypatch.setattr(service, name, spy)
    change = ChangeRecord(CHAT)
    change.node_added(node.id)
    publishing[0] = True
    try:
        service.events.publish(GraphChanged(CHAT, change, Initiator.EXTRACTION))
        service.events.publish(ExtractionFinished(CHAT, 0, 0))
    finally:
        publishing[0] = False
    assert done_here == []
    assert service.wait_for_follow_up(CHAT, 30)


def test_waiting_for_the_follow_up_work_on_the_life_cycle_thread_or_the_writer_is_refused(
    service: MemoryService, worker: LifecycleWorker, monkeypatch: pytest.MonkeyPatch
) -> None:
    refused: list[BaseException] = []

    def waits(svc: Any, chat_id: str, step: Callable[..., Any], cancel: Any = None) -> Any:
        try:
            svc.wait_for_follow_up(chat_id, 5)
        except RuntimeError as exc:
            refused.append(exc)
        return run_step(svc, chat_id, step, cancel)

    monkeypatch.setattr(worker_module, "run_step", waits)
    auto_node(service, "fact", FACT)
    assert service.wait_for_follow_up(CHAT, 30)
    assert len(refused) == 1 and "bme-lifecycle" in str(refused[0])
    with pytest.raises(RuntimeError, match="writer thread"):
        service.write(lambda uow: service.wait_for_follow_up(CHAT))


def test_a_review_decision_comes_after_the_intake_queued_before_it(
    service: MemoryService, worker: LifecycleWorker, monkeypatch: pytest.MonkeyPatch
) -> None:
    steps = Steps(monkeypatch, hold=True)
    node = auto_node(service, "fact", FACT)  # its intake is held on the worker
    assert steps.entered.wait(30)
    decided = threading.Thread(target=service.decide_review, args=(CHAT, [node.id], "approved"))
    decided.start()
    time.sleep(SLOW_S)  # a decision that did not wait for the intake would be written by now
    steps.release.set()
    decided.join(30)
    # The intake ran first (the memory has its card), then the decision, which stands.
    assert get(service, node.id).review_status == "approved" and get(service, node.id).srs is not None


@pytest.mark.parametrize("how", ["sync_wait", "ticket"])
def test_a_sync_that_waits_returns_with_its_new_memories_in_review(
    tmp_path: Path, database_url: str, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    settings = Settings()
    settings.lifecycle.audit_mode = "all"
    steps = Steps(monkeypatch, delay=SLOW_S)
    with _extracting(tmp_path, database_url, settings) as svc:
        if how == "sync_wait":
            svc.sync("c", chat(*TURNS), complete=True, wait=True)
        else:  # the bridge waits on the ticket, off its worker threads
            ticket = svc.sync("c", chat(*TURNS), complete=True).value.ticket
            assert ticket is not None
            ticket.wait(60)
        auto, pending = _pending(svc, "c")
        assert auto and pending == auto
        assert steps.threads and set(steps.threads) == {"bme-lifecycle"}


def test_each_extraction_batch_waits_for_the_intake_of_the_one_before(
    tmp_path: Path, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The intake's batch comes before the next extraction batch (which reads what the
    after-extraction steps wrote), so a history rollback undoes them in order."""
    Steps(monkeypatch, delay=SLOW_S)
    with _extracting(tmp_path, database_url) as svc:
        svc.sync("c", chat(*TURNS, ("assistant", "Marcus leaves for the harbour at dawn.")), wait=True)
        order = [
            ("intake" if b.description.startswith("intake of") else b.kind)
            for b in svc.read(lambda r: r.batches("c"))
        ]
        made = {n.batch_id for n in svc.all_nodes("c")}
        ids = [b.id for b in svc.read(lambda r: r.batches("c"))]
    extractions = [pos for pos, kind in enumerate(order) if kind == "extract"]
    assert len(extractions) >= 3
    for pos, after in zip(extractions, [*extractions[1:], len(order)], strict=True):
        if ids[pos] in made:
            assert "intake" in order[pos + 1 : after], order


def test_an_import_returns_with_the_intake_of_what_it_wrote(
    service: MemoryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    node = auto_node(service, "fact", FACT)  # no worker yet: no card, not in review
    text = dumps(service.read(lambda r: export_document(r, [CHAT], now=0.0)))
    worker = LifecycleWorker(service).start()
    steps = Steps(monkeypatch, delay=SLOW_S)
    try:
        import_chats(service, load_document(text.encode()), as_chat="copy")
        assert _pending(service, "copy") == (1, 1)
        assert steps.threads == ["bme-lifecycle"]
        assert get(service, node.id).review_status == "approved"  # the original was not touched
    finally:
        worker.stop()


def test_a_recorded_step_holds_its_own_intake_and_not_an_earlier_one(
    service: MemoryService, worker: LifecycleWorker, monkeypatch: pytest.MonkeyPatch
) -> None:
    Steps(monkeypatch, delay=SLOW_S)
    earlier = auto_node(service, "fact", FACT)  # its intake is still queued when the step starts
    written: list[str] = []

    def task(chat_id: str) -> ChangeRecord:
        node = auto_node(service, "fact", {"statement": "The ferry runs at dawn", "category": "fact"})
        written.append(node.id)
        return ChangeRecord(chat_id)

    service.maintenance_tasks["upkeep"] = task
    run_recorded(service, CHAT, "upkeep")
    (mine,) = written
    assert get(service, mine).review_status == "pending"
    assert service.undo(CHAT).value
    assert service.find_node(CHAT, mine) is None
    assert get(service, earlier.id).review_status == "pending"  # not taken back with the step
    assert service.redo(CHAT).value
    assert get(service, mine).review_status == "pending" and get(service, mine).srs is not None


def test_a_queued_intake_runs_between_two_chats_upkeep_not_after_the_whole_pass(
    service: MemoryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    for chat_id in ("a", "b", "c"):
        auto_node(service, "fact", FACT, chat_id=chat_id)
    ran: list[str] = []
    holding, release = threading.Event(), threading.Event()

    def upkeep(chat_id: str, task: str, **_: Any) -> None:
        ran.append(f"upkeep {chat_id}")
        if chat_id == "a":
            holding.set()
            assert release.wait(30)

    def steps(svc: Any, chat_id: str, step: Callable[..., Any], cancel: Any = None) -> Any:
        ran.append(f"job {chat_id}")
        return run_step(svc, chat_id, step, cancel)

    monkeypatch.setattr(service, "run_maintenance", upkeep)
    monkeypatch.setattr(worker_module, "run_step", steps)
    now = [0.0]
    worker = LifecycleWorker(service, monotonic=lambda: now[0]).start()
    try:
        now[0] = FIRST_UPKEEP_DELAY_S + 1  # the next tick starts the pass over every chat
        assert holding.wait(30)
        auto_node(service, "fact", FACT, chat_id="c")  # queued while chat a's upkeep runs
        release.set()
        assert service.wait_for_follow_up("c", 30)
        assert ran[:2] == ["upkeep a", "job c"]  # not after the upkeep of b and c
    finally:
        release.set()
        worker.stop()


def test_closing_runs_the_intake_queued_before(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = ManualClock()
    service = MemoryService.open(tmp_path, clock=clock, attach=False)
    try:
        attach_lifecycle(service)
        steps = Steps(monkeypatch, delay=SLOW_S)
        node = auto_node(service, "fact", FACT)
    finally:
        service.close()
    assert steps.threads == ["bme-lifecycle"]
    again = MemoryService.open(tmp_path, clock=clock, attach=False)
    try:
        assert get(again, node.id).review_status == "pending"
    finally:
        again.close()
