"""The series behind the Overview plots (``MemoryService.overview_series``; the UI draws them).

- memories over time: the cumulative count of live memories by ``created_at``;
- recall latency: ``elapsed_ms`` of the kept recall records, oldest first;
- retrievability: a histogram of the live memories' retrievability over [0, 1].

Only the needed columns are read, so a chat of 100k memories costs two narrow queries."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .store.reader import Reader

HISTOGRAM_BINS = 10


@dataclass(frozen=True)
class OverviewSeries:
    growth_x: list[float] = field(default_factory=list)  # created_at, ascending
    growth_y: list[int] = field(default_factory=list)  # memories that existed by then
    latency_x: list[int] = field(default_factory=list)  # 1, 2, … (recalls in order)
    latency_ms: list[float] = field(default_factory=list)
    bin_edges: list[float] = field(default_factory=list)  # HISTOGRAM_BINS + 1 edges over [0, 1]
    bin_counts: list[int] = field(default_factory=list)

    @property
    def mean_latency_ms(self) -> float | None:
        return sum(self.latency_ms) / len(self.latency_ms) if self.latency_ms else None


def cumulative_growth(created: Iterable[float]) -> tuple[list[float], list[int]]:
    """Step points: after the i-th memory (by time) there are i memories. Equal times merge."""
    xs: list[float] = []
    ys: list[int] = []
    for count, when in enumerate(sorted(created), start=1):
        if xs and xs[-1] == when:
            ys[-1] = count
        else:
            xs.append(when)
            ys.append(count)
    return xs, ys


def latency_series(elapsed_ms: Sequence[float]) -> tuple[list[int], list[float]]:
    return list(range(1, len(elapsed_ms) + 1)), [float(v) for v in elapsed_ms]


def histogram(values: Iterable[float], bins: int = HISTOGRAM_BINS) -> tuple[list[float], list[int]]:
    """Counts over ``bins`` equal bins of [0, 1]; 1.0 falls in the last bin, values outside are clamped."""
    edges = [i / bins for i in range(bins + 1)]
    counts = [0] * bins
    for value in values:
        clamped = min(max(float(value), 0.0), 1.0)
        counts[min(int(clamped * bins), bins - 1)] += 1
    return edges, counts


def overview_series(reader: Reader, chat_id: str) -> OverviewSeries:
    """Blocking: read the chat's live memories and recall records (a worker's reader)."""
    nodes, recalls = reader.overview_rows(chat_id)
    growth_x, growth_y = cumulative_growth(row[0] for row in nodes)
    latency_x, latency_ms = latency_series(recalls)
    edges, counts = histogram(row[1] for row in nodes)
    return OverviewSeries(growth_x, growth_y, latency_x, latency_ms, edges, counts)
