from __future__ import annotations

import pytest

from bme_desktop.core.lifecycle.tasks import register_tasks
from bme_desktop.core.service import MemoryService


@pytest.fixture
def service(service: MemoryService) -> MemoryService:
    """The bare service with the life-cycle maintenance tasks registered (no worker thread)."""
    register_tasks(service)
    return service
