"""A client that goes away mid-answer: the proxy stops reading upstream, closes cleanly, syncs
nothing of that reply, and keeps serving."""

from __future__ import annotations

import json
import socket
import time

import httpx
from fakes.openai_server import FakeOpenAIServer, Reply

from bme_desktop.bridge.server import BridgeServer
from bme_desktop.core.service import MemoryService

from ..helpers import AUTH
from .conftest import state_of, stored, wait_for


def start_stream(port: int, body: dict[str, object]) -> socket.socket:
    raw = json.dumps(body).encode()
    head = (
        f"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Authorization: {AUTH['Authorization']}\r\nX-BME-Chat: cut\r\nContent-Length: {len(raw)}\r\n\r\n"
    )
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(head.encode() + raw)
    return sock


def read_until(sock: socket.socket, marker: bytes) -> bytes:
    data = b""
    while marker not in data:
        chunk = sock.recv(65536)
        assert chunk, "connection closed early"
        data += chunk
    return data


def test_a_client_leaving_mid_stream_stops_the_upstream_and_syncs_nothing(
    proxy: httpx.Client, bridge: BridgeServer, fake: FakeOpenAIServer, service: MemoryService
) -> None:
    # The upstream sends three chunks, then goes silent for an hour.
    fake.enqueue(Reply.text("a reply that the user will never see in full", chunk_size=5, stall_after=3))
    sock = start_stream(
        bridge.port,
        {"model": "m", "stream": True, "messages": [{"role": "user", "content": "Tell me everything."}]},
    )
    got = read_until(sock, b"at th")  # the third chunk
    assert b"200 OK" in got and b"text/event-stream" in got
    assert state_of(bridge).active == 1
    sock.close()
    # The relay notices within its check interval although the upstream says nothing.
    wait_for(lambda: state_of(bridge).active == 0, timeout=5)
    assert stored(service, "cut") == [(0, "user", "Tell me everything.")]
    assert state_of(bridge).replies_synced == 0
    # Still serving, streams included.
    fake.enqueue(Reply.text("fine"))
    with proxy.stream(
        "POST",
        "/chat/completions",
        json={"model": "m", "stream": True, "messages": [{"role": "user", "content": "Tell me everything."}]},
        headers={"X-BME-Chat": "cut"},
    ) as r:
        assert b"[DONE]" in r.read()
    wait_for(lambda: state_of(bridge).replies_synced == 1)
    assert stored(service, "cut") == [(0, "user", "Tell me everything."), (1, "assistant", "fine")]


def test_a_client_leaving_while_chunks_flow_is_noticed_on_write(
    proxy: httpx.Client, bridge: BridgeServer, fake: FakeOpenAIServer, service: MemoryService
) -> None:
    fake.enqueue(Reply.text("word " * 2000, chunk_size=5, chunk_delay=0.002))
    sock = start_stream(
        bridge.port, {"model": "m", "stream": True, "messages": [{"role": "user", "content": "Talk."}]}
    )
    read_until(sock, b"word")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")  # RST on close
    sock.close()
    wait_for(lambda: state_of(bridge).active == 0, timeout=5)
    assert stored(service, "cut") == [(0, "user", "Talk.")]
    assert proxy.get("/models").status_code == 200


def test_stopping_the_bridge_ends_a_silent_stream_promptly(
    bridge: BridgeServer, fake: FakeOpenAIServer, proxy: httpx.Client
) -> None:
    fake.enqueue(Reply.text("stalled answer", chunk_size=4, stall_after=1))
    sock = start_stream(
        bridge.port, {"model": "m", "stream": True, "messages": [{"role": "user", "content": "Hi."}]}
    )
    read_until(sock, b"stal")
    started = time.monotonic()
    bridge.stop()
    assert time.monotonic() - started < 5  # not the 30 s shutdown grace
    sock.close()


def test_a_client_closing_right_after_done_still_has_its_reply_synced(
    proxy: httpx.Client, bridge: BridgeServer, fake: FakeOpenAIServer, service: MemoryService
) -> None:
    # OpenAI's SDKs close the connection as soon as they read [DONE]; here the upstream ends its
    # HTTP body only later, so the client is surely gone first. The client has the whole reply.
    fake.enqueue(Reply.text("The key is under the mill.", chunk_size=5, eof_delay=3))
    sock = start_stream(
        bridge.port,
        {"model": "m", "stream": True, "messages": [{"role": "user", "content": "Where is the key?"}]},
    )
    read_until(sock, b"[DONE]")
    sock.close()
    wait_for(lambda: state_of(bridge).replies_synced == 1, timeout=5)
    assert stored(service, "cut") == [
        (0, "user", "Where is the key?"),
        (1, "assistant", "The key is under the mill."),
    ]
    assert state_of(bridge).active == 0
