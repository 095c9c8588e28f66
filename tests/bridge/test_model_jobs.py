"""Model jobs over /v1/events (bridge/model_jobs.py): a socket offers SillyTavern's connection,
the core borrows it from a worker thread, and the job's answer, error, timeout or a dropped
socket reach the caller as text or as an LLMError (never as junk). Real bridge, real socket."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any

import aiohttp
import pytest

from bme_desktop.bridge.server import BridgeServer
from bme_desktop.core.providers.chat_model import SOURCE_SILLYTAVERN
from bme_desktop.core.providers.errors import LLMBadResponse, LLMConnectionError, LLMError, LLMTimeout
from bme_desktop.core.service import MemoryService

from .helpers import AUTH

ASK = [{"role": "system", "content": "Summarise."}, {"role": "user", "content": "Mira opened the gate."}]


def ws_url(server: BridgeServer) -> str:
    return server.url.replace("http", "ws", 1) + "/v1/events"


async def next_of(ws: aiohttp.ClientWebSocketResponse, kind: str) -> dict[str, Any]:
    while True:
        message = await ws.receive_json(timeout=20)
        if message.get("type") == kind:
            return dict(message)


@asynccontextmanager
async def offering(
    server: BridgeServer, **offer: Any
) -> AsyncIterator[tuple[aiohttp.ClientWebSocketResponse, dict[str, Any]]]:
    """An events socket that offered SillyTavern's model; yields it and the bridge's acceptance."""
    async with aiohttp.ClientSession() as session, session.ws_connect(ws_url(server), headers=AUTH) as ws:
        await next_of(ws, "hello")
        await ws.send_json({"type": "model.offer", "enabled": True, "model": "gpt-4o-mini", **offer})
        yield ws, await next_of(ws, "model.offer.accepted")


def borrow_and_ask(service: MemoryService, purpose: str = "summarize") -> Callable[[], Any]:
    def call() -> Any:
        model = service.lenders.borrow(service.settings.llm, purpose)
        assert model is not None and (model.source, model.name) == (SOURCE_SILLYTAVERN, "gpt-4o-mini")
        return model.chat_json(ASK)

    return call


async def in_thread(fn: Callable[[], Any]) -> asyncio.Future[Any]:
    return asyncio.get_running_loop().run_in_executor(None, fn)


def test_a_job_goes_out_on_the_socket_and_its_text_comes_back_as_json(
    bridge: BridgeServer, service: MemoryService
) -> None:
    async def run() -> tuple[Any, dict[str, Any], dict[str, Any]]:
        async with offering(bridge) as (ws, accepted):
            answer = await in_thread(borrow_and_ask(service))
            job = await next_of(ws, "model.job")
            await ws.send_json(
                {"type": "model.result", "job_id": job["job_id"], "text": '{"summary": "the gate"}'}
            )
            return await answer, job, accepted

    value, job, accepted = asyncio.run(run())
    assert value == {"summary": "the gate"}
    assert accepted["in_use"] is True and accepted["max_tokens"] == service.settings.llm.lent_max_tokens
    assert job["purpose"] == "summarize" and job["chat_id"] is None
    assert job["messages"][1] == ASK[1] and "JSON" in job["messages"][0]["content"]
    assert job["timeout_ms"] == int(service.settings.llm.lent_timeout_s * 1000)


def test_broken_json_gets_one_repair_job_then_fails_cleanly(
    bridge: BridgeServer, service: MemoryService
) -> None:
    async def run() -> BaseException | None:
        async with offering(bridge) as (ws, _):
            answer = await in_thread(borrow_and_ask(service))
            for _ in range(2):
                job = await next_of(ws, "model.job")
                await ws.send_json({"type": "model.result", "job_id": job["job_id"], "text": "{not json"})
            try:
                await answer
            except LLMError as exc:
                return exc
            return None

    assert isinstance(asyncio.run(run()), LLMBadResponse)


@pytest.mark.parametrize(
    ("code", "error"), [("busy", LLMTimeout), ("budget", LLMError), ("failed", LLMError)]
)
def test_an_error_from_the_extension_reaches_the_caller(
    bridge: BridgeServer, service: MemoryService, code: str, error: type[LLMError]
) -> None:
    async def run() -> BaseException | None:
        async with offering(bridge) as (ws, _):
            answer = await in_thread(borrow_and_ask(service))
            job = await next_of(ws, "model.job")
            await ws.send_json(
                {"type": "model.error", "job_id": job["job_id"], "code": code, "message": "no"}
            )
            try:
                await answer
            except LLMError as exc:
                return exc
            return None

    caught = asyncio.run(run())
    assert type(caught) is error and code in str(caught)


def test_a_socket_that_drops_mid_job_fails_the_job_and_withdraws_the_offer(
    bridge: BridgeServer, service: MemoryService
) -> None:
    async def run() -> BaseException | None:
        async with offering(bridge) as (ws, _):
            answer = await in_thread(borrow_and_ask(service))
            await next_of(ws, "model.job")
            await ws.close()
            try:
                await answer
            except LLMError as exc:
                return exc
        return None

    assert isinstance(asyncio.run(run()), LLMConnectionError)
    assert service.lenders.borrow(service.settings.llm, "summarize") is None


def test_a_job_with_no_answer_times_out_and_is_cancelled_on_the_socket(
    bridge: BridgeServer, service: MemoryService
) -> None:
    service.settings.llm = replace(
        service.settings.llm, lent_timeout_s=1.0
    )  # below the settings minimum: the test need not wait

    async def run() -> tuple[BaseException | None, dict[str, Any]]:
        async with offering(bridge) as (ws, _):
            answer = await in_thread(borrow_and_ask(service))
            job = await next_of(ws, "model.job")
            cancel = await next_of(ws, "model.cancel")
            assert cancel["job_id"] == job["job_id"]
            await ws.send_json({"type": "model.result", "job_id": job["job_id"], "text": '{"late": true}'})
            try:
                await answer
            except LLMError as exc:
                return exc, cancel
            return None, cancel

    caught, _ = asyncio.run(run())
    assert isinstance(caught, LLMTimeout)


def test_rerank_is_never_lent_and_an_endpoint_in_settings_wins(
    bridge: BridgeServer, service: MemoryService
) -> None:
    async def run() -> tuple[bool, dict[str, Any]]:
        async with offering(bridge) as (_, _accepted):
            rerank = service.lenders.borrow(service.settings.llm, "rerank") is None
        service.settings.llm = replace(
            service.settings.llm, enabled=True, base_url="http://127.0.0.1:9/v1", model="m"
        )
        async with offering(bridge) as (_, accepted):
            return rerank, accepted

    rerank_refused, accepted = asyncio.run(run())
    assert rerank_refused
    assert accepted["in_use"] is False and accepted["reason"] == "endpoint"


def test_a_withdrawn_offer_lends_nothing(bridge: BridgeServer, service: MemoryService) -> None:
    async def run() -> bool:
        async with offering(bridge) as (ws, _):
            await ws.send_json({"type": "model.offer", "enabled": False})
            accepted = await next_of(ws, "model.offer.accepted")
            assert accepted["in_use"] is False and accepted["reason"] == "withdrawn"
            return service.lenders.borrow(service.settings.llm, "extract") is None

    assert asyncio.run(run())


def test_answers_for_unknown_jobs_and_junk_messages_are_ignored(
    bridge: BridgeServer, service: MemoryService
) -> None:
    async def run() -> Any:
        async with offering(bridge) as (ws, _):
            await ws.send_json({"type": "model.result", "job_id": "nobody-asked", "text": "{}"})
            await ws.send_str("not json at all")
            await ws.send_str(json.dumps(["model.result"]))
            answer = await in_thread(borrow_and_ask(service))
            job = await next_of(ws, "model.job")
            await ws.send_json({"type": "model.result", "job_id": job["job_id"], "text": '{"ok": 1}'})
            return await answer

    assert asyncio.run(run()) == {"ok": 1}
