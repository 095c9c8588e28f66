"""A client that goes away mid-request leaves nothing half-stored and the server serving."""

from __future__ import annotations

import json
import logging
import re
import socket
import time

import httpx
import pytest

from bme_desktop.bridge.server import BridgeServer
from bme_desktop.core.service import MemoryService

from .helpers import AUTH, messages, snapshot


def test_disconnect_mid_body_stores_nothing(
    bridge: BridgeServer, api: httpx.Client, service: MemoryService
) -> None:
    before = snapshot(service)
    body = json.dumps({"messages": messages(500)}).encode()
    head = (
        f"POST /v1/chats/c/sync HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Authorization: {AUTH['Authorization']}\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", bridge.port)) as sock:
        sock.sendall(head + body[: len(body) // 2])
    assert api.get("/v1/health").status_code == 200
    assert api.get("/v1/chats").json() == {"chats": []}
    assert snapshot(service) == before


def test_disconnect_mid_body_is_logged_in_one_line_without_a_traceback(
    bridge: BridgeServer, api: httpx.Client, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    body = json.dumps({"messages": messages(200)}).encode()
    head = (
        f"POST /v1/chats/c/sync HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Authorization: {AUTH['Authorization']}\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", bridge.port)) as sock:
        sock.sendall(head + body[:1000])
    for _ in range(500):  # the bridge notices on its own thread: wait for its line
        if any("went away" in r.getMessage() for r in caplog.records):
            break
        time.sleep(0.02)
    assert api.get("/v1/health").status_code == 200
    said = [
        r
        for r in caplog.records
        if r.levelno >= logging.INFO and r.name.startswith(("aiohttp", "bme_desktop"))
    ]
    assert len(said) == 1, [r.getMessage() for r in said]
    assert re.fullmatch(
        rf"client 127\.0\.0\.1 went away during POST /v1/chats/c/sync after \d+ of {len(body)} "
        r"body bytes; nothing was changed",
        said[0].getMessage(),
    )
    assert said[0].exc_info is None


def test_disconnect_while_waiting_for_the_answer_still_applies_the_whole_sync(
    bridge: BridgeServer, api: httpx.Client
) -> None:
    """Once the body is in, the sync runs as one transaction: all of it, never part."""
    body = json.dumps({"messages": messages(300), "wait": True}).encode()
    head = (
        f"POST /v1/chats/c/sync HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Authorization: {AUTH['Authorization']}\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", bridge.port)) as sock:
        sock.sendall(head + body)
        sock.shutdown(socket.SHUT_RDWR)
    stats = None
    for _ in range(1000):  # the sync may still be running: ask until the chat appears
        r = api.get("/v1/chats/c")
        if r.status_code == 200:
            stats = r.json()
            break
        time.sleep(0.02)
    assert stats is not None and stats["message_count"] == 300
    assert api.get("/v1/health").status_code == 200
