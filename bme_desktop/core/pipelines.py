"""Attaching the pipelines (extraction, recall, life cycle) to a service.

Each subsystem exposes ``attach(service)``; this is the one place that wires them, so
``MemoryService`` itself depends on none of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .service import MemoryService


def attach_pipelines(service: MemoryService) -> None:
    """Wire the default pipelines into ``service`` (one line per subsystem)."""
    from .extract.scheduler import attach as attach_extraction

    attach_extraction(service)
    from .lifecycle import attach as attach_lifecycle

    attach_lifecycle(service)
    from .recall.pipeline import attach as attach_recall

    attach_recall(service)
