"""The desktop app hosts the bridge: it answers on loopback and is gone after stop."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from bme_desktop.core.service import MemoryService
from bme_desktop.core.settings import Settings
from bme_desktop.ui.bridge_host import start_bridge


@pytest.fixture
def settings(monkeypatch: pytest.MonkeyPatch) -> Settings:
    monkeypatch.setenv("BME_BRIDGE_TOKEN", "t" * 43)
    settings = Settings()
    settings.bridge.port = 0
    return settings


@pytest.fixture
def service(tmp_path: Path, settings: Settings) -> Iterator[MemoryService]:
    service = MemoryService.open(tmp_path, settings=settings, attach=False)
    yield service
    service.close()


def test_hosted_bridge_serves_and_stops_cleanly(
    tmp_path: Path, settings: Settings, service: MemoryService, qapp: object
) -> None:
    hosted = start_bridge(service, tmp_path, settings)
    try:
        assert hosted.server is not None, hosted.status
        url = json.loads((tmp_path / "bridge.json").read_text())["url"]
        assert hosted.status.endswith(url)
        assert httpx.get(f"{url}/v1/health").json()["status"] == "ok"
        chats = httpx.get(f"{url}/v1/chats", headers={"Authorization": "Bearer " + "t" * 43})
        assert chats.status_code == 200
    finally:
        hosted.stop(tmp_path)
    assert not (tmp_path / "bridge.json").exists()


def test_a_second_bridge_on_the_same_data_dir_is_not_started(
    tmp_path: Path, settings: Settings, service: MemoryService, qapp: object
) -> None:
    first = start_bridge(service, tmp_path, settings)
    (tmp_path / "bridge.json").write_text(json.dumps({"url": "http://127.0.0.1:1", "pid": 1, "protocol": 1}))
    try:
        second = start_bridge(service, tmp_path, settings)
        assert second.server is None and "another process" in second.status
    finally:
        first.stop(tmp_path)
