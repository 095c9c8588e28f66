"""Shared helpers for the bridge tests: a fixed token, DB snapshots, raw HTTP."""

from __future__ import annotations

import hashlib
import socket
from typing import Any

from sqlalchemy import select

from bme_desktop.core.service import MemoryService
from bme_desktop.core.store import tables as t

TOKEN = "test-token-" + "Q" * 43
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def snapshot(service: MemoryService) -> str:
    """A digest of every row of every table except the audit log's read-only noise."""
    digest = hashlib.sha256()
    with service.store.engine.connect() as conn:
        for table in t.metadata.sorted_tables:
            rows = conn.execute(select(table)).all()
            digest.update(table.name.encode())
            for row in sorted(repr(tuple(r)) for r in rows):
                digest.update(row.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def messages(n: int, *, start: int = 0, words: int = 12) -> list[dict[str, Any]]:
    return [
        {
            "index": i,
            "role": "user" if i % 2 == 0 else "assistant",
            "name": "Alex" if i % 2 == 0 else "Sera",
            "text": f"message {i}: " + " ".join(f"word{(i * 7 + k) % 97}" for k in range(words)),
        }
        for i in range(start, start + n)
    ]


def raw_request(port: int, data: bytes, *, read: bool = True, timeout: float = 10.0) -> bytes:
    """Send raw bytes to the bridge and return the whole answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(data)
        if not read:
            return b""
        chunks = []
        while True:
            try:
                chunk = sock.recv(65536)
            except (ConnectionResetError, TimeoutError):
                break
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)
