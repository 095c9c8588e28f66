"""The ``filled`` fixture: a service holding the sample chat."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from backup_sample import fill_chat

from bme_desktop.core.clock import ManualClock
from bme_desktop.core.service import MemoryService


@pytest.fixture
def filled(tmp_path: Path, clock: ManualClock) -> Iterator[MemoryService]:
    svc = MemoryService.open(tmp_path / "data", clock=clock, attach=False)
    fill_chat(svc)
    yield svc
    svc.close()
