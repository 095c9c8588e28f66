"""A fact a later message replaced is not injected as current through the bridge, and the
memory says which one replaced it."""

from __future__ import annotations

from pathlib import Path

import httpx

from bme_desktop.bridge.config import BridgeConfig
from bme_desktop.bridge.server import BridgeServer
from bme_desktop.core.service import MemoryService

from .helpers import AUTH, TOKEN

TURNS = [
    ("user", "Tomas", "Where does Kestrel stay?"),
    ("assistant", "Sera", "She keeps a room above the tannery in Thornwick, though she is rarely in it."),
    ("user", "Tomas", "Let's ride out to the marsh."),
    ("assistant", "Sera", "The fog rolls in over the reeds and the horses slow down."),
    ("user", "Tomas", "Any news from town?"),
    (
        "assistant",
        "Sera",
        "Pim says the thief cleared out her room above the tannery. She lives in Saltmere now.",
    ),
]


def test_a_replaced_fact_is_not_injected_as_current(tmp_path: Path) -> None:
    service = MemoryService.open(tmp_path / "data")  # extraction and recall attached
    server = BridgeServer(service, TOKEN, BridgeConfig(port=0))  # any free port: 7317 may be taken
    server.start()
    try:
        with httpx.Client(base_url=server.url, headers=AUTH, timeout=60) as api:
            messages = [
                {"index": i, "role": role, "name": name, "text": text}
                for i, (role, name, text) in enumerate(TURNS)
            ]
            r = api.post("/v1/chats/c/sync", json={"messages": messages, "complete": True, "wait": True})
            assert r.status_code == 200, r.text
            nodes = api.get("/v1/chats/c/nodes?type=fact&limit=100").json()["items"]
            (old,) = [n for n in nodes if n["flags"].get("superseded_by")]
            assert "tannery in Thornwick" in old["text"] and old["flags"]["validity"]["until_index"] == 5
            recall = api.post(
                "/v1/chats/c/recall", json={"user_input": "Where does Kestrel live now?", "top_k": 8}
            ).json()
            assert "Saltmere" in recall["injection"]
            assert old["id"] not in {n["id"] for n in recall["nodes"]}
            stale = [line for line in recall["injection"].splitlines() if "tannery in Thornwick" in line]
            assert all("(no longer true since message 5)" in line for line in stale)
    finally:
        server.stop()
        service.close()
