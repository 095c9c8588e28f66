"""Qt side of the layout worker: a :class:`LayoutRunner` whose callbacks become queued signals.

The link owns one :class:`ForceLayout`. While a runner steps it on its thread, changes (new or
removed nodes, new edges, a dragged node) go through ``runner.post``; when no runner is active
they are applied at once (they are cheap, vectorised edits) and a new runner starts. A change
the runner did not get to before it finished is applied when its ``done`` arrives.

Changes reach the layout in the order they were made, whoever applies them: a change made
while the last runner has finished but its ``done`` has not arrived yet first applies what that
runner never got to.

The runner's thread yields the CPU to the window's (a lower priority, ``LAYOUT_NICENESS``): at
10k memories a running layout is half a core of numpy, and the window waited for a CPU behind it
(issue 19, "never freeze"); between two steps it rests while the window is behind.

Positions are coalesced: the worker keeps only the newest snapshot and signals only when the
GUI has taken the last one, so a busy GUI never builds a queue. Structural changes bump a
generation; a snapshot taken before the newest structural change is dropped by ``take``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import QObject, Signal

from ...core.background import is_background, lower_thread_priority, yield_to_gui
from ...layout import CONVERGED, ERROR, MAX_ITERATIONS, ForceLayout, LayoutRunner, LayoutSettings
from .placement import arrange_groups

FloatArray = npt.NDArray[np.float64]
Change = Callable[[ForceLayout], object]
DEFAULT_SPREAD = 2.0  # repulsion (ForceAtlas2's scaling)
DEFAULT_GRAVITY = 5.0
GROUP_GRAVITY = 4.0  # the pull toward one's community centre (2D): clusters, not one disc


LAYOUT_NICENESS = 5  # below the window's thread, above the background's (core.background: 10)


def rest_between_steps() -> None:
    """The runner's ``rest``, on its thread: the first time, lower the thread's priority; every
    time, rest while the window is behind."""
    if not is_background():
        lower_thread_priority(LAYOUT_NICENESS)
    yield_to_gui()


class _Posted:
    """A change handed to a runner; remembers whether the worker applied it."""

    def __init__(self, change: Change, link: LayoutLink, generation: int) -> None:
        self.change, self.link, self.generation, self.applied = change, link, generation, False

    def __call__(self, layout: ForceLayout) -> None:
        self.change(layout)
        self.applied = True
        self.link._worker_generation = self.generation


class LayoutLink(QObject):
    sigPositions = Signal()  # a snapshot is ready: call take() (delivered queued, GUI thread)
    sigSettled = Signal()
    _sigDone = Signal(object, str)  # runner, reason (worker → GUI)

    def __init__(
        self,
        dim: int = 2,
        *,
        max_rate: float = 30.0,
        max_iterations: int = 800,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.settings = LayoutSettings(
            dim=dim, scaling=DEFAULT_SPREAD, gravity=DEFAULT_GRAVITY, group_gravity=GROUP_GRAVITY
        )
        self.layout = ForceLayout(0, settings=self.settings)
        self.max_rate, self.max_iterations = max_rate, max_iterations
        self.runner: LayoutRunner | None = None
        self._posted: list[_Posted] = []
        self._lock = threading.Lock()
        self._latest: tuple[int, FloatArray] | None = None
        self._generation = 0
        self._worker_generation = 0
        self._paused = False  # the view is hidden
        self._stopped = False  # the user stopped the layout
        self._closed = False
        self.settled = True
        self._sigDone.connect(self._done)

    # changes (GUI thread) ------------------------------------------------------------------
    def reset(self, edges: npt.ArrayLike, positions: FloatArray) -> None:
        pos, e = np.array(positions, dtype=np.float64), np.asarray(edges, np.int64).reshape(-1, 2)
        self._stop()
        self._generation += 1
        self._worker_generation = self._generation
        self.layout = ForceLayout(
            positions=pos.reshape(-1, self.settings.dim), edges=e, settings=self.settings
        )
        self._start()

    def add_nodes(self, positions: FloatArray, edges: npt.ArrayLike) -> None:
        pos, e = np.array(positions, dtype=np.float64), np.asarray(edges, np.int64).reshape(-1, 2)
        self._change(lambda lay: lay.add_nodes(pos.shape[0], e, positions=pos), structural=True)

    def remove_nodes(self, rows: npt.ArrayLike) -> None:
        idx = np.array(rows, dtype=np.int64)
        self._change(lambda lay: lay.remove_nodes(idx), structural=True)

    def set_edges(self, edges: npt.ArrayLike) -> None:
        e = np.array(edges, dtype=np.int64).reshape(-1, 2)
        self._change(lambda lay: lay.set_edges(e))

    def move(self, rows: npt.ArrayLike, positions: npt.ArrayLike, *, pin: bool = True) -> None:
        idx, pos = np.array(rows, dtype=np.int64), np.array(positions, dtype=np.float64)
        self._change(lambda lay: lay.set_positions(idx, pos, pin=pin))

    def set_groups(self, groups: npt.ArrayLike, *, arrange: bool = False) -> None:
        """Communities of the current rows: each node is pulled toward its community's centre
        (``GROUP_GRAVITY``); with ``arrange`` the communities are first moved apart, as wholes, to
        their own spots (``placement.arrange_groups``; pinned nodes stay). Runs between steps."""
        g = np.array(groups, dtype=np.int64).reshape(-1)

        def change(lay: ForceLayout) -> None:
            if g.shape[0] != lay.n_nodes:
                return  # rows changed since: the next detection brings matching groups
            if arrange:
                lay.set_positions(
                    np.arange(lay.n_nodes), arrange_groups(lay.positions, g, lay.pinned), pin=False
                )
            lay.set_groups(g)

        self.settled = False
        self._change(change)

    def unpin(self, rows: npt.ArrayLike) -> None:
        idx = np.array(rows, dtype=np.int64)
        self._change(lambda lay: lay.unpin(idx))

    def set_paused(self, paused: bool) -> None:
        """Stop stepping while the view is hidden; changes still apply."""
        self._paused = paused
        if paused:
            # No join: the step under way (≈0.1–1 s at 10k nodes on a loaded machine) would block
            # the GUI thread that is hiding the view. ``_done`` catches up once the runner ends.
            if self.runner is not None:
                self.runner.cancel()
        elif not self.settled:
            self._start()

    def set_running(self, running: bool) -> None:
        """The user's run/stop: a stopped layout keeps every node where it is (changes still apply)."""
        self._stopped = not running
        if self._stopped:
            self._stop()
        elif not self.settled:
            self._start()
        else:
            self.settled = False
            self._start()

    @property
    def running(self) -> bool:
        return self.runner is not None and not self.runner.finished

    def set_forces(self, scaling: float, gravity: float) -> None:
        """Repulsion (spread) and the pull toward the centre; the layout moves again to follow them."""
        self.settings = replace(self.settings, scaling=float(scaling), gravity=float(gravity))
        settings = self.settings

        def change(lay: ForceLayout) -> None:
            lay.settings = settings
            lay.reset_convergence()

        self._change(change)

    def take(self) -> FloatArray | None:
        """The newest snapshot for the current structure, or None."""
        with self._lock:
            latest, self._latest = self._latest, None
        if latest is None or latest[0] != self._generation:
            return None
        return latest[1]

    def close(self) -> None:
        self._closed = True
        self._stop()

    # runner --------------------------------------------------------------------------------
    def _change(self, change: Change, *, structural: bool = False) -> None:
        if structural:
            self._generation += 1
        runner = self.runner
        if runner is not None and not runner.finished:
            posted = _Posted(change, self, self._generation)
            self._posted.append(posted)
            runner.post(posted)
        else:
            # A runner that finished after this change's predecessors were posted may not have
            # applied them: they go first, in order, or this change would meet a layout from
            # before them (edges naming nodes it does not have yet: "edge endpoint out of range").
            self._catch_up()
            change(self.layout)
            self._worker_generation = self._generation
            self._start()

    def _start(self) -> None:
        self.settled = False
        if (
            self._paused
            or self._stopped
            or self._closed
            or (self.runner is not None and not self.runner.finished)
        ):
            return
        self._catch_up()  # the new runner starts from every change made so far
        self.layout.reset_convergence()
        runner = LayoutRunner(
            self.layout,
            on_positions=self._publish,
            max_rate=self.max_rate,
            max_iterations=self.max_iterations,
            rest=rest_between_steps,
            on_done=lambda reason: self._sigDone.emit(runner, reason),
        )
        self.runner = runner
        self._posted = []
        runner.start()

    def _stop(self) -> None:
        runner = self.runner
        if runner is not None:
            runner.cancel()
            runner.join(10.0)
            self._catch_up()

    def _catch_up(self) -> bool:
        """Apply changes a finished runner never got to; True if there were any."""
        missed = [p for p in self._posted if not p.applied]
        self._posted = []
        for posted in missed:
            posted(self.layout)
        return bool(missed)

    def _done(self, runner: LayoutRunner, reason: str) -> None:
        if runner is not self.runner:
            return
        if self._catch_up():
            self._start()
        elif reason in (CONVERGED, MAX_ITERATIONS, ERROR):
            self.settled = True
            self.sigSettled.emit()
        elif not self.settled:  # cancelled by a pause that has ended since: go on (no-op while paused)
            self._start()

    def _publish(self, positions: FloatArray) -> None:  # worker thread
        with self._lock:
            fresh = self._latest is None
            self._latest = (self._worker_generation, positions)
        if fresh:
            self.sigPositions.emit()
