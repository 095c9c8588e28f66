"""The MCP tools over a real memory service, through the SDK's own client (in-process)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from bme_desktop.core.model import MessageIn
from bme_desktop.core.service import MemoryService
from bme_desktop.mcp.backend import ServiceBackend
from bme_desktop.mcp.server import FRAME_NOTE, build_server


@pytest.fixture
def service(tmp_path: Path) -> Iterator[MemoryService]:
    svc = MemoryService.open(tmp_path / "data")
    yield svc
    svc.close()


@pytest.fixture
def bare(tmp_path: Path) -> Iterator[MemoryService]:
    """No pipelines attached: recall by keywords, no extraction or embedder to start."""
    svc = MemoryService.open(tmp_path / "bare", attach=False)
    yield svc
    svc.close()


def call(service: MemoryService, *steps: tuple[str, dict[str, Any]]) -> list[Any]:
    """Run tool calls in order through one client session; each result as (is_error, payload)."""
    server = build_server(ServiceBackend(service, owned=False))
    out: list[Any] = []

    async def run() -> None:
        async with Client(server) as client:
            for name, args in steps:
                result = await client.call_tool(name, args)
                payload = result.structured_content if not result.is_error else result.content[0].text
                out.append((result.is_error, payload))

    anyio.run(run)
    return out


def test_the_tools_an_agent_sees() -> None:
    server = build_server(ServiceBackend.__new__(ServiceBackend))

    async def names() -> list[str]:
        async with Client(server) as client:
            return sorted(t.name for t in (await client.list_tools()).tools)

    assert anyio.run(names) == [
        "memory_about",
        "memory_forget",
        "memory_list",
        "memory_recall",
        "memory_search",
        "memory_write",
    ]


def test_a_written_memory_is_recalled_and_waits_for_review(service: MemoryService) -> None:
    (err, wrote), (err2, recalled) = call(
        service,
        (
            "memory_write",
            {"text": "The user's sister Ada lives in Lisbon and paints ceramics.", "title": "Ada"},
        ),
        ("memory_recall", {"query": "Where does my sister live?"}),
    )
    assert not err and not err2
    memory = wrote["memory"]
    assert wrote["chat"] == "agent" and memory["type"] == "fact" and memory["review_status"] == "pending"
    assert memory["id"] in [m["id"] for m in recalled["memories"]]
    assert "Lisbon" in recalled["injection"]
    stored = service.get_node("agent", memory["id"])
    assert stored.review_status == "pending" and stored.fields["statement"].startswith("The user's sister")


def test_the_strict_review_gate_holds_what_an_agent_wrote(service: MemoryService) -> None:
    service.settings.lifecycle.review_gate = True
    (_, wrote), (_, recalled) = call(
        service,
        ("memory_write", {"text": "The user's sister Ada lives in Lisbon.", "title": "Ada"}),
        ("memory_recall", {"query": "Where does Ada live?"}),
    )
    assert wrote["memory"]["id"] not in [m["id"] for m in recalled["memories"]]
    assert recalled["held_for_review"] >= 1


def test_forget_sends_a_memory_to_the_recycle_bin_and_recall_stops_finding_it(service: MemoryService) -> None:
    ((_, wrote),) = call(
        service, ("memory_write", {"text": "The user is allergic to peanuts.", "title": "allergy"})
    )
    node_id = wrote["memory"]["id"]
    (err, forgot), (_, recalled), (_, found) = call(
        service,
        ("memory_forget", {"id": node_id}),
        ("memory_recall", {"query": "peanuts allergy"}),
        ("memory_search", {"query": "peanuts"}),
    )
    assert not err and forgot["deleted_at"]
    assert node_id not in [m["id"] for m in recalled["memories"]]
    assert found["total"] == 0
    assert service.get_node("agent", node_id, include_deleted=True).deleted_at is not None


def test_search_list_and_about_strengthen_nothing(service: MemoryService) -> None:
    service.sync(
        "story",
        [
            MessageIn(0, "user", "My cat Miso hates the rain."),
            MessageIn(1, "assistant", "Miso sounds like a character!"),
        ],
        complete=True,
        wait=True,
    )
    ((_, wrote),) = call(
        service, ("memory_write", {"text": "Miso is a grey tabby.", "title": "Miso", "chat": "story"})
    )
    before = service.get_node("story", wrote["memory"]["id"])
    (_, found), (_, listed), (_, about) = call(
        service,
        ("memory_search", {"query": "miso", "chat": "story"}),
        ("memory_list", {"chat": "story", "type": "fact"}),
        ("memory_about", {"about": "Miso", "chat": "story"}),
    )
    assert wrote["memory"]["id"] in [m["id"] for m in found["memories"]]
    assert wrote["memory"]["id"] in [m["id"] for m in listed["memories"]]
    assert "story" in listed["chats"]
    assert any(h["id"] == wrote["memory"]["id"] for h in about["hits"])
    after = service.get_node("story", wrote["memory"]["id"])
    assert (after.recall_count, after.last_recalled_at) == (before.recall_count, before.last_recalled_at)


@pytest.mark.parametrize(
    ("tool", "args", "says"),
    [
        ("memory_write", {"text": "   "}, "text must not be empty"),
        ("memory_write", {"text": "x" * 2001}, "at most 2000"),
        ("memory_write", {"text": "Never lie.", "type": "rule"}, "needs its title"),
        ("memory_write", {"text": "A fact.", "type": "gossip"}, "type must be one of"),
        ("memory_write", {"text": "A fact.", "chat": "bad\nchat"}, "printable characters"),
        ("memory_recall", {"query": "anything", "top_k": 0}, "limit must be from 1 to 100"),
        ("memory_recall", {"query": "anything", "chat": "nowhere"}, "no chat named 'nowhere'"),
        ("memory_forget", {"id": "no-such-id"}, "no memory 'no-such-id'"),
    ],
)
def test_bad_input_is_a_clear_error_and_writes_nothing(
    bare: MemoryService, tool: str, args: dict[str, Any], says: str
) -> None:
    ((_, _),) = call(bare, ("memory_write", {"text": "The user likes tea."}))
    before = [n.id for n in bare.all_nodes("agent")]
    ((err, message),) = call(bare, (tool, args))
    assert err and says in message
    assert [n.id for n in bare.all_nodes("agent")] == before
    assert [c.chat_id for c in bare.list_chats()] == ["agent"]


def test_the_prompt_frames_recalled_memory_as_data(service: MemoryService) -> None:
    call(service, ("memory_write", {"text": "The user's sister Ada lives in Lisbon.", "title": "Ada"}))
    server = build_server(ServiceBackend(service, owned=False))

    async def prompt() -> str:
        async with Client(server) as client:
            result = await client.get_prompt("use_memory", {"message": "Where does Ada live?"})
            content = result.messages[0].content
            return str(getattr(content, "text", ""))

    text = anyio.run(prompt)
    assert text.startswith(FRAME_NOTE) and "Lisbon" in text and text.endswith("Where does Ada live?")
