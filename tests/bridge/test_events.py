"""The events WebSocket: token by header or first message, clear close codes, sync events."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import aiohttp
import httpx

from bme_desktop.bridge.routes_events import CLOSE_AUTH_TIMEOUT, CLOSE_TRY_AGAIN, CLOSE_UNAUTHORIZED
from bme_desktop.bridge.server import BridgeServer

from .helpers import AUTH, TOKEN, messages


def ws_url(server: BridgeServer) -> str:
    return server.url.replace("http", "ws", 1) + "/v1/events"


async def collect_after_sync(
    server: BridgeServer, *, header: bool, chat_filter: str | None = None, chat: str = "c"
) -> list[dict[str, Any]]:
    headers = AUTH if header else {}
    params = {"chat_id": chat_filter} if chat_filter else None
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(ws_url(server), headers=headers, params=params) as ws,
    ):
        if not header:
            await ws.send_json({"token": TOKEN})
        hello = await ws.receive_json(timeout=10)
        assert hello["type"] == "hello" and hello["protocol"] == 1
        async with httpx.AsyncClient(base_url=server.url, headers=AUTH) as api:
            r = await api.post(f"/v1/chats/{chat}/sync", json={"messages": messages(3)})
            assert r.status_code == 200
            r = await api.post(f"/v1/chats/{chat}/nodes", json={"type": "event", "fields": {"summary": "s"}})
            assert r.status_code == 201
            await api.post(f"/v1/chats/{chat}/recall", json={"user_input": "s", "index": 3})
        events: list[dict[str, Any]] = []
        while not any(e["type"] == "recall.finished" for e in events):
            try:
                events.append(await ws.receive_json(timeout=5))
            except TimeoutError:
                break
        return events


def test_events_of_a_sync_arrive_with_a_header_token(bridge: BridgeServer) -> None:
    events = asyncio.run(collect_after_sync(bridge, header=True))
    kinds = [e["type"] for e in events]
    assert kinds[0] == "chat.synced"
    assert events[0]["chat_id"] == "c" and events[0]["stored"] == 3
    changed = next(e for e in events if e["type"] == "graph.changed")
    assert changed["chat_id"] == "c" and len(changed["changes"]["nodes"]["added"]) == 1
    assert "recall.finished" in kinds


def test_browsers_send_the_token_as_the_first_message(bridge: BridgeServer) -> None:
    events = asyncio.run(collect_after_sync(bridge, header=False))
    assert events[0]["type"] == "chat.synced"


def test_a_chat_filter_keeps_other_chats_out(bridge: BridgeServer) -> None:
    async def run() -> dict[str, Any]:
        async with (
            aiohttp.ClientSession() as session,
            session.ws_connect(ws_url(bridge), headers=AUTH, params={"chat_id": "other"}) as ws,
        ):
            await ws.receive_json(timeout=10)
            async with httpx.AsyncClient(base_url=bridge.url, headers=AUTH) as api:
                await api.post("/v1/chats/c/sync", json={"messages": messages(3)})
                await api.post("/v1/chats/other/sync", json={"messages": messages(2)})
            return dict(await ws.receive_json(timeout=10))

    first = asyncio.run(run())
    assert first["type"] == "chat.synced" and first["chat_id"] == "other"


async def refused(server: BridgeServer, first: str | None) -> tuple[int | None, dict[str, Any] | None]:
    async with aiohttp.ClientSession() as session, session.ws_connect(ws_url(server)) as ws:
        if first is not None:
            await ws.send_str(first)
        message: dict[str, Any] | None = None
        async for msg in ws:
            if msg.type == aiohttp.WSMsgType.TEXT:
                message = json.loads(msg.data)
        return ws.close_code, message


def test_a_socket_that_never_sends_its_token_is_closed_with_4408(
    make_bridge: Callable[..., BridgeServer],
) -> None:
    server = make_bridge(ws_auth_timeout_s=0.3)
    code, message = asyncio.run(refused(server, None))
    assert code == CLOSE_AUTH_TIMEOUT
    assert message is not None and message["error"]["code"] == "unauthorized"


def test_the_first_message_token_is_due_within_one_second_by_default(bridge: BridgeServer) -> None:
    code, message = asyncio.run(refused(bridge, None))
    assert code == CLOSE_AUTH_TIMEOUT
    assert message is not None and "within 1 s" in message["error"]["message"]


async def handshake_status(session: aiohttp.ClientSession, server: BridgeServer, *, header: bool) -> int:
    try:
        ws = await session.ws_connect(ws_url(server), headers=AUTH if header else {})
    except aiohttp.WSServerHandshakeError as exc:
        return exc.status
    await ws.close()
    return 101


def test_token_less_sockets_do_not_lock_out_a_client_with_the_token(
    make_bridge: Callable[..., BridgeServer],
) -> None:
    server = make_bridge(ws_max_clients=2, ws_max_waiting=3, ws_auth_timeout_s=60)

    async def run() -> None:
        async with aiohttp.ClientSession() as session:
            idle = [
                await session.ws_connect(ws_url(server)) for _ in range(2)
            ]  # upgraded, never send a token
            async with (
                session.ws_connect(ws_url(server), headers=AUTH) as first,
                session.ws_connect(ws_url(server)) as browser,
            ):
                assert (await first.receive_json(timeout=10))["type"] == "hello"
                assert (
                    await handshake_status(session, server, header=False) == 503
                )  # 3 waiting: allowance full
                await browser.send_json({"token": TOKEN})
                assert (await browser.receive_json(timeout=10))["type"] == "hello"
                # two authenticated sockets: the limit; the three idle ones never counted
                assert await handshake_status(session, server, header=True) == 503
            for ws in idle:
                await ws.close()

    asyncio.run(run())


def test_a_socket_that_authenticates_when_every_place_is_taken_is_closed_with_1013(
    make_bridge: Callable[..., BridgeServer],
) -> None:
    server = make_bridge(ws_max_clients=1, ws_auth_timeout_s=60)

    async def run() -> tuple[int | None, dict[str, Any]]:
        async with (
            aiohttp.ClientSession() as session,
            session.ws_connect(ws_url(server)) as late,
            session.ws_connect(ws_url(server), headers=AUTH) as holder,
        ):
            assert (await holder.receive_json(timeout=10))["type"] == "hello"
            await late.send_json({"token": TOKEN})
            message = await late.receive_json(timeout=10)
            await late.receive(timeout=10)
            return late.close_code, message

    code, message = asyncio.run(run())
    assert code == CLOSE_TRY_AGAIN and message["error"]["code"] == "unavailable"


def test_a_wrong_first_message_token_is_closed_with_4401(bridge: BridgeServer) -> None:
    for first in ('{"token": "wrong"}', "not json", '["token"]', '{"token": 5}'):
        code, _ = asyncio.run(refused(bridge, first))
        assert code == CLOSE_UNAUTHORIZED


def test_a_wrong_header_token_is_refused_before_the_upgrade(bridge: BridgeServer) -> None:
    r = httpx.get(bridge.url + "/v1/events", headers={"Authorization": "Bearer wrong"})
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"


def test_a_foreign_page_cannot_open_the_socket(bridge: BridgeServer) -> None:
    async def attempt() -> int:
        async with aiohttp.ClientSession() as session:
            try:
                async with session.ws_connect(ws_url(bridge), headers={"Origin": "https://evil.example"}):
                    return 101
            except aiohttp.WSServerHandshakeError as exc:
                return exc.status

    assert asyncio.run(attempt()) == 403


def test_plain_http_get_on_events_is_400(bridge: BridgeServer) -> None:
    r = httpx.get(bridge.url + "/v1/events", headers=AUTH)
    assert r.status_code == 400 and "WebSocket" in r.json()["error"]["message"]


def test_stop_closes_open_sockets(make_bridge: Callable[..., BridgeServer]) -> None:
    server = make_bridge()

    async def listen() -> int | None:
        async with (
            aiohttp.ClientSession() as session,
            session.ws_connect(ws_url(server), headers=AUTH, autoclose=False) as ws,
        ):
            await ws.receive_json(timeout=10)
            await asyncio.get_running_loop().run_in_executor(None, server.stop)
            msg = await ws.receive(timeout=10)
            return int(msg.data) if msg.type == aiohttp.WSMsgType.CLOSE else None

    assert asyncio.run(listen()) == 1001


def test_a_typed_event_goes_out_under_its_wire_name(bridge: BridgeServer) -> None:
    from bme_desktop.core.events import ExtractionProgressed, MaintenanceProgressed

    async def run() -> list[dict[str, Any]]:
        async with aiohttp.ClientSession() as session, session.ws_connect(ws_url(bridge), headers=AUTH) as ws:
            await ws.receive_json(timeout=10)
            bridge.service.events.publish(MaintenanceProgressed("c", "compress", 1, 4))
            bridge.service.events.publish(ExtractionProgressed("c", 2, 10, 8, 1.5, 6))
            return [await ws.receive_json(timeout=10) for _ in range(2)]

    assert asyncio.run(run()) == [
        {"type": "maintenance.progress", "chat_id": "c", "task": "compress", "done": 1, "total": 4},
        {
            "type": "extraction.progress",
            "chat_id": "c",
            "extracted": 2,
            "total": 10,
            "due": 8,
            "rate_per_s": 1.5,
            "eta_s": 6,
        },
    ]
