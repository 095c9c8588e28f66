"""The keyed worker: per-key coalescing, priority, cancel, pause, wait_idle, close within a
bound, a named thread, and failures logged, not lost. Events, not sleeps, order the steps."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from bme_desktop.core.work import KeyedWorker

WAIT = 20.0


class Gate:
    """A run that holds the worker until released (so what follows queues up)."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()

    def hold(self) -> None:
        self.started.set()
        assert self.release.wait(WAIT)


@pytest.fixture
def runs() -> list[tuple[str, object]]:
    return []


@pytest.fixture
def gate() -> Gate:
    return Gate()


@pytest.fixture
def worker(runs: list[tuple[str, object]], gate: Gate) -> Iterator[KeyedWorker[str, object]]:
    def run(key: str, value: object) -> None:
        if key == "gate":
            gate.hold()
            return
        if value == "boom":
            raise ValueError("boom")
        runs.append((key, value))

    w: KeyedWorker[str, object] = KeyedWorker("bme-test-work", run, merge=_union)
    yield w
    gate.release.set()
    assert w.close(WAIT)


def _union(old: object, new: object) -> object:
    if isinstance(old, set) and isinstance(new, set):
        return old | new
    return new


def _held(worker: KeyedWorker[str, object], gate: Gate) -> None:
    worker.submit("gate", None)
    assert gate.started.wait(WAIT)


def test_work_runs_on_a_named_thread(worker: KeyedWorker[str, object]) -> None:
    names: list[str] = []
    w: KeyedWorker[str, int] = KeyedWorker(
        "bme-named", lambda k, v: names.append(threading.current_thread().name)
    )
    w.submit("a", 1)
    assert w.wait_idle(WAIT)
    assert names == ["bme-named"]
    assert w.close(WAIT)


def test_a_burst_for_one_key_runs_once_with_the_values_merged(
    worker: KeyedWorker[str, object], gate: Gate, runs: list[tuple[str, object]]
) -> None:
    _held(worker, gate)
    worker.submit("chat", {"a"})
    worker.submit("chat", {"b"})
    worker.submit("chat", {"c"})
    assert worker.pending("chat") and worker.waiting("chat")
    gate.release.set()
    assert worker.wait_idle(WAIT)
    assert runs == [("chat", {"a", "b", "c"})]


def test_without_a_merge_the_newest_value_wins() -> None:
    seen: list[int] = []
    gate = Gate()

    def run(key: str, value: int) -> None:
        if key == "gate":
            gate.hold()
        else:
            seen.append(value)

    w: KeyedWorker[str, int] = KeyedWorker("bme-newest", run)
    w.submit("gate", 0)
    assert gate.started.wait(WAIT)
    for value in (1, 2, 3):
        w.submit("chat", value)
    gate.release.set()
    assert w.wait_idle(WAIT)
    assert seen == [3]
    assert w.close(WAIT)


def test_keys_run_by_priority_then_in_order_of_first_submission(
    worker: KeyedWorker[str, object], gate: Gate, runs: list[tuple[str, object]]
) -> None:
    _held(worker, gate)
    worker.submit("first", 1)
    worker.submit("second", 2)
    worker.submit("urgent", 3, priority=5)
    worker.submit("first", 4)  # keeps its place
    assert worker.keys() == ["urgent", "first", "second"]
    gate.release.set()
    assert worker.wait_idle(WAIT)
    assert [key for key, _ in runs] == ["urgent", "first", "second"]


def test_a_key_submitted_while_it_runs_runs_again(runs: list[tuple[str, object]]) -> None:
    started, release = threading.Event(), threading.Event()

    def run(key: str, value: int) -> None:
        runs.append((key, value))
        if value == 1:
            started.set()
            assert release.wait(WAIT)

    w: KeyedWorker[str, int] = KeyedWorker("bme-again", run)
    w.submit("chat", 1)
    assert started.wait(WAIT)
    assert w.running() == "chat" and not w.waiting("chat")
    w.submit("chat", 2)
    release.set()
    assert w.wait_key("chat", WAIT)
    assert runs == [("chat", 1), ("chat", 2)]
    assert w.close(WAIT)


def test_cancel_drops_waiting_work(
    worker: KeyedWorker[str, object], gate: Gate, runs: list[tuple[str, object]]
) -> None:
    _held(worker, gate)
    worker.submit("dropped", 1)
    worker.submit("kept", 2)
    assert worker.cancel("dropped") is True
    assert worker.cancel("never") is False
    gate.release.set()
    assert worker.wait_idle(WAIT)
    assert runs == [("kept", 2)]


def test_a_failure_is_logged_and_counted_and_the_worker_goes_on(
    worker: KeyedWorker[str, object], runs: list[tuple[str, object]], caplog: pytest.LogCaptureFixture
) -> None:
    worker.submit("bad", "boom")
    worker.submit("good", 1)
    assert worker.wait_idle(WAIT)
    assert runs == [("good", 1)]
    assert worker.errors == 1 and isinstance(worker.last_error, ValueError)
    assert "bme-test-work: work for 'bad' failed" in caplog.text


def test_requeue_puts_a_key_first(
    worker: KeyedWorker[str, object], gate: Gate, runs: list[tuple[str, object]]
) -> None:
    _held(worker, gate)
    worker.submit("other", 1)
    worker.requeue("resumed", {"x"})
    worker.submit("resumed", {"y"})
    assert worker.keys() == ["resumed", "other"]
    gate.release.set()
    assert worker.wait_idle(WAIT)
    assert runs == [("resumed", {"x", "y"}), ("other", 1)]


def test_pause_waits_for_the_running_work_and_holds_the_rest(
    worker: KeyedWorker[str, object], gate: Gate, runs: list[tuple[str, object]]
) -> None:
    _held(worker, gate)
    worker.submit("later", 1)
    paused = threading.Event()
    seen_while_paused: list[object] = []

    def hold_pause() -> None:
        with worker.pause():
            paused.set()
            seen_while_paused.extend([worker.wait_idle(0.05), list(runs)])  # "later" waits while paused

    t = threading.Thread(target=hold_pause)
    t.start()
    assert not paused.wait(0.05)  # the pause waits for the running work
    gate.release.set()
    t.join(WAIT)
    assert paused.is_set()
    assert seen_while_paused == [False, []]
    assert worker.wait_idle(WAIT)
    assert runs == [("later", 1)]


def test_wait_idle_times_out_while_work_runs(worker: KeyedWorker[str, object], gate: Gate) -> None:
    _held(worker, gate)
    assert worker.wait_idle(0.01) is False
    gate.release.set()
    assert worker.wait_idle(WAIT) is True


def test_close_drops_waiting_work_sets_stopping_and_refuses_more(gate: Gate) -> None:
    seen: list[str] = []
    stopped: list[bool] = []

    def run(key: str, value: int) -> None:
        if key == "gate":
            gate.hold()
            stopped.append(w.stopping.is_set())
        else:
            seen.append(key)

    w: KeyedWorker[str, int] = KeyedWorker("bme-close", run)
    w.submit("gate", 0)
    assert gate.started.wait(WAIT)
    w.submit("dropped", 1)
    closer = threading.Thread(target=lambda: w.close(WAIT))
    closer.start()
    assert w.stopping.wait(WAIT)
    gate.release.set()
    closer.join(WAIT)
    assert w.submit("refused", 2) is False
    assert seen == [] and stopped == [True]
    assert w.close(WAIT) is True


def test_close_gives_up_after_its_bound(gate: Gate) -> None:
    w: KeyedWorker[str, int] = KeyedWorker("bme-slow", lambda k, v: gate.hold())
    w.submit("gate", 0)
    assert gate.started.wait(WAIT)
    assert w.close(0.01) is False  # still running: close returns anyway
    gate.release.set()
    assert w.close(WAIT) is True


def test_close_from_the_worker_thread_does_not_wait_for_itself() -> None:
    done = threading.Event()
    results: list[bool] = []

    def run(key: str, value: int) -> None:
        results.append(w.close(WAIT))
        done.set()

    w: KeyedWorker[str, int] = KeyedWorker("bme-self", run)
    w.submit("a", 0)
    assert done.wait(WAIT)
    assert results == [False]  # its own thread is still alive while it runs
    assert w.close(WAIT) is True


def test_a_tick_runs_while_idle_and_may_submit_work() -> None:
    ticks = threading.Semaphore(0)
    seen: list[str] = []
    submitted = threading.Event()

    def tick() -> float:
        ticks.release()
        if not submitted.is_set():
            submitted.set()
            w.submit("from-tick", 0)
        return 0.01

    w: KeyedWorker[str, int] = KeyedWorker(
        "bme-tick", lambda k, v: seen.append(k), tick=tick, tick_every=0.05
    )
    w.start()
    for _ in range(3):
        assert ticks.acquire(timeout=WAIT)
    assert w.wait_idle(WAIT)
    assert seen == ["from-tick"]
    assert w.close(WAIT)


def test_a_failing_tick_is_logged_and_ticks_again(caplog: pytest.LogCaptureFixture) -> None:
    calls = threading.Semaphore(0)

    def tick() -> float:
        calls.release()
        raise RuntimeError("tick broke")

    w: KeyedWorker[str, int] = KeyedWorker("bme-bad-tick", lambda k, v: None, tick=tick, tick_every=0.01)
    w.start()
    assert calls.acquire(timeout=WAIT) and calls.acquire(timeout=WAIT)
    assert w.close(WAIT)
    assert "bme-bad-tick: work for 'tick' failed" in caplog.text


def test_newest_first_runs_the_key_first_submitted_last(gate: Gate) -> None:
    seen: list[str] = []

    def run(key: str, value: int) -> None:
        if key == "gate":
            gate.hold()
        else:
            seen.append(key)

    w: KeyedWorker[str, int] = KeyedWorker("bme-newest-first", run, newest_first=True)
    w.submit("gate", 0)
    assert gate.started.wait(WAIT)
    for key in ("old", "new", "old"):  # a second submission keeps the key's place
        w.submit(key, 1)
    gate.release.set()
    assert w.wait_idle(WAIT)
    assert seen == ["new", "old"]
    assert w.close(WAIT)


def test_a_shared_condition_wakes_its_owner_when_a_run_ends() -> None:
    cond = threading.Condition(threading.RLock())
    w: KeyedWorker[str, int] = KeyedWorker("bme-shared", lambda k, v: None, cond=cond)
    with cond:
        w.submit("a", 1)
        assert cond.wait_for(
            lambda: not w.pending("a"), timeout=WAIT
        )  # reentrant: pending takes the same lock
    assert w.close(WAIT)
