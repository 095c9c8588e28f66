"""Force-directed layout for the 2D graph and the 3D nebula: numpy/scipy only, no Qt.

* :class:`ForceLayout` — ForceAtlas2-style layout state with ``step()``,
  incremental ``add_nodes``/``remove_nodes``, ``set_positions`` and ``pin``.
* :class:`LayoutRunner` — steps a layout in a thread, streams positions at most
  30 times a second, cancellable; callbacks the UI wraps in Qt signals.
* :func:`repulsion` — vectorised Barnes–Hut over Morton-code levels.
* :func:`layout_quality` — neighbourhood preservation and normalised stress.
"""

from .barnes_hut import exact_repulsion, repulsion
from .engine import ForceLayout, LayoutSettings, StepInfo
from .quality import Quality, layout_quality, neighborhood_preservation, normalized_stress
from .runner import CANCELLED, CONVERGED, ERROR, MAX_ITERATIONS, LayoutRunner, RateLimiter

__all__ = [
    "CANCELLED",
    "CONVERGED",
    "ERROR",
    "MAX_ITERATIONS",
    "ForceLayout",
    "LayoutRunner",
    "LayoutSettings",
    "Quality",
    "RateLimiter",
    "StepInfo",
    "exact_repulsion",
    "layout_quality",
    "neighborhood_preservation",
    "normalized_stress",
    "repulsion",
]
