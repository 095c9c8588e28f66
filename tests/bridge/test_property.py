"""Random bodies at every endpoint: never a 5xx, never a crash, nothing stored by a refusal."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bme_desktop.bridge.server import BridgeServer
from bme_desktop.core.service import MemoryService

from .helpers import messages, snapshot

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=5)
    ),
    max_leaves=20,
)

KEYS = [
    "messages",
    "index",
    "role",
    "text",
    "name",
    "swipe_id",
    "time",
    "complete",
    "wait",
    "character",
    "user",
    "user_input",
    "top_k",
    "budget_tokens",
    "injection",
    "type",
    "fields",
    "importance",
    "tier",
    "review_status",
    "pinned",
    "scope",
    "story_time",
    "source_indices",
    "from",
    "to",
    "relation",
    "strength",
    "task",
    "summary",
    "statement",
    "layer",
    "owner",
]
plausible = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-5, max_value=10)
    | st.sampled_from(
        ["user", "assistant", "event", "fact", "related", "upkeep", "pov", "long_term", "", "x\x00"]
    ),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.sampled_from(KEYS), children, max_size=6)
    ),
    max_leaves=25,
)
bodies = st.one_of(
    json_values.map(lambda v: json.dumps(v).encode()),
    st.dictionaries(st.sampled_from(KEYS), plausible, max_size=6).map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=200),
)

ENDPOINTS = [
    ("POST", "/v1/chats/c/sync"),
    ("POST", "/v1/chats/c/recall"),
    ("PUT", "/v1/chats/c/recall/1"),
    ("POST", "/v1/chats/c/recall/prepare"),
    ("POST", "/v1/chats/c/nodes"),
    ("PATCH", "/v1/chats/c/nodes/{node}"),
    ("POST", "/v1/chats/c/edges"),
    ("POST", "/v1/chats/c/maintenance"),
    ("GET", "/v1/chats/c/nodes"),
    ("DELETE", "/v1/chats/c/edges/x"),
    ("GET", "/v1/chats"),
    ("GET", "/v1/health"),
]


@pytest.fixture
def service(shared_bridge: tuple[MemoryService, BridgeServer]) -> MemoryService:
    return shared_bridge[0]


@pytest.fixture
def bridge(shared_bridge: tuple[MemoryService, BridgeServer]) -> BridgeServer:
    return shared_bridge[1]


@pytest.fixture
def seeded(api: httpx.Client) -> tuple[httpx.Client, str]:
    api.post("/v1/chats/c/sync", json={"messages": messages(3)})
    node = api.post("/v1/chats/c/nodes", json={"type": "event", "fields": {"summary": "seed"}}).json()
    api.post("/v1/chats/c/recall", json={"user_input": "seed", "index": 1})
    return api, node["id"]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(endpoint=st.sampled_from(ENDPOINTS), body=bodies)
def test_random_bodies_never_5xx_and_refusals_store_nothing(
    seeded: tuple[httpx.Client, str], service: MemoryService, endpoint: tuple[str, str], body: bytes
) -> None:
    api, node_id = seeded
    method, path = endpoint
    before = snapshot(service)
    r = api.request(
        method, path.format(node=node_id), content=body, headers={"Content-Type": "application/json"}
    )
    assert r.status_code < 500, r.text
    error: Any = r.json().get("error") if r.status_code >= 400 else None
    if r.status_code >= 400:
        assert set(error) == {"code", "message"} and error["message"]
        assert snapshot(service) == before
    assert api.get("/v1/health").status_code == 200
