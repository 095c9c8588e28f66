"""`bme-desktop mcp` as a real subprocess: stdio on its own memory, stdio through the running
app's bridge, and streamable HTTP behind the bridge token and Origin rules."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from bme_desktop.bridge.client import BridgeClient

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "mcp-test-token-0123456789abcdefghijklmnop"


def child_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BME_")}
    env.update(
        {
            "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
            "HOME": str(tmp_path / "home"),
            "XDG_DATA_HOME": str(tmp_path / "xdg"),
            "PYTHONPATH": str(ROOT),
            "BME_BRIDGE_TOKEN": TOKEN,
        }
    )
    return env


def launch(
    tmp_path: Path, data_dir: Path, command: str, *args: str
) -> tuple[subprocess.Popen[str], dict[str, Any]]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "bme_desktop", command, "--data-dir", str(data_dir), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=child_env(tmp_path),
        cwd=ROOT,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line:
        proc.wait(30)
        raise AssertionError(proc.stderr.read() if proc.stderr else "no output")
    return proc, json.loads(line)


@pytest.fixture
def procs() -> Iterator[list[subprocess.Popen[str]]]:
    started: list[subprocess.Popen[str]] = []
    yield started
    for proc in started:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def stdio_session(tmp_path: Path, data_dir: Path) -> tuple[list[str], dict[str, Any], dict[str, Any]]:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "bme_desktop", "mcp", "--data-dir", str(data_dir)],
        env=child_env(tmp_path),
        cwd=str(ROOT),
    )
    out: dict[str, Any] = {}

    async def run() -> None:
        async with Client(params, read_timeout_seconds=120) as client:
            out["tools"] = sorted(t.name for t in (await client.list_tools()).tools)
            wrote = await client.call_tool(
                "memory_write", {"text": "The user's dog Biscuit is afraid of thunder.", "title": "Biscuit"}
            )
            out["wrote"] = wrote.structured_content
            recalled = await client.call_tool("memory_recall", {"query": "What is Biscuit afraid of?"})
            out["recalled"] = recalled.structured_content

    anyio.run(run)
    return out["tools"], out["wrote"], out["recalled"]


def test_stdio_opens_the_memory_itself_when_no_app_runs(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    tools, wrote, recalled = stdio_session(tmp_path, data_dir)
    assert "memory_recall" in tools and "memory_write" in tools
    assert wrote["memory"]["id"] in [m["id"] for m in recalled["memories"]]
    assert "thunder" in recalled["injection"]
    assert (data_dir / "memory.db").exists()


def test_stdio_goes_through_the_running_apps_bridge(
    tmp_path: Path, procs: list[subprocess.Popen[str]]
) -> None:
    data_dir = tmp_path / "data"
    serve, ready = launch(tmp_path, data_dir, "serve", "--port", "0")
    procs.append(serve)
    _, wrote, recalled = stdio_session(tmp_path, data_dir)
    node_id = wrote["memory"]["id"]
    assert node_id in [m["id"] for m in recalled["memories"]]
    with BridgeClient(ready["url"], TOKEN) as bridge:
        stored = bridge.get_node("agent", node_id)
        assert stored["review_status"] == "pending"
        # the serve's own recall finds the agent's memory: the write went through its service
        assert node_id in [n["id"] for n in bridge.recall("agent", "Biscuit thunder")["nodes"]]


def test_streamable_http_needs_the_token_and_a_local_origin(
    tmp_path: Path, procs: list[subprocess.Popen[str]]
) -> None:
    proc, ready = launch(tmp_path, tmp_path / "data", "mcp", "--http", "--port", "0")
    procs.append(proc)
    url = ready["url"]
    assert url.startswith("http://127.0.0.1:") and url.endswith("/mcp") and ready["backend"] == "in-process"
    hello = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    accept = {"Accept": "application/json, text/event-stream"}
    assert httpx.post(url, json=hello, headers=accept).status_code == 401
    assert httpx.post(url, json=hello, headers={**accept, "Authorization": "Bearer wrong"}).status_code == 401
    foreign = httpx.post(
        url,
        json=hello,
        headers={**accept, "Authorization": f"Bearer {TOKEN}", "Origin": "https://evil.example"},
    )
    assert foreign.status_code == 403
    rebound = httpx.post(
        url, json=hello, headers={**accept, "Authorization": f"Bearer {TOKEN}", "Host": "evil.example"}
    )
    assert rebound.status_code == 403
    out: dict[str, Any] = {}

    async def run() -> None:
        async with (
            httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=120) as http,
            Client(streamable_http_client(url, http_client=http)) as client,
        ):
            wrote = await client.call_tool("memory_write", {"text": "The user's favourite tea is genmaicha."})
            out["wrote"] = wrote.structured_content
            found = await client.call_tool("memory_search", {"query": "genmaicha"})
            out["found"] = found.structured_content

    anyio.run(run)
    assert out["found"]["total"] == 1
    assert out["found"]["memories"][0]["id"] == out["wrote"]["memory"]["id"]


def test_a_bad_port_is_a_clear_error(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bme_desktop",
            "mcp",
            "--data-dir",
            str(tmp_path / "d"),
            "--http",
            "--port",
            "70000",
        ],
        capture_output=True,
        text=True,
        env=child_env(tmp_path),
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 2 and "--port must be from 0 to 65535" in done.stderr
    assert not (tmp_path / "d" / "memory.db").exists()
