"""Slow or stalled clients cannot hold connections open: a request head must arrive within
``header_timeout_s``; a body that stalls, or drips for longer than ``body_timeout_s``, is a 408
and the connection is closed. Nothing is stored."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable

from bme_desktop.bridge.config import BridgeConfig
from bme_desktop.bridge.server import BridgeServer
from bme_desktop.core.service import MemoryService

from .helpers import AUTH, snapshot

WAIT_S = 20.0  # far longer than the bridge's timeouts in these tests: a hang fails, a close passes


def sync_head(length: int) -> bytes:
    return (
        f"POST /v1/chats/c/sync HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Authorization: {AUTH['Authorization']}\r\nContent-Length: {length}\r\n\r\n"
    ).encode()


def read_until_closed(sock: socket.socket) -> bytes:
    """Everything the bridge sends until it closes the connection (a timeout fails the test)."""
    sock.settimeout(WAIT_S)
    chunks = []
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


def test_a_connection_that_never_finishes_its_headers_is_closed(
    make_bridge: Callable[..., BridgeServer],
) -> None:
    server = make_bridge(header_timeout_s=0.3)
    for sent in (b"", b"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n"):
        with socket.create_connection(("127.0.0.1", server.port)) as sock:
            sock.sendall(sent)
            assert read_until_closed(sock) == b""


def test_a_stalled_body_is_408_and_the_connection_closed(
    make_bridge: Callable[..., BridgeServer], service: MemoryService
) -> None:
    server = make_bridge(body_idle_timeout_s=0.3)
    before = snapshot(service)
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall(sync_head(100) + b'{"messages"')
        answer = read_until_closed(sock)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408"), answer
    message = json.loads(body)["error"]["message"]
    assert message == "body: nothing arrived for 0.3 s (11 of 100 bytes came); the request was dropped"
    assert snapshot(service) == before


def test_a_body_dripped_slower_than_the_deadline_is_408(
    make_bridge: Callable[..., BridgeServer], service: MemoryService
) -> None:
    server = make_bridge(body_timeout_s=0.5, body_idle_timeout_s=30)
    before = snapshot(service)
    stop = threading.Event()
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall(sync_head(10_000))

        def drip() -> None:  # one byte every 20 ms: never idle, never done (200 s for the whole body)
            while not stop.wait(0.02):
                try:
                    sock.sendall(b" ")
                except OSError:
                    return

        dripper = threading.Thread(target=drip, daemon=True)
        dripper.start()
        try:
            answer = read_until_closed(sock)
        finally:
            stop.set()
            dripper.join()
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408"), answer
    assert json.loads(body)["error"]["message"].startswith("body: not complete after 0.5 s (")
    assert snapshot(service) == before


def test_the_default_timeouts() -> None:
    config = BridgeConfig()
    assert (config.header_timeout_s, config.body_idle_timeout_s, config.body_timeout_s) == (10.0, 15.0, 120.0)
