"""Per-chat state keys: kept in the store (``core/store/chat_state.py``), named here for the life cycle."""

from __future__ import annotations

from ..store.chat_state import STATE_KEYS, get_key, read_key, set_key, undo_state

__all__ = ["STATE_KEYS", "get_key", "read_key", "set_key", "undo_state"]
