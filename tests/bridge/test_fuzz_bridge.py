"""The bridge fuzzer (bench/fuzz_bridge.py) in a fixed-seed run against a real ``serve``, and
regression tests for what it found: bad input gets a clear 4xx and changes nothing."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import httpx
import pytest

from bench.fuzz_bridge import Options, routes_of, run
from bme_desktop.bridge.app import build_app
from bme_desktop.bridge.config import BridgeConfig
from bme_desktop.bridge.server import BridgeServer
from bme_desktop.core.service import MemoryService

from .helpers import AUTH, messages, raw_request, snapshot

SEED = 15
COUNT = 2000


def registered_routes() -> set[str]:
    """Every ``METHOD path`` the bridge app registers, in the fuzzer's spelling of the path."""
    app = build_app(cast(Any, SimpleNamespace(config=BridgeConfig())))
    names = {"chat_id": "c", "node_id": "id", "edge_id": "id", "index": "index"}
    out = set()
    for route in app.router.routes():
        if route.method == "HEAD":
            continue
        path = re.sub(r"\{(\w+)\}", lambda m: "{" + names[m.group(1)] + "}", route.resource.canonical)
        out.add(f"{route.method} {path}")
    return out


def test_the_fuzzer_knows_every_route_of_the_bridge() -> None:
    assert registered_routes() == routes_of()


def test_a_fixed_seed_fuzz_run_finds_no_5xx_no_hang_and_no_change_by_a_rejected_request(
    tmp_path: Path,
) -> None:
    report = run(Options(count=COUNT, seed=SEED), work=tmp_path)
    table = report.table()
    print(table)
    assert report.requests == COUNT, table
    assert report.server_errors == [], table
    assert report.hangs == [], table
    assert report.dropped == [], table
    assert report.state_changes == [], table
    assert report.read_changes == [], table
    assert report.not_strict_json == [], table
    assert report.server_exit == 0, table
    assert report.server_tracebacks == 0, table  # no handler, parser or background failure was logged
    assert {route for route, _ in report.by_route} == routes_of(), table
    assert report.rejected > COUNT // 3, table  # most probes are refused ...
    assert report.statuses[200] + report.statuses[201] > COUNT // 5, (
        table
    )  # ... and valid requests grew the state
    assert min(report.final.get(k, 0) for k in ("chats", "messages", "nodes", "edges")) > 0, table


# ---- regressions found by the fuzzer


@pytest.fixture
def seeded(api: httpx.Client) -> httpx.Client:
    assert api.post("/v1/chats/c/sync", json={"messages": messages(4)}).status_code == 200
    return api


def _raw(api: httpx.Client, method: str, path: str, body: str) -> httpx.Response:
    return api.request(method, path, content=body.encode(), headers={"Content-Type": "application/json"})


HUGE = "9" * 400  # a JSON integer too large for a float: float() and math.isfinite() raise OverflowError


@pytest.mark.parametrize("number", [HUGE, "-" + HUGE, str(2**1024)])
def test_an_integer_too_large_for_a_float_is_a_400_naming_the_field(
    seeded: httpx.Client, service: MemoryService, number: str
) -> None:
    """Was a 500 (OverflowError in Fields.number) for importance and strength."""
    nodes = [
        seeded.post("/v1/chats/c/nodes", json={"type": "event", "fields": {"summary": s}}).json()["id"]
        for s in ("the silver key", "the forest")
    ]
    before = snapshot(service)
    for method, path, body, field in [
        (
            "POST",
            "/v1/chats/c/nodes",
            f'{{"type": "event", "fields": {{"summary": "x"}}, "importance": {number}}}',
            "importance",
        ),
        ("PATCH", f"/v1/chats/c/nodes/{nodes[0]}", f'{{"importance": {number}}}', "importance"),
        (
            "POST",
            "/v1/chats/c/edges",
            f'{{"from": "{nodes[0]}", "to": "{nodes[1]}", "relation": "related", "strength": {number}}}',
            "strength",
        ),
    ]:
        r = _raw(seeded, method, path, body)
        assert r.status_code == 400, (method, path, r.text)
        error = r.json()["error"]
        assert error["code"] == "bad_request" and error["message"].startswith(f"{field}: must be from"), error
        assert len(error["message"]) < 120, error  # the number is shortened, not echoed whole
    assert snapshot(service) == before


@pytest.mark.parametrize("number", ["1e400", "-1e400", "1.5e309"])
def test_a_number_that_overflows_to_infinity_is_refused_as_json(
    seeded: httpx.Client, service: MemoryService, number: str
) -> None:
    """1e400 parsed as inf: in a free-form object (story_time) it was stored and came back as
    ``Infinity``, which JSON.parse refuses, in every later answer carrying that memory."""
    before = snapshot(service)
    for method, path, body in [
        (
            "POST",
            "/v1/chats/c/nodes",
            f'{{"type": "event", "fields": {{"summary": "x"}}, "story_time": {{"day": {number}}}}}',
        ),
        ("POST", "/v1/chats/c/recall", f'{{"user_input": "key", "top_k": {number}}}'),
        ("POST", "/v1/chats/c/sync", f'{{"messages": [{{"index": {number}, "role": "user", "text": "a"}}]}}'),
    ]:
        r = _raw(seeded, method, path, body)
        assert r.status_code == 400, (method, path, r.text)
        assert r.json()["error"]["message"].startswith("body: is not valid JSON (the number"), r.text
    assert snapshot(service) == before
    ok = _raw(
        seeded,
        "POST",
        "/v1/chats/c/nodes",
        '{"type": "event", "fields": {"summary": "x"}, "importance": 7.5e0, "story_time": {"day": 1e2}}',
    )
    assert (
        ok.status_code == 201 and ok.json()["importance"] == 7.5 and ok.json()["story_time"] == {"day": 100.0}
    )


UNPARSABLE = [
    b"GET /v1/chats/\xff HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    b"POST /v1/chats/c/sync HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 12abc\r\n\r\n{}",
    b"GET /v1/chats HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: " + b"v" * 17_000 + b"\r\n\r\n",
    b"GET /v1/chats HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n",
    b"POST /v1/chats/c/sync HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 5"
    b"\r\n\r\n0\r\n\r\n",
]


def test_a_request_http_cannot_parse_is_one_log_line_without_a_traceback(
    bridge: BridgeServer, api: httpx.Client, caplog: pytest.LogCaptureFixture
) -> None:
    """Each was 'Error handling request' at ERROR with a 15-line traceback from aiohttp."""
    caplog.set_level(logging.DEBUG)
    for data in UNPARSABLE:
        answer = raw_request(bridge.port, data)
        assert re.match(rb"HTTP/1\.[01] 400 ", answer), answer[:200]
    assert api.get("/v1/chats", headers=AUTH).status_code == 200
    said = [
        r
        for r in caplog.records
        if r.name.startswith(("aiohttp", "bme_desktop")) and r.levelno >= logging.INFO
    ]
    assert [r.levelno for r in said] == [logging.INFO] * len(UNPARSABLE), [r.getMessage() for r in said]
    assert all(r.exc_info is None for r in said)
    for record in said:
        assert re.fullmatch(
            r"refused a request from 127\.0\.0\.1 that HTTP cannot parse \(400 \w+: [^\n]+\)",
            record.getMessage(),
        ), record.getMessage()
