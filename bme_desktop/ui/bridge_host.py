"""The bridge inside the desktop app: started with the window, stopped with it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QCoreApplication

from ..bridge.config import BridgeConfig, is_loopback_host
from ..bridge.serve import remove_bridge_file, running_bridge, write_bridge_file
from ..bridge.server import BridgeError, BridgeServer
from ..bridge.tokens import TokenError, TokenSource, TokenStore
from ..core.service import MemoryService
from ..core.settings import Settings


@dataclass
class HostedBridge:
    server: BridgeServer | None
    describe: Callable[[], str]  # the status bar's text, in the language of the moment

    @property
    def status(self) -> str:
        return self.describe()

    def stop(self, data_dir: Path) -> None:
        if self.server is not None:
            self.server.stop()
            remove_bridge_file(data_dir)
            self.server = None


def start_bridge(service: MemoryService, data_dir: Path, settings: Settings) -> HostedBridge:
    """Start the loopback bridge for ``service``; never raises — a problem becomes the status."""
    config = BridgeConfig.from_settings(settings.bridge, host=None, port=None, allow_remote=False)
    if not is_loopback_host(config.host):
        return HostedBridge(
            None,
            lambda: QCoreApplication.translate(
                "Bridge", "Bridge: off ({0} is not a loopback address; use bme-desktop serve --allow-remote)"
            ).format(config.host),
        )
    other = running_bridge(data_dir)
    if other is not None:
        url = other.get("url")
        return HostedBridge(
            None,
            lambda: QCoreApplication.translate("Bridge", "Bridge: served by another process at {0}").format(
                url
            ),
        )
    try:
        server = BridgeServer(service, TokenSource(TokenStore(data_dir)), config)
        server.start()
    except (BridgeError, TokenError, OSError) as exc:
        problem = str(exc)
        return HostedBridge(
            None, lambda: QCoreApplication.translate("Bridge", "Bridge: off ({0})").format(problem)
        )
    write_bridge_file(data_dir, server.url)
    return HostedBridge(
        server, lambda: QCoreApplication.translate("Bridge", "Bridge: {0}").format(server.url)
    )
