"""The OpenAI-compatible memory proxy on the bridge: ``POST /v1/chat/completions`` and
``GET /v1/models``. Point any chat app's OpenAI base URL at ``http://127.0.0.1:7317/v1``
with the bridge token as its API key, and its chats get memory with no plugin.

Modules: ``routes`` (handlers, registration), ``upstream`` (the real server, its key, headers),
``chat_identity`` (which chat a request is), ``conversation`` (the chat inside a request and
where it sits in the stored history), ``memory`` (sync, recall and reply sync on worker
threads), ``injection`` (where the memory goes), ``stream`` (relay and reply reading).
See docs/proxy.md.
"""

from __future__ import annotations

from .routes import CHAT_PATH, MODELS_PATH, PROXY, ProxyState, register

__all__ = ["CHAT_PATH", "MODELS_PATH", "PROXY", "ProxyState", "register"]
