"""`python -m bme_desktop serve` as a real subprocess, driven over a real socket."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import httpx
import pytest

from bme_desktop.bridge.client import BridgeClient, BridgeError

from .helpers import TOKEN, messages

ROOT = Path(__file__).resolve().parents[2]


def serve_env(tmp_path: Path, token: str | None = TOKEN) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BME_")}
    env.update(
        {
            "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
            "HOME": str(tmp_path / "home"),
            "XDG_DATA_HOME": str(tmp_path / "xdg"),
            "PYTHONPATH": str(ROOT),
        }
    )
    if token:
        env["BME_BRIDGE_TOKEN"] = token
    return env


def start(data_dir: Path, env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "bme_desktop", "serve", "--data-dir", str(data_dir), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], dict[str, Any], Path]]:
    data_dir = tmp_path / "data"
    proc = start(data_dir, serve_env(tmp_path), "--port", "0")
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line, proc.stderr.read() if proc.stderr else ""
    ready = json.loads(line)
    yield proc, ready, data_dir
    if proc.poll() is None:
        proc.kill()
        proc.wait()


def test_serve_runs_every_endpoint_and_shuts_down_on_sigterm(
    served: tuple[subprocess.Popen[str], dict[str, Any], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    proc, ready, data_dir = served
    assert ready["event"] == "ready" and ready["url"].startswith("http://127.0.0.1:")
    assert ready["data_dir"] == str(data_dir)
    info = json.loads((data_dir / "bridge.json").read_text())
    assert info == {"url": ready["url"], "pid": proc.pid, "protocol": 1}
    if os.name == "posix":  # created private whatever the umask
        assert {p.name: oct(p.stat().st_mode & 0o777) for p in (data_dir, data_dir / "memory.db")} == {
            "data": "0o700",
            "memory.db": "0o600",
        }

    monkeypatch.setenv("BME_BRIDGE_TOKEN", TOKEN)  # as a user's script would find it
    client = BridgeClient.from_data_dir(data_dir)
    chat = "seraphina/森林 #1"
    events = asyncio.run(_events_of_a_sync(client, chat))
    assert [e["type"] for e in events][:1] == ["chat.synced"]
    assert events[0]["chat_id"] == chat

    assert client.health()["protocol"] == 1
    assert client.sync(chat, messages(6), complete=True, wait=True)["changed_from"] is None
    node = client.create_node(
        chat, "event", {"summary": "Seraphina healed Alex in the forest"}, source_indices=[1, 2]
    )
    other = client.create_node(chat, "location", {"name": "the forest"})
    assert client.get_node(chat, node["id"])["source_indices"] == [1, 2]
    assert client.patch_node(chat, node["id"], {"pinned": True})["pinned"] is True
    assert node["id"] in [n["id"] for n in client.nodes(chat, q="forest", type="event")["items"]]
    edge = client.create_edge(chat, node["id"], other["id"], "occurred_at")
    assert edge["id"] in [e["id"] for e in client.edges(chat, node=node["id"])["items"]]
    recalled = client.recall(chat, "what happened in the forest?", index=6, top_k=4, budget_tokens=800)
    assert {"injection", "token_estimate", "elapsed_ms", "nodes"} <= set(recalled)
    assert client.get_recall(chat, 6)["manually_edited"] is False
    assert client.put_recall(chat, 6, "edited")["manually_edited"] is True
    assert client.delete_recall(chat, 6)["deleted"] is True
    with pytest.raises(BridgeError) as kept:
        client.get_recall(chat, 6)
    assert kept.value.status == 404 and kept.value.code == "not_found"
    try:  # the running version may or may not have each task yet
        assert set(client.maintenance(chat, "upkeep")) >= {"task", "changes", "elapsed_ms"}
    except BridgeError as exc:
        assert exc.status == 409 and exc.code == "conflict" and "upkeep" in exc.message
    assert client.delete_edge(chat, edge["id"])["deleted"] is True
    assert client.delete_node(chat, node["id"])["recoverable"] is True
    assert client.restore_node(chat, node["id"])["id"] == node["id"]
    stats = client.chat(chat)
    assert stats["message_count"] == 6 and stats["node_count"] >= 2  # plus whatever extraction found
    assert [c["chat_id"] for c in client.list_chats()] == [chat]

    base = ready["url"]
    assert httpx.get(base + "/v1/chats").status_code == 401
    assert httpx.get(base + "/v1/chats", headers={"Authorization": "Bearer nope"}).status_code == 401
    foreign = httpx.get(
        base + "/v1/chats", headers={"Authorization": f"Bearer {TOKEN}", "Origin": "https://evil.example"}
    )
    assert foreign.status_code == 403 and foreign.json()["error"]["code"] == "forbidden"
    assert client.delete_chat(chat)["deleted"] is True
    client.close()

    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=60) == 0
    assert not (data_dir / "bridge.json").exists()


async def _events_of_a_sync(client: BridgeClient, chat: str) -> list[dict[str, Any]]:
    url = client.url.replace("http", "ws", 1) + "/v1/events"
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
        await ws.send_json({"token": client.token})
        assert (await ws.receive_json(timeout=30))["type"] == "hello"
        await asyncio.get_running_loop().run_in_executor(None, lambda: client.sync(chat, messages(2)))
        return [await ws.receive_json(timeout=30)]


def test_sigint_also_shuts_down_cleanly(served: tuple[subprocess.Popen[str], dict[str, Any], Path]) -> None:
    proc, _, data_dir = served
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=60) == 0
    assert not (data_dir / "bridge.json").exists()


def test_a_port_in_use_is_one_clear_line_and_a_nonzero_exit(
    served: tuple[subprocess.Popen[str], dict[str, Any], Path], tmp_path: Path
) -> None:
    _, ready, _ = served
    port = ready["url"].rsplit(":", 1)[1]
    second = start(tmp_path / "other", serve_env(tmp_path), "--port", port)
    out, err = second.communicate(timeout=60)
    assert second.returncode != 0 and out == ""
    assert len(err.strip().splitlines()) == 1 and port in err


def test_a_data_dir_that_is_a_file_is_refused(tmp_path: Path) -> None:
    not_a_dir = tmp_path / "file"
    not_a_dir.write_text("x")
    proc = start(not_a_dir, serve_env(tmp_path), "--port", "0")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode != 0 and out == "" and "bme-desktop" in err


@pytest.mark.parametrize(
    ("name", "content", "words"),
    [
        ("settings.json", b'{"llm": ' + b"[" * 5000 + b"]" * 5000 + b"}", "nested too deeply"),
        ("memory.db", b"", "probably truncated"),
    ],
)
def test_a_broken_settings_file_or_empty_database_is_one_line_and_exit_2(
    tmp_path: Path, name: str, content: bytes, words: str
) -> None:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    (data_dir / name).write_bytes(content)
    proc = start(data_dir, serve_env(tmp_path), "--port", "0")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and words in err, err
    assert (data_dir / name).read_bytes() == content


def test_a_remote_host_needs_allow_remote(tmp_path: Path) -> None:
    proc = start(tmp_path / "d", serve_env(tmp_path), "--port", "0", "--host", "0.0.0.0")
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode != 0 and "--allow-remote" in err


def test_without_the_env_var_a_token_file_is_created_and_the_client_finds_it(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    proc = start(data_dir, serve_env(tmp_path, token=None), "--port", "0")
    try:
        assert proc.stdout is not None
        json.loads(proc.stdout.readline())
        assert (data_dir / "bridge-token").exists()
        with BridgeClient.from_data_dir(data_dir) as client:
            assert client.list_chats() == []
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0


def test_the_server_itself_refuses_a_remote_host_without_allow_remote(service: Any) -> None:
    from bme_desktop.bridge.config import BridgeConfig
    from bme_desktop.bridge.server import BridgeError as StartError
    from bme_desktop.bridge.server import BridgeServer

    with pytest.raises(StartError, match="allow_remote"):
        BridgeServer(service, TOKEN, BridgeConfig(host="0.0.0.0", port=0)).start()


def test_a_real_serve_previews_retention_in_the_patrol_and_its_upkeep_retires_that(tmp_path: Path) -> None:
    from bme_desktop.core import editing
    from bme_desktop.core.service import MemoryService
    from bme_desktop.core.settings import Settings, save_settings

    data_dir = tmp_path / "data"
    service = MemoryService.open(data_dir, attach=False)
    settings = Settings()
    settings.lifecycle.retention_max_count = {"event": 1}
    settings.lifecycle.upkeep_interval_minutes = 0  # only the upkeep asked for below
    save_settings(data_dir, settings)
    for i in range(3):  # events as extraction writes them (what is written by hand is never retired)
        service.write(
            lambda uow, i=i: editing.create_node(
                uow,
                "c",
                editing.NodeDraft(type="event", fields={"summary": f"The tide rose {i} times"}),
                manual=False,
            )
        )
    service.close()
    proc = start(data_dir, serve_env(tmp_path), "--port", "0")
    try:
        assert proc.stdout is not None
        url = json.loads(proc.stdout.readline())["url"]
        with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60) as api:
            patrol = api.get("/v1/chats/c/patrol").json()
            assert patrol["retention"]["total"] == 2 and len(patrol["retiring"]) == 2
            out = api.post("/v1/chats/c/maintenance", json={"task": "upkeep", "wait": True}).json()
            assert out["retention"]["by_rule"] == {"max_count": 2} and out["changes"]["nodes_removed"] == 2
            assert api.get("/v1/chats/c/patrol").json()["retention"]["total"] == 0
    finally:
        proc.terminate()
        proc.wait(timeout=60)
