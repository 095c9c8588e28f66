"""SillyTavern lorebooks through a real ``serve`` (issue 18.3): the entries the extension sends
become read-only world memories kept in step with SillyTavern; World Info files go out of
chosen memories and into a scope (bridge and CLI), and bad input writes nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from bme_desktop.core.worldinfo import ST_ENTRY_TEMPLATE

from .helpers import AUTH
from .test_serve_e2e import ROOT, serve_env, start

TOWER = {
    "book": "Eldoria",
    "uid": 3,
    "key": ["Glass Tower"],
    "keysecondary": [],
    "comment": "Glass Tower",
    "content": "The Glass Tower stands on the northern cliffs; its keepers trade in storm-glass.",
    "constant": False,
    "order": 100,
    "position": 0,
    "disable": False,
}
RIVER = {
    "book": "Eldoria",
    "uid": 4,
    "key": ["/riv(er|ers)/i"],
    "content": "The river Sel floods every spring.",
}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[httpx.Client, Path, dict[str, str]]]:
    tmp = tmp_path_factory.mktemp("lore")
    env = serve_env(tmp)
    proc = start(tmp / "data", env, "--port", "0")
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line, proc.stderr.read() if proc.stderr else ""
    try:
        with httpx.Client(base_url=json.loads(line)["url"], headers=AUTH, timeout=600) as client:
            yield client, tmp / "data", env
    finally:
        proc.terminate()
        proc.wait(60)


def new_chat(api: httpx.Client, chat: str, **identity: Any) -> None:
    r = api.post(
        f"/v1/chats/{chat}/sync",
        json={
            "character": "Mira",
            "user": "Alex",
            "messages": [{"index": 0, "role": "user", "text": "Tell me about the Glass Tower."}],
            "complete": True,
            "wait": True,
            **identity,
        },
    )
    assert r.status_code == 200, r.text


def lore(api: httpx.Client, chat: str) -> list[dict[str, Any]]:
    items = api.get(f"/v1/chats/{chat}/nodes", params={"limit": 500}).json()["items"]
    return [n for n in items if n["lorebook"] is not None]


def test_the_lorebook_a_chat_is_given_is_kept_in_step(
    served: tuple[httpx.Client, Path, dict[str, str]],
) -> None:
    api, _, _ = served
    new_chat(api, "lore-1")
    r = api.put("/v1/chats/lore-1/lorebook", json={"entries": [TOWER, RIVER]})
    assert r.status_code == 200, r.text
    assert {k: r.json()[k] for k in ("added", "updated", "removed", "refused", "regex_keys")} == {
        "added": 2,
        "updated": 0,
        "removed": 0,
        "refused": [],
        "regex_keys": 1,
    }
    again = api.put("/v1/chats/lore-1/lorebook", json={"entries": [TOWER, RIVER]}).json()
    assert (again["added"], again["unchanged"]) == (0, 2)  # never a second memory of one entry
    tower = next(n for n in lore(api, "lore-1") if n["title"] == "Glass Tower")
    assert (tower["scope"]["kind"], tower["lorebook"]) == (
        "world",
        {"book": "Eldoria", "uid": "3", "source": "sillytavern", "read_only": True},
    )
    edit = api.patch(f"/v1/chats/lore-1/nodes/{tower['id']}", json={"importance": 9})
    assert edit.status_code == 409 and "World Info editor" in edit.json()["error"]["message"]
    found = api.post("/v1/chats/lore-1/recall", json={"user_input": "What is the Glass Tower?"}).json()
    assert "storm-glass" in found["injection"]
    gone = api.put("/v1/chats/lore-1/lorebook", json={"entries": [{**TOWER, "disable": True}]}).json()
    assert gone["removed"] == 2 and lore(api, "lore-1") == []


def test_an_entry_of_100_kb_is_refused_by_name_and_the_rest_kept(
    served: tuple[httpx.Client, Path, dict[str, str]],
) -> None:
    api, _, _ = served
    new_chat(api, "lore-2")
    huge = {**RIVER, "uid": 9, "content": "x" * 100_000}
    r = api.put("/v1/chats/lore-2/lorebook", json={"entries": [TOWER, huge]})
    assert r.status_code == 200, r.text
    (refused,) = r.json()["refused"]
    assert (refused["uid"], "100,000 characters long" in refused["reason"]) == (9, True)
    assert [n["title"] for n in lore(api, "lore-2")] == ["Glass Tower"]


def test_a_malformed_world_info_import_is_refused_and_writes_nothing(
    served: tuple[httpx.Client, Path, dict[str, str]],
) -> None:
    api, _, _ = served
    new_chat(api, "lore-3", world="Eldoria")
    before = api.get("/v1/chats/lore-3").json()["node_count"]
    bad = {
        "entries": {
            "0": {"key": ["a"], "content": "fine"},
            "1": {"key": ["b"], "content": "x", "position": 42},
        }
    }
    r = api.post("/v1/chats/lore-3/worldinfo/import", json={"file": bad, "book": "Eldoria"})
    assert r.status_code == 400 and "entries['1'].position" in r.json()["error"]["message"]
    assert api.get("/v1/chats/lore-3").json()["node_count"] == before


def test_chosen_memories_go_out_as_world_info_and_come_back_in_a_scope_through_the_cli(
    served: tuple[httpx.Client, Path, dict[str, str]], tmp_path: Path
) -> None:
    api, data_dir, env = served
    new_chat(api, "lore-4", world="Eldoria")
    made = api.post(
        "/v1/chats/lore-4/nodes",
        json={
            "type": "location",
            "fields": {
                "name": "Sunken Library",
                "aliases": "the drowned stacks",
                "state": "Half under the sea, its books dry.",
            },
        },
    )
    assert made.status_code == 201, made.text
    doc = api.post("/v1/chats/lore-4/worldinfo/export", json={"ids": [made.json()["id"]]}).json()
    entry = doc["entries"]["0"]
    assert set(entry) == {"uid", "displayIndex", *ST_ENTRY_TEMPLATE}
    assert (entry["key"], entry["content"], entry["comment"]) == (
        ["Sunken Library", "the drowned stacks"],
        "Half under the sea, its books dry.",
        "Sunken Library",
    )
    path = tmp_path / "Eldoria.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    new_chat(api, "lore-5", world="Eldoria")

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "bme_desktop", "import", str(path), "--data-dir", str(data_dir), *args],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
            timeout=600,
        )

    refused = cli()
    assert refused.returncode == 2 and "--chat" in refused.stderr
    done = cli("--chat", "lore-5", "--scope", "world")  # goes through the running bridge
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["added"] == 1
    (imported,) = lore(api, "lore-5")
    assert (imported["title"], imported["scope"]["kind"], imported["lorebook"]["read_only"]) == (
        "Sunken Library",
        "world",
        False,
    )
