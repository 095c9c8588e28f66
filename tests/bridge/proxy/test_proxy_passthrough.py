"""The proxy relays what the upstream says: bodies, streams chunk by chunk, errors with their
status, and its own errors in OpenAI's shape."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from fakes.openai_server import FakeOpenAIServer, Reply

from bme_desktop.bridge.server import BridgeServer
from bme_desktop.core.settings import ProxySettings

from ..helpers import AUTH, TOKEN
from .conftest import sent_messages, state_of

HELLO = [{"role": "system", "content": "You are Sera."}, {"role": "user", "content": "Hello there."}]


def sse_events(text: str) -> list[Any]:
    events = []
    for block in text.split("\n\n"):
        for line in block.splitlines():
            if line.startswith("data: "):
                data = line[len("data: ") :]
                events.append(data if data == "[DONE]" else json.loads(data))
    return events


def test_a_plain_completion_comes_back_as_the_upstream_sent_it(
    proxy: httpx.Client, fake: FakeOpenAIServer
) -> None:
    fake.enqueue(Reply.text("Hello, traveller.", headers={"x-request-id": "req-42"}))
    r = proxy.post("/chat/completions", json={"model": "fake-chat", "messages": HELLO, "temperature": 0.5})
    assert r.status_code == 200
    body = r.json()
    assert body["object"] == "chat.completion"
    assert body["choices"][0]["message"] == {"role": "assistant", "content": "Hello, traveller."}
    assert r.headers["x-request-id"] == "req-42"
    assert r.headers["x-bme-memory"] in ("none", "injected")
    upstream = fake.requests_to("/chat/completions")[0]
    assert upstream.json["temperature"] == 0.5 and upstream.json["model"] == "fake-chat"


def test_a_stream_is_relayed_chunk_by_chunk_as_it_arrives(
    proxy: httpx.Client, fake: FakeOpenAIServer
) -> None:
    reply = "The lantern flickers in the mill."
    fake.enqueue(Reply.text(reply, chunk_size=4, chunk_delay=0.05))
    arrivals: list[float] = []
    started = time.monotonic()
    with proxy.stream(
        "POST", "/chat/completions", json={"model": "fake-chat", "messages": HELLO, "stream": True}
    ) as r:
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        raw = ""
        for piece in r.iter_text():
            arrivals.append(time.monotonic() - started)
            raw += piece
    events = sse_events(raw)
    assert events[-1] == "[DONE]"
    text = "".join(e["choices"][0]["delta"].get("content", "") for e in events[:-1] if e["choices"])
    assert text == reply
    # ~9 chunks 50 ms apart: the first arrived long before the last (nothing buffered whole).
    assert len(arrivals) >= 5
    assert arrivals[-1] - arrivals[0] > 0.25


@pytest.mark.parametrize("status", [429, 500, 400, 401])
def test_upstream_errors_pass_through_with_status_and_body(
    proxy: httpx.Client, fake: FakeOpenAIServer, status: int
) -> None:
    fake.enqueue(Reply.error(status, "scripted trouble", retry_after=7 if status == 429 else None))
    r = proxy.post("/chat/completions", json={"model": "fake-chat", "messages": HELLO})
    assert r.status_code == status
    assert r.json() == {"error": {"message": "scripted trouble", "type": "fake_error", "code": status}}
    if status == 429:
        assert r.headers["retry-after"] == "7"


def test_a_streamed_request_that_fails_upstream_gets_the_error_not_a_stream(
    proxy: httpx.Client, fake: FakeOpenAIServer
) -> None:
    fake.enqueue(Reply.error(500, "boom"))
    r = proxy.post("/chat/completions", json={"model": "fake-chat", "messages": HELLO, "stream": True})
    assert r.status_code == 500 and r.json()["error"]["message"] == "boom"


def test_an_upstream_that_breaks_mid_stream_ends_with_an_error_event(
    proxy: httpx.Client, fake: FakeOpenAIServer
) -> None:
    fake.enqueue(Reply.text("a long answer that will be cut short", chunk_size=3, abort_after=3))
    with proxy.stream(
        "POST", "/chat/completions", json={"model": "fake-chat", "messages": HELLO, "stream": True}
    ) as r:
        raw = "".join(r.iter_text())
    events = sse_events(raw)
    assert "[DONE]" not in events
    assert events[-1]["error"]["type"] == "bme_proxy_error"
    assert proxy.get("/models").status_code == 200  # still serving


def test_the_model_map_renames_the_model_upstream(
    proxy: httpx.Client, fake: FakeOpenAIServer, configure: Callable[..., ProxySettings]
) -> None:
    configure(upstream_base_url=fake.base_url, model_map=["memory-gpt=fake-chat", "other=x"])
    r = proxy.post("/chat/completions", json={"model": "memory-gpt", "messages": HELLO})
    assert r.status_code == 200
    assert fake.requests_to("/chat/completions")[0].json["model"] == "fake-chat"
    proxy.post("/chat/completions", json={"model": "unmapped", "messages": HELLO})
    assert fake.requests_to("/chat/completions")[1].json["model"] == "unmapped"


def test_the_upstream_key_is_sent_and_the_bridge_token_never(
    proxy: httpx.Client, fake: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BME_PROXY_UPSTREAM_KEY", "sk-upstream-123")
    fake.api_key = "sk-upstream-123"
    r = proxy.post(
        "/chat/completions",
        json={"model": "fake-chat", "messages": HELLO},
        headers={"OpenAI-Organization": "org-1", "X-BME-Chat": "c1"},
    )
    assert r.status_code == 200, r.text
    headers = fake.requests_to("/chat/completions")[0].headers
    assert headers["authorization"] == "Bearer sk-upstream-123"
    assert headers["openai-organization"] == "org-1"
    assert TOKEN not in json.dumps(headers)
    assert not any(name.startswith("x-bme-chat") for name in headers)


def test_without_a_key_no_authorization_goes_upstream(proxy: httpx.Client, fake: FakeOpenAIServer) -> None:
    assert proxy.post("/chat/completions", json={"model": "m", "messages": HELLO}).status_code == 200
    assert "authorization" not in fake.requests_to("/chat/completions")[0].headers


def test_models_lists_the_upstream_models_and_the_aliases(
    proxy: httpx.Client, fake: FakeOpenAIServer, configure: Callable[..., ProxySettings]
) -> None:
    configure(upstream_base_url=fake.base_url, model_map=["memory=fake-chat", "fake-chat=fake-chat"])
    r = proxy.get("/models")
    assert r.status_code == 200
    ids = [m["id"] for m in r.json()["data"]]
    assert ids == ["fake-chat", "fake-embed", "memory"]
    assert len(fake.requests_to("/models")) == 1


def test_models_falls_back_to_the_aliases_when_the_upstream_is_down(
    proxy: httpx.Client, configure: Callable[..., ProxySettings]
) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{sock.getsockname()[1]}/v1"
    configure(upstream_base_url=dead, model_map=["memory=gpt-4o"])
    r = proxy.get("/models")
    assert r.status_code == 200 and r.headers["x-bme-upstream"] == "unreachable"
    assert [m["id"] for m in r.json()["data"]] == ["memory"]
    configure(upstream_base_url=dead)
    r = proxy.get("/models")
    assert r.status_code == 502 and r.json()["error"]["code"] == "upstream_unreachable"


def test_models_passes_an_upstream_error_through_when_there_are_no_aliases(
    proxy: httpx.Client, fake: FakeOpenAIServer
) -> None:
    fake.models = None  # this server has no /models route: 404
    r = proxy.get("/models")
    assert r.status_code == 404 and r.json()["error"]["message"] == "no such route"


def test_an_unreachable_upstream_is_a_502_in_openai_shape(
    proxy: httpx.Client, configure: Callable[..., ProxySettings]
) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    configure(upstream_base_url=f"http://127.0.0.1:{port}/v1")
    r = proxy.post("/chat/completions", json={"model": "m", "messages": HELLO})
    assert r.status_code == 502
    assert r.json()["error"]["code"] == "upstream_unreachable" and str(port) in r.json()["error"]["message"]


def test_a_silent_upstream_is_a_504_after_timeout_s(
    proxy: httpx.Client, fake: FakeOpenAIServer, configure: Callable[..., ProxySettings]
) -> None:
    configure(upstream_base_url=fake.base_url, timeout_s=1.0)
    fake.enqueue(Reply.text("late", delay=5))
    started = time.monotonic()
    r = proxy.post("/chat/completions", json={"model": "m", "messages": HELLO})
    assert r.status_code == 504 and r.json()["error"]["code"] == "upstream_timeout"
    assert time.monotonic() - started < 4


def test_not_set_up_or_turned_off_is_a_503_that_says_what_to_do(
    proxy: httpx.Client, configure: Callable[..., ProxySettings]
) -> None:
    configure(upstream_base_url="")
    r = proxy.post("/chat/completions", json={"model": "m", "messages": HELLO})
    assert r.status_code == 503 and "proxy.upstream_base_url" in r.json()["error"]["message"]
    assert r.headers["x-should-retry"] == "false"
    configure(enabled=False)
    r = proxy.post("/chat/completions", json={"model": "m", "messages": HELLO})
    assert r.status_code == 503 and "proxy.enabled" in r.json()["error"]["message"]
    assert proxy.get("/models").status_code == 503


def test_an_upstream_pointing_back_at_the_bridge_is_refused_not_looped(
    proxy: httpx.Client,
    bridge: BridgeServer,
    configure: Callable[..., ProxySettings],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    configure(upstream_base_url=bridge.url + "/v1")
    r = proxy.post("/chat/completions", json={"model": "m", "messages": HELLO})
    assert r.status_code == 401  # the looped request carries no bridge token: it stops there
    monkeypatch.setenv("BME_PROXY_UPSTREAM_KEY", TOKEN)  # even with the token as the key:
    state_of(bridge).upstream.key.invalidate()
    r = proxy.post("/chat/completions", json={"model": "m", "messages": HELLO})
    assert r.status_code == 508 and r.json()["error"]["code"] == "loop_detected"


def test_memory_off_forwards_the_request_untouched(
    proxy: httpx.Client, fake: FakeOpenAIServer, bridge: BridgeServer
) -> None:
    body = {"model": "m", "messages": HELLO, "user": "someone"}
    r = proxy.post("/chat/completions", json=body, headers={"X-BME-Memory": "off"})
    assert r.status_code == 200 and r.headers["x-bme-memory"] == "off"
    assert fake.requests_to("/chat/completions")[0].json == body
    assert bridge.service.list_chats() == []


def test_a_body_that_is_not_json_is_a_400(proxy: httpx.Client, fake: FakeOpenAIServer) -> None:
    r = proxy.post("/chat/completions", content=b"{not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "body" in r.json()["error"]["message"]
    assert fake.requests_to("/chat/completions") == []


def test_a_request_without_messages_goes_upstream_as_is(proxy: httpx.Client, fake: FakeOpenAIServer) -> None:
    fake.enqueue(Reply.error(400, "messages is required"))
    r = proxy.post("/chat/completions", json={"model": "m"})
    assert r.status_code == 400 and r.json()["error"]["message"] == "messages is required"


def test_browser_origins_get_cors_headers_on_streams(proxy: httpx.Client, fake: FakeOpenAIServer) -> None:
    with proxy.stream(
        "POST",
        "/chat/completions",
        json={"model": "m", "messages": HELLO, "stream": True},
        headers={"Origin": "http://localhost:8000"},
    ) as r:
        r.read()
    assert r.headers["access-control-allow-origin"] == "http://localhost:8000"
    assert "X-BME-Chat" in r.headers["access-control-expose-headers"]


def test_the_injected_message_leaves_the_client_body_otherwise_equal(
    proxy: httpx.Client, fake: FakeOpenAIServer
) -> None:
    body = {
        "model": "m",
        "messages": HELLO,
        "tools": [{"type": "function", "function": {"name": "f"}}],
        "response_format": {"type": "text"},
        "seed": 3,
    }
    proxy.post("/chat/completions", json=body)
    got = fake.requests_to("/chat/completions")[0].json
    assert {k: v for k, v in got.items() if k != "messages"} == {
        k: v for k, v in body.items() if k != "messages"
    }
    assert [m for m in sent_messages(fake) if m in HELLO] == HELLO


def test_auth_is_required(
    bridge: BridgeServer, configure: Callable[..., ProxySettings], fake: FakeOpenAIServer
) -> None:
    with httpx.Client(base_url=bridge.url + "/v1", timeout=10) as anon:
        r = anon.post("/chat/completions", json={"model": "m", "messages": HELLO})
        assert r.status_code == 401 and r.headers["www-authenticate"].startswith("Bearer")
        r = anon.post(
            "/chat/completions",
            json={"model": "m", "messages": HELLO},
            headers={"Authorization": "Bearer wrong"},
        )
        assert r.status_code == 401
        assert anon.get("/models").status_code == 401
        assert anon.get("/models", headers=AUTH).status_code == 200
    assert fake.requests_to("/chat/completions") == []


def test_a_plain_answer_cut_by_the_upstream_reaches_the_client_as_a_broken_transfer(
    proxy: httpx.Client, configure: Callable[..., ProxySettings], bridge: BridgeServer
) -> None:
    """Not a clean end of a truncated JSON body that would look complete."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)

    def answer_half() -> None:
        conn, _ = server.accept()
        with conn:
            conn.recv(65536)
            conn.sendall(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
                b'{"choices": [{"index": 0, "message": {"content": "cut'
            )
            time.sleep(0.2)

    thread = threading.Thread(target=answer_half, daemon=True)
    thread.start()
    configure(upstream_base_url=f"http://127.0.0.1:{server.getsockname()[1]}/v1")
    with pytest.raises(httpx.TransportError):
        proxy.post(
            "/chat/completions", json={"model": "m", "messages": HELLO}, headers={"X-BME-Chat": "half"}
        )
    thread.join(5)
    server.close()
    assert state_of(bridge).active == 0 and state_of(bridge).replies_synced == 0
    assert bridge.service.messages("half")[-1].role == "user"
