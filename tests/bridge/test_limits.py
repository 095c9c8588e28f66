"""Body size and rate limits: documented errors, others keep being served, normal use never hits them."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator

import aiohttp
import httpx

from bme_desktop.bridge.limits import RateLimiter
from bme_desktop.bridge.server import BridgeServer
from bme_desktop.core.service import MemoryService

from .helpers import AUTH, raw_request, snapshot


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_token_bucket_allows_a_burst_then_the_rate() -> None:
    clock = FakeClock()
    limiter = RateLimiter(rate=10, burst=3, clock=clock)
    assert [limiter.take("a") for _ in range(3)] == [0, 0, 0]
    wait = limiter.take("a")
    assert 0 < wait <= 0.1
    assert limiter.take("b") == 0  # another client has its own bucket
    clock.now += 0.1
    assert limiter.take("a") == 0


def test_token_bucket_forgets_idle_clients_when_full() -> None:
    clock = FakeClock()
    limiter = RateLimiter(rate=1, burst=1, clock=clock, max_clients=10)
    for i in range(10):
        limiter.take(str(i))
    clock.now += 5
    limiter.take("new")
    assert len(limiter._buckets) == 1


def test_retry_after_is_whole_seconds_at_least_one() -> None:
    assert RateLimiter.retry_after(0.01) == "1"
    assert RateLimiter.retry_after(2.2) == "3"


def test_a_10_mb_body_is_413_too_large(api: httpx.Client, service: MemoryService) -> None:
    before = snapshot(service)
    body = json.dumps({"user_input": "x" * 10_000_000}).encode()
    r = api.post("/v1/chats/c/recall", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    assert r.json()["error"]["code"] == "too_large"
    assert "body" in r.json()["error"]["message"]
    assert snapshot(service) == before


def test_an_oversized_sync_is_refused_from_its_declared_length(
    bridge: BridgeServer, api: httpx.Client
) -> None:
    declared = bridge.config.sync_body_limit + 1
    answer = raw_request(
        bridge.port,
        (
            "POST /v1/chats/c/sync HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Authorization: {AUTH['Authorization']}\r\nContent-Length: {declared}\r\n\r\n"
        ).encode()
        + b"{",
    )
    assert answer.startswith(b"HTTP/1.1 413")
    assert b'"too_large"' in answer
    assert api.get("/v1/chats").json() == {"chats": []}


def test_an_oversized_chunked_body_is_refused(make_bridge: Callable[..., BridgeServer]) -> None:
    server = make_bridge(body_limit=1000)

    def chunks() -> Iterator[bytes]:  # no Content-Length: the limit is counted as the body streams in
        yield b'{"user_input": "'
        for _ in range(50):
            yield b"x" * 100
        yield b'"}'

    with httpx.Client(base_url=server.url, headers=AUTH) as client:
        r = client.post("/v1/chats/c/recall", content=chunks(), headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"


def test_one_sync_of_a_2000_message_chat_hits_no_limit(make_bridge: Callable[..., BridgeServer]) -> None:
    """Default limits; long messages (about 1,500 characters of mixed text each)."""
    server = make_bridge(rate_per_s=200.0, rate_burst=400, body_limit=4 * 1024 * 1024)
    text = ("The caravan reached the northern pass at dusk; 商队在黄昏时到达北方山口。" * 30)[:1500]
    body = {
        "messages": [
            {
                "index": i,
                "role": "user" if i % 2 else "assistant",
                "name": "Sera",
                "text": text,
                "swipe_id": 0,
                "time": "2023-05-08T13:56:00Z",
            }
            for i in range(2000)
        ],
        "complete": True,
    }
    content = json.dumps(body).encode()  # ASCII-escaped: the largest form a frontend may send
    assert len(content) > 4 * 1024 * 1024
    with httpx.Client(base_url=server.url, headers=AUTH, timeout=120) as client:
        r = client.post("/v1/chats/long/sync", content=content, headers={"Content-Type": "application/json"})
        assert r.status_code == 200, r.text
        assert r.json()["stored"] == 2000
        assert client.get("/v1/chats/long").json()["message_count"] == 2000


def test_1000_requests_in_a_second_get_429_with_retry_after_and_others_are_still_served(
    make_bridge: Callable[..., BridgeServer],
) -> None:
    server = make_bridge(rate_per_s=100.0, rate_burst=200)

    async def storm() -> list[tuple[int, str | None, str]]:
        connector = aiohttp.TCPConnector(limit=100)
        async with aiohttp.ClientSession(server.url, headers=AUTH, connector=connector) as session:

            async def one() -> tuple[int, str | None, str]:
                async with session.get("/v1/chats") as r:
                    return r.status, r.headers.get("Retry-After"), await r.text()

            return await asyncio.gather(*(one() for _ in range(1000)))

    results = asyncio.run(storm())
    statuses = [s for s, _, _ in results]
    assert set(statuses) <= {200, 429}
    assert statuses.count(200) >= 200
    assert statuses.count(429) > 0
    limited = next(r for r in results if r[0] == 429)
    assert limited[1] is not None and int(limited[1]) >= 1
    assert json.loads(limited[2])["error"]["code"] == "rate_limited"
    # A different client (another origin) has its own budget and is served at once.
    with httpx.Client(base_url=server.url, headers={**AUTH, "Origin": "http://localhost:8000"}) as other:
        assert other.get("/v1/chats").status_code == 200
