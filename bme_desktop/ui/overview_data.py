"""The series behind the Overview plots: computed in the core (``core/overview.py``,
``MemoryService.overview_series``); named here for the panels that draw them."""

from __future__ import annotations

from ..core.overview import (
    HISTOGRAM_BINS,
    OverviewSeries,
    cumulative_growth,
    histogram,
    latency_series,
    overview_series,
)

__all__ = [
    "HISTOGRAM_BINS",
    "OverviewSeries",
    "cumulative_growth",
    "histogram",
    "latency_series",
    "overview_series",
]
