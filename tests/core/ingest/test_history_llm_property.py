"""History safety with the model-backed extractor, as a property: against a fake LLM whose
answer depends only on the chat messages quoted in the request, any sequence of appends,
edits, deletions and swipes, synced in any grouping, leaves the graph equal to a
from-scratch LLM extraction of the final chat in a fresh data folder."""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from bme_desktop.core.model import MessageIn
from bme_desktop.core.service import MemoryService
from bme_desktop.core.settings import Settings
from tests.core.extract.extract_helpers import canonical_graph, open_service
from tests.core.ingest.test_history_extraction_property import actions, apply
from tests.fakes.openai_server import FakeOpenAIServer

_EXCERPT = re.compile(r'\[\s*\{\s*"index":')
_NAME = re.compile(r"\b[A-Z][a-z]{2,}\b")
_NOT_NAMES = frozenset({"You", "They", "Nothing", "The"})


def quoted_messages(request: dict[str, Any]) -> list[dict[str, Any]]:
    """The chat excerpt the extractor quoted as JSON data in its last user message."""
    content = next(m["content"] for m in reversed(request["messages"]) if m["role"] == "user")
    start = list(_EXCERPT.finditer(content))[-1].start()
    messages, _ = json.JSONDecoder().raw_decode(content, start)
    assert isinstance(messages, list)
    return messages


def scripted_operations(request: dict[str, Any]) -> str:
    """Operations derived only from the batch's own messages: an event per assistant reply,
    a character per capitalised name, a fact per first-person preference, with links."""
    ops: list[dict[str, Any]] = []
    characters: dict[str, str] = {}
    for m in quoted_messages(request):
        if m["context_only"]:
            continue
        names = [n for n in _NAME.findall(m["text"]) if n not in _NOT_NAMES]
        if m["name"]:
            names.insert(0, m["name"])
        for name in names:
            if name not in characters:
                characters[name] = f"c{len(characters) + 1}"
                ops.append(
                    {
                        "action": "create",
                        "type": "character",
                        "ref": characters[name],
                        "fields": {"name": name},
                        "source": [m["index"]],
                    }
                )
        if m["role"] == "assistant":
            ops.append(
                {
                    "action": "create",
                    "type": "event",
                    "ref": f"e{m['index']}",
                    "fields": {"summary": m["text"]},
                    "importance": 5,
                    "source": [m["index"]],
                    "links": [{"to": characters[n], "relation": "involved_in"} for n in dict.fromkeys(names)],
                }
            )
        elif "green tea" in m["text"]:
            statement = m["text"].split("green tea")[0] + "green tea"
            ops.append(
                {
                    "action": "create",
                    "type": "fact",
                    "ref": f"f{m['index']}",
                    "fields": {"statement": statement, "subject": "Tom"},
                    "source": [m["index"]],
                }
            )
    return json.dumps({"operations": ops})


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer(responder=scripted_operations) as fake:
        yield fake


def llm_settings(server: FakeOpenAIServer) -> Settings:
    settings = Settings()
    settings.llm.enabled = True
    settings.llm.base_url = server.base_url
    settings.llm.model = "fake-extractor"
    settings.llm.timeout_s = 5.0
    settings.llm.max_retries = 0
    return settings


def sync(svc: MemoryService, history: list[MessageIn]) -> None:
    svc.sync("c", history, complete=True, wait=True, character="Alice", user="Tom")


def extractors(svc: MemoryService) -> set[str]:
    return {b.actor for b in svc.read(lambda r: r.batches("c", kind="extract"))}


@settings(
    max_examples=15,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(actions)
def test_incremental_llm_extraction_equals_a_rebuild_from_scratch(
    server: FakeOpenAIServer, steps: list[tuple[str, object, object]]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        history: list[MessageIn] = []
        with open_service(Path(tmp, "live"), llm_settings(server)) as live:
            for step in steps:
                if step[0] == "sync":
                    sync(live, history)
                else:
                    history = apply(history, step)
            sync(live, history)
            got = canonical_graph(live, "c")
            assert extractors(live) <= {"llm"}, "the scripted model's answer was not used"
        with open_service(Path(tmp, "fresh"), llm_settings(server)) as fresh:
            sync(fresh, history)
            want = canonical_graph(fresh, "c")
            assert extractors(fresh) <= {"llm"}
        assert got == want
