"""LayoutRunner: steps a ForceLayout in a background thread, without Qt.

Modelled on Orange3's cancellable tasks: a tiny API (start, cancel, partial
result, done, error), results delivered by callbacks that the UI turns into
queued Qt signals, and never a widget touched from the worker thread.

* ``on_positions(positions)`` gets a *copy* of the ``(n, dim)`` positions, at
  most ``max_rate`` times per second (a :class:`RateLimiter`), and once more at
  the end so the last frame is never lost (still respecting the rate).
* ``on_done(reason)`` is called exactly once, from the worker thread, with
  ``"converged"``, ``"max_iterations"``, ``"cancelled"`` or ``"error"``.
* ``on_error(exc)`` (optional) is called before ``on_done("error")``.
* ``rest()`` (optional) is called between two steps: the app passes one that
  waits while its GUI is behind (``core.background.yield_to_gui``), since a
  step holds the GIL for most of its time.
* ``post(fn)`` queues a change (``fn(layout)``) from any thread; the worker
  applies it between two steps. The UI uses it for drags:
  ``runner.set_positions(idx, xy)`` moves and pins nodes.

Callbacks run on the worker thread; they must be quick (emit a signal) and
must not call back into the runner's layout directly. While a runner owns a
layout, other threads read positions only from ``on_positions`` and change
the layout only through ``post``. Changes posted after the runner has finished
are not applied: start a new runner (the UI cancels the old one first, as
Orange3 does when a new task starts).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from .engine import ForceLayout, StepInfo

FloatArray = npt.NDArray[np.float64]

CONVERGED = "converged"
MAX_ITERATIONS = "max_iterations"
CANCELLED = "cancelled"
ERROR = "error"


class RateLimiter:
    """Allows an event at most ``max_rate`` times per second of ``clock``.

    The clock is injectable so tests can drive it by hand.
    """

    def __init__(self, max_rate: float = 30.0, clock: Callable[[], float] = time.monotonic) -> None:
        if max_rate <= 0.0:
            raise ValueError("max_rate must be positive")
        self.interval = 1.0 / max_rate
        self._clock = clock
        self._last: float | None = None
        self.count = 0

    def wait_time(self) -> float:
        """Seconds until the next event is allowed (0 if it is allowed now)."""
        if self._last is None:
            return 0.0
        return max(0.0, self._last + self.interval - self._clock())

    def try_acquire(self) -> bool:
        """Take a slot if one is free now; True if the caller may emit."""
        now = self._clock()
        if self._last is not None and now - self._last < self.interval:
            return False
        self._last = now
        self.count += 1
        return True


class LayoutRunner:
    """Runs ``layout.step()`` in a thread until converged, cancelled or out of iterations."""

    def __init__(
        self,
        layout: ForceLayout,
        *,
        on_positions: Callable[[FloatArray], None] | None = None,
        on_done: Callable[[str], None] | None = None,
        on_error: Callable[[BaseException], None] | None = None,
        on_progress: Callable[[StepInfo], None] | None = None,
        max_rate: float = 30.0,
        max_iterations: int = 2000,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] | None = None,
        rest: Callable[[], object] | None = None,
    ) -> None:
        self._rest = rest
        self.layout = layout
        self._on_positions = on_positions
        self._on_done = on_done
        self._on_error = on_error
        self._on_progress = on_progress
        self.max_iterations = max_iterations
        self.limiter = RateLimiter(max_rate, clock)
        self._cancel = threading.Event()
        self._finished = threading.Event()
        self._sleep = sleep if sleep is not None else self._interruptible_sleep
        self._pending: deque[Callable[[ForceLayout], None]] = deque()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.reason: str | None = None
        self.error: BaseException | None = None
        self.iterations = 0
        self.last_info: StepInfo | None = None

    # ------------------------------------------------------------ controls
    def start(self) -> None:
        """Run in a new daemon thread; a runner starts only once."""
        with self._lock:
            if self._thread is not None:
                raise RuntimeError("this runner was already started")
            self._thread = threading.Thread(target=self.run, name="bme-layout", daemon=True)
        self._thread.start()

    def cancel(self) -> None:
        """Ask the worker to stop after the current step; safe from any thread."""
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    @property
    def finished(self) -> bool:
        return self._finished.is_set()

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the end; True if it has finished."""
        return self._finished.wait(timeout)

    def post(self, change: Callable[[ForceLayout], None]) -> None:
        """Queue ``change(layout)`` to run in the worker between two steps."""
        with self._lock:
            self._pending.append(change)

    def set_positions(self, indices: npt.ArrayLike, positions: npt.ArrayLike, *, pin: bool = True) -> None:
        """Move (and by default pin) nodes, e.g. the ones the user dragged."""
        idx = np.array(indices, dtype=np.int64)
        xy = np.array(positions, dtype=np.float64)
        self.post(lambda lay: lay.set_positions(idx, xy, pin=pin))

    # --------------------------------------------------------------- worker
    def run(self) -> str:
        """The worker loop; ``start()`` runs it in a thread, tests may call it directly."""
        reason = CANCELLED
        try:
            reason = self._loop()
        except Exception as exc:  # reported through the callbacks, never raised in the thread
            reason = ERROR
            self.error = exc
            if self._on_error is not None:
                self._on_error(exc)
        finally:
            self.reason = reason
            self._finished.set()
        if self._on_done is not None:
            self._on_done(reason)
        return reason

    def _loop(self) -> str:
        emitted_at = -1
        while True:
            if self._cancel.is_set():
                return CANCELLED
            if self._rest is not None:
                self._rest()
            self._apply_pending()
            info = self.layout.step()
            self.iterations += 1
            self.last_info = info
            if self.limiter.try_acquire():
                self._emit(info)
                emitted_at = self.iterations
            if info.converged and not self._pending:
                reason = CONVERGED
                break
            if self.iterations >= self.max_iterations:
                reason = MAX_ITERATIONS
                break
        if emitted_at != self.iterations:
            # Deliver the final frame, still within the rate limit.
            for _ in range(5):
                if self.limiter.try_acquire():
                    self._emit(info)
                    break
                self._sleep(max(self.limiter.wait_time(), 1e-4))
                if self._cancel.is_set():
                    return CANCELLED
        return reason

    def _emit(self, info: StepInfo) -> None:
        if self._on_positions is not None:
            self._on_positions(self.layout.positions)
        if self._on_progress is not None:
            self._on_progress(info)

    def _apply_pending(self) -> None:
        while True:
            with self._lock:
                if not self._pending:
                    return
                change = self._pending.popleft()
            change(self.layout)

    def _interruptible_sleep(self, seconds: float) -> None:
        self._cancel.wait(seconds)
