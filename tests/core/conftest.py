from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bme_desktop.core.clock import ManualClock
from bme_desktop.core.service import MemoryService


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def service(tmp_path: Path, database_url: str, clock: ManualClock) -> Iterator[MemoryService]:
    """A bare service (no pipelines attached) on a real database."""
    svc = MemoryService.open(tmp_path, database_url=database_url, clock=clock, attach=False)
    yield svc
    svc.close()
