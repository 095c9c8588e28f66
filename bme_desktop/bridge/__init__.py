"""The bridge: a loopback HTTP + WebSocket server over the memory core (protocol 1).

``BridgeServer`` runs it on its own asyncio thread; ``serve.serve_main`` is the headless
``bme-desktop serve``; ``client.BridgeClient`` is the Python client. Never imports Qt.
"""

from __future__ import annotations

PROTOCOL = 1
DEFAULT_PORT = 7317

__all__ = ["DEFAULT_PORT", "PROTOCOL"]
