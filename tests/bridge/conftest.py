"""Fixtures: every test gets its own data dir, a null keyring and no token in the env."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import keyring
import keyring.backends.null
import pytest

from bme_desktop.bridge.config import BridgeConfig
from bme_desktop.bridge.server import BridgeServer
from bme_desktop.core.service import MemoryService

from .helpers import AUTH, TOKEN


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Never touch the user's keyring, data dir or token."""
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")
    monkeypatch.setattr(keyring, "get_keyring", lambda: keyring.backends.null.Keyring())  # type: ignore[no-untyped-call]
    monkeypatch.setenv("BME_DATA_DIR", str(tmp_path / "default-data"))
    monkeypatch.delenv("BME_BRIDGE_TOKEN", raising=False)


@pytest.fixture
def service(tmp_path: Path) -> Iterator[MemoryService]:
    svc = MemoryService.open(tmp_path / "data", attach=False)
    yield svc
    svc.close()


@pytest.fixture
def make_bridge(service: MemoryService) -> Iterator[Callable[..., BridgeServer]]:
    servers: list[BridgeServer] = []

    def make(**overrides: Any) -> BridgeServer:
        config = replace(BridgeConfig(port=0, rate_per_s=10_000, rate_burst=10_000), **overrides)
        server = BridgeServer(service, TOKEN, config)
        server.start()
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.stop()


@pytest.fixture
def bridge(make_bridge: Callable[..., BridgeServer]) -> BridgeServer:
    return make_bridge()


@pytest.fixture
def api(bridge: BridgeServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=bridge.url, headers=AUTH, timeout=30) as client:
        yield client


@pytest.fixture
def anon(bridge: BridgeServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=bridge.url, timeout=30) as client:
        yield client


@pytest.fixture(scope="module")
def shared_bridge(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[MemoryService, BridgeServer]]:
    """One service and bridge for a whole module of tests that leave no state others read
    (a module opts in by overriding ``service`` and ``bridge`` with these)."""
    svc = MemoryService.open(tmp_path_factory.mktemp("shared") / "data", attach=False)
    server = BridgeServer(svc, TOKEN, BridgeConfig(port=0, rate_per_s=10_000, rate_burst=10_000))
    server.start()
    yield svc, server
    server.stop()
    svc.close()
