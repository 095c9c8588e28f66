"""The recall contract between the service and a recall pipeline. The request and result
records live in ``core/model.py`` (the service's vocabulary, which ui and bridge import)."""

from __future__ import annotations

from typing import Protocol

from ..model import RecalledNode, RecallRequest, RecallResult


class Recaller(Protocol):
    def recall(self, request: RecallRequest) -> RecallResult: ...


__all__ = ["RecallRequest", "RecallResult", "RecalledNode", "Recaller"]
