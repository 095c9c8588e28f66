"""Placeholder until the model-backed extractor lands."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .runner import ModelExtractor

if TYPE_CHECKING:
    from ..service import MemoryService


def model_from_settings(service: MemoryService) -> ModelExtractor | None:
    return None
