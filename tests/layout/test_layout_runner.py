"""LayoutRunner: rate-limited streaming, cancel, done reasons, posted changes."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from bme_desktop.layout import (
    CANCELLED,
    CONVERGED,
    ERROR,
    MAX_ITERATIONS,
    ForceLayout,
    LayoutRunner,
    LayoutSettings,
    RateLimiter,
)


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def _graph(n: int, seed: int = 0) -> ForceLayout:
    edges = np.random.default_rng(seed).integers(0, n, size=(2 * n, 2))
    return ForceLayout(n, edges, seed=seed)


def _ticking(layout: ForceLayout, clock: FakeClock, seconds_per_step: float) -> None:
    """Make each step take ``seconds_per_step`` of fake time."""
    step = layout.step

    def timed_step():  # type: ignore[no-untyped-def]
        clock.now += seconds_per_step
        return step()

    layout.step = timed_step  # type: ignore[method-assign]


def test_rate_limiter_allows_at_most_max_rate() -> None:
    clock = FakeClock()
    limiter = RateLimiter(30.0, clock)
    allowed = []
    for _ in range(10_000):  # ten seconds in 1 ms ticks
        if limiter.try_acquire():
            allowed.append(clock.now)
        clock.now += 0.001
    assert 295 <= len(allowed) <= 301
    assert min(np.diff(allowed)) >= 1 / 30 - 1e-12
    assert limiter.count == len(allowed)
    with pytest.raises(ValueError):
        RateLimiter(0.0)


@pytest.mark.parametrize("step_seconds", [0.001, 0.005, 0.02, 0.1])
def test_runner_streams_at_most_30_updates_per_second(step_seconds: float) -> None:
    clock = FakeClock()
    layout = _graph(60)
    _ticking(layout, clock, step_seconds)
    frames: list[tuple[float, np.ndarray]] = []
    done: list[str] = []
    runner = LayoutRunner(
        layout,
        on_positions=lambda p: frames.append((clock.now, p)),
        on_done=done.append,
        max_iterations=300,
        clock=clock,
        sleep=clock.sleep,
    )
    reason = runner.run()
    assert done == [reason]
    elapsed = clock.now
    times = np.array([t for t, _ in frames])
    assert len(frames) <= elapsed * 30 + 1
    assert np.all(np.diff(times) >= 1 / 30 - 1e-12)
    # Streaming does happen: a frame goes out at the first step after each 1/30 s gap.
    assert np.all(np.diff(times) <= 1 / 30 + step_seconds + 1e-12)
    assert len(frames) >= min(runner.iterations, elapsed / (1 / 30 + step_seconds)) - 1
    # Frames are copies, in the layout's shape, and the last one is the final state.
    assert frames[-1][1].shape == (60, 2)
    assert np.array_equal(frames[-1][1], layout.positions)
    frames[-1][1][:] = 0.0
    assert not np.array_equal(layout.positions, frames[-1][1])


def test_runner_stops_when_converged() -> None:
    layout = _graph(80, seed=2)
    done: list[str] = []
    runner = LayoutRunner(layout, on_done=done.append, max_iterations=5000)
    assert runner.run() == CONVERGED
    assert done == [CONVERGED]
    assert layout.converged
    assert runner.iterations < 5000
    assert runner.last_info is not None and runner.last_info.converged


def test_runner_stops_at_max_iterations() -> None:
    runner = LayoutRunner(_graph(80), max_iterations=7)
    assert runner.run() == MAX_ITERATIONS
    assert runner.iterations == 7


def test_cancel_stops_a_threaded_run() -> None:
    layout = _graph(3000, seed=3)
    first_frame = threading.Event()
    done: list[str] = []
    runner = LayoutRunner(
        layout,
        on_positions=lambda _p: first_frame.set(),
        on_done=done.append,
        max_iterations=100_000,
    )
    runner.start()
    assert first_frame.wait(30)
    runner.cancel()
    assert runner.join(30)
    assert done == [CANCELLED]
    assert runner.reason == CANCELLED
    assert runner.iterations < 100_000
    with pytest.raises(RuntimeError):
        runner.start()


def test_cancel_from_a_callback_stops_after_that_step() -> None:
    runner: LayoutRunner
    frames = []

    def on_positions(p: np.ndarray) -> None:
        frames.append(p)
        runner.cancel()

    runner = LayoutRunner(_graph(100), on_positions=on_positions, max_iterations=1000)
    assert runner.run() == CANCELLED
    assert runner.iterations == 1
    assert len(frames) == 1


def test_threaded_run_reports_done_once() -> None:
    done: list[str] = []
    finished = threading.Event()

    def on_done(reason: str) -> None:
        done.append(reason)
        finished.set()

    runner = LayoutRunner(_graph(50, seed=5), on_done=on_done, max_iterations=3000)
    runner.start()
    assert finished.wait(60)
    assert runner.join(5)
    assert done == [CONVERGED]


def test_errors_are_reported_not_raised() -> None:
    layout = _graph(20)

    def boom():  # type: ignore[no-untyped-def]
        raise RuntimeError("boom")

    layout.step = boom  # type: ignore[method-assign]
    errors: list[BaseException] = []
    done: list[str] = []
    runner = LayoutRunner(layout, on_error=errors.append, on_done=done.append)
    assert runner.run() == ERROR
    assert done == [ERROR]
    assert isinstance(errors[0], RuntimeError)
    assert runner.error is errors[0]


def test_posted_changes_apply_between_steps() -> None:
    layout = _graph(40, seed=6)
    runner: LayoutRunner
    posted = []

    def on_positions(_p: np.ndarray) -> None:
        if not posted:
            runner.set_positions([0], [[123.0, 456.0]])
            posted.append(True)

    runner = LayoutRunner(layout, on_positions=on_positions, max_iterations=50)
    runner.run()
    assert layout.pinned[0]
    assert np.array_equal(layout.positions[0], [123.0, 456.0])


def test_runner_works_in_3d() -> None:
    layout = ForceLayout(
        100, np.random.default_rng(1).integers(0, 100, (200, 2)), settings=LayoutSettings(dim=3)
    )
    frames: list[np.ndarray] = []
    runner = LayoutRunner(layout, on_positions=frames.append, max_iterations=20)
    runner.run()
    assert frames and frames[-1].shape == (100, 3)


def test_runner_rests_between_steps_when_asked() -> None:
    rests: list[int] = []
    runner = LayoutRunner(_graph(80), max_iterations=5, rest=lambda: rests.append(runner.iterations))
    assert runner.run() == MAX_ITERATIONS
    assert rests == [0, 1, 2, 3, 4]  # before each step, never inside one
