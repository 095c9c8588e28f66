"""LayoutLink: changes reach the layout in the order they were made, even when the runner they
were posted to finished without applying them and its ``done`` has not arrived yet (the race
behind ``IndexError: edge endpoint out of range`` during a rebuild)."""

from __future__ import annotations

import os
import threading

import numpy as np
import pytest
from PySide6.QtWidgets import QApplication

from bme_desktop.layout import LayoutRunner
from bme_desktop.ui.views import layout_link
from bme_desktop.ui.views.layout_link import LayoutLink


@pytest.fixture
def link(qapp: QApplication, monkeypatch: pytest.MonkeyPatch) -> LayoutLink:
    """A link whose runners never start on their own: the test plays the worker thread."""
    monkeypatch.setattr(layout_link.LayoutRunner, "start", lambda self: None)
    lk = LayoutLink(dim=2)
    lk.reset(np.array([[0, 1]]), np.array([[0.0, 0.0], [1.0, 0.0]]))
    return lk


def finish_without_applying(runner: LayoutRunner) -> None:
    """The worker ends (converged just before the post arrived): its done is queued, not delivered."""
    runner.cancel()
    worker = threading.Thread(target=runner.run)
    worker.start()
    worker.join()
    assert runner.finished


def test_a_change_after_a_finished_runner_comes_after_the_ones_it_missed(link: LayoutLink) -> None:
    runner = link.runner
    assert runner is not None and not runner.finished
    link.add_nodes(np.array([[2.0, 0.0], [3.0, 0.0]]), np.zeros((0, 2), np.int64))  # posted to the runner
    finish_without_applying(runner)
    link.set_edges(np.array([[0, 1], [1, 2], [2, 3]]))  # names the two new nodes: must not raise
    assert link.layout.n_nodes == 4
    assert link.layout.edges.tolist() == [[0, 1], [1, 2], [2, 3]]
    QApplication.processEvents()  # the old runner's done arrives: nothing is applied twice
    assert link.layout.n_nodes == 4


def test_a_new_runner_starts_from_every_change_made_so_far(link: LayoutLink) -> None:
    runner = link.runner
    assert runner is not None
    link.remove_nodes([0])  # posted
    finish_without_applying(runner)
    link.set_paused(False)  # e.g. the view shown again before the old runner's done arrived
    assert link.runner is not runner and link.layout.n_nodes == 1
    QApplication.processEvents()
    assert link.layout.n_nodes == 1
    finish_without_applying(link.runner)


def test_a_stopped_layout_starts_no_runner_and_holds_still_until_run_again(qtbot, qapp: QApplication) -> None:
    lk = LayoutLink(dim=2)
    lk.set_running(False)
    lk.reset(np.array([[0, 1], [1, 2]]), np.array([[0.0, 0.0], [5.0, 0.0], [9.0, 3.0]]))
    assert not lk.running
    before = lk.layout.positions
    lk.move([0], [[1.0, 1.0]], pin=True)  # a drag while stopped moves and pins that node only
    after = lk.layout.positions
    assert np.allclose(after[0], [1.0, 1.0]) and np.allclose(after[1:], before[1:])
    lk.set_running(True)
    assert lk.running
    qtbot.waitUntil(lambda: lk.settled, timeout=60000)
    assert np.allclose(lk.layout.positions[0], [1.0, 1.0])  # the pinned node stayed put
    lk.close()


def test_forces_reach_the_layout_and_set_it_moving(link: LayoutLink) -> None:
    link.set_forces(6.0, 1.5)
    runner = link.runner
    assert runner is not None
    runner.cancel()
    link._stop()  # applies what the (never started) runner was handed
    assert (link.layout.settings.scaling, link.layout.settings.gravity) == (6.0, 1.5)
    assert not link.layout.converged


def test_hiding_the_view_cancels_the_runner_without_waiting_and_showing_it_again_resumes(
    link: LayoutLink,
) -> None:
    runner = link.runner
    assert runner is not None
    link.set_paused(True)  # the runner is mid-step (never started here): a join would block
    assert runner.cancelled and not runner.finished
    link.set_paused(False)  # shown again before the runner ended: it ends, then a new one starts
    assert link.runner is runner
    finish_without_applying(runner)
    QApplication.processEvents()  # its done (cancelled) arrives
    assert link.runner is not runner and not link.runner.cancelled
    finish_without_applying(link.runner)


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="per-thread priority: Linux")
def test_the_layout_steps_below_the_window_s_priority(
    qtbot, qapp: QApplication, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 19, "never freeze": at 10k memories a running layout is half a core; the window's
    thread must not wait behind it for a CPU."""
    seen: list[int] = []
    monkeypatch.setattr(
        layout_link,
        "yield_to_gui",
        lambda: seen.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id())),
    )
    lk = LayoutLink(dim=2)
    lk.reset(np.array([[0, 1]]), np.array([[0.0, 0.0], [1.0, 0.0]]))
    qtbot.waitUntil(lambda: bool(seen), timeout=10000)
    lk.close()
    window = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    assert seen[0] == min(19, window + layout_link.LAYOUT_NICENESS) > window
