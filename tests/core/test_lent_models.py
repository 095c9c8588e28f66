"""Models lent to the memory (providers/chat_model.py): which one answers, the budget, and what
the batch says — with a lender faked in Python (the bridge's real lenders are tested in
tests/bridge)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bme_desktop.core.lifecycle.llm_step import ask_model
from bme_desktop.core.providers.chat_model import (
    SOURCE_PROXY,
    SOURCE_SILLYTAVERN,
    ChatModel,
    ModelLenders,
    TextModel,
    model_label,
)
from bme_desktop.core.providers.errors import LLMError, LLMTimeout
from bme_desktop.core.providers.records import ChatMessage
from bme_desktop.core.service import MemoryService
from bme_desktop.core.settings import LLMSettings, Settings
from tests.core.extract.extract_helpers import chat, open_service, record_events
from tests.fakes.openai_server import FakeOpenAIServer, Reply

TURNS = chat(("user", "Where is Marcus?"), ("assistant", "Marcus waits at the Silver Tavern."))
GOOD = json.dumps(
    {
        "operations": [
            {
                "action": "create",
                "type": "location",
                "ref": "n1",
                "fields": {"name": "Silver Tavern"},
                "source": [1],
            }
        ]
    }
)


@dataclass
class FakeLender:
    source: str
    replies: list[str | Exception]
    name: str = "st-model"
    refused: frozenset[str] = frozenset()
    calls: list[tuple[str, list[ChatMessage]]] = field(default_factory=list)

    def lend(self, purpose: str, timeout_s: float | None = None) -> ChatModel | None:
        if purpose in self.refused:
            return None

        def complete(messages: list[ChatMessage], cancel: threading.Event | None) -> str:
            self.calls.append((purpose, messages))
            reply = self.replies.pop(0)
            if isinstance(reply, Exception):
                raise reply
            return reply

        return TextModel(self.source, self.name, complete)


def extract_batches(svc: MemoryService) -> list[tuple[str, str]]:
    return [(b.actor, b.description or "") for b in svc.read(lambda r: r.batches("c", kind="extract"))]


@pytest.fixture
def lent(tmp_path: Path) -> Iterator[tuple[MemoryService, FakeLender]]:
    with open_service(tmp_path, Settings()) as svc:
        lender = FakeLender(SOURCE_SILLYTAVERN, [])
        svc.lenders.add(lender)
        yield svc, lender


def test_without_an_endpoint_sillytavern_extracts_and_the_batch_names_it(
    lent: tuple[MemoryService, FakeLender],
) -> None:
    svc, lender = lent
    lender.replies.append(GOOD)
    svc.sync("c", TURNS, complete=True, wait=True)
    assert [n.fields.get("name") for n in svc.all_nodes("c")] == ["Silver Tavern"]
    ((actor, description),) = extract_batches(svc)
    assert actor == "llm" and description.endswith("by SillyTavern's model (st-model)")
    state = svc.read(lambda r: r.chat_row("c"))["state"]  # type: ignore[index]
    assert state["last_model"] == "SillyTavern's model (st-model)"
    assert lender.calls[0][0] == "extract"


@pytest.mark.parametrize(
    "replies",
    [
        ["this is not JSON", "{still not"],  # broken JSON, and the one repair request fails too
        [LLMTimeout("SillyTavern did not answer within 120 s")],  # timed out mid-job
    ],
)
def test_a_failing_lent_model_falls_back_to_the_rules_and_the_batch_says_why(
    lent: tuple[MemoryService, FakeLender], replies: list[str | Exception]
) -> None:
    svc, lender = lent
    lender.replies.extend(replies)
    events = record_events(svc)
    svc.sync("c", TURNS, complete=True, wait=True)
    ((actor, description),) = extract_batches(svc)
    assert actor == "heuristic" and "fallback: SillyTavern's model (st-model) failed" in description
    assert not lender.replies  # the broken reply was asked to be repaired exactly once
    assert any(e.type == "error" and e.data.get("fallback") == "heuristic" for e in events)
    assert all(n.fields.get("name") != "this is not JSON" for n in svc.all_nodes("c"))


def test_a_dedicated_endpoint_wins_over_a_lent_model(tmp_path: Path) -> None:
    with FakeOpenAIServer() as server:
        settings = Settings()
        settings.llm = LLMSettings(enabled=True, base_url=server.base_url, model="fake-chat", max_retries=0)
        server.enqueue(Reply.text(GOOD))
        with open_service(tmp_path, settings) as svc:
            lender = FakeLender(SOURCE_SILLYTAVERN, [GOOD])
            svc.lenders.add(lender)
            svc.sync("c", TURNS, complete=True, wait=True)
            assert extract_batches(svc)[0][1].endswith("by fake-chat")
            assert not lender.calls and len(server.requests_to("/chat/completions")) == 1


def test_lent_models_answer_only_where_the_settings_allow_and_sillytavern_comes_first() -> None:
    lenders = ModelLenders()
    proxy, tavern = FakeLender(SOURCE_PROXY, [], name="gpt-x"), FakeLender(SOURCE_SILLYTAVERN, [])
    lenders.add(proxy)
    settings = LLMSettings()  # defaults: SillyTavern yes, the proxy's upstream no
    assert lenders.borrow(settings, "summarize") is None
    lenders.add(tavern)
    chosen = lenders.borrow(settings, "summarize")
    assert chosen is not None and chosen.source == SOURCE_SILLYTAVERN
    both = LLMSettings(use_proxy_upstream=True)
    tavern.refused = frozenset({"rerank"})
    chosen = lenders.borrow(both, "rerank")
    assert chosen is not None and (chosen.source, chosen.name) == (SOURCE_PROXY, "gpt-x")
    assert lenders.borrow(LLMSettings(use_sillytavern=False), "summarize") is None


def test_jobs_over_the_per_minute_budget_fail_at_once_without_being_sent() -> None:
    now = [1000.0]
    lenders = ModelLenders(clock=lambda: now[0])
    settings = LLMSettings(lent_jobs_per_minute=2)
    lender = FakeLender(SOURCE_SILLYTAVERN, ['{"a": 1}', '{"a": 2}', '{"a": 3}'])
    lenders.add(lender)
    for _ in range(2):
        model = lenders.borrow(settings, "extract")
        assert model is not None
        model.chat_json([{"role": "user", "content": "x"}])
    over = lenders.borrow(settings, "extract")
    assert over is not None
    with pytest.raises(LLMError, match="budget of 2 borrowed-model jobs a minute"):
        over.chat_json([{"role": "user", "content": "x"}])
    assert len(lender.calls) == 2  # nothing was sent over the budget
    now[0] += 60.0
    model = lenders.borrow(settings, "extract")
    assert model is not None and model.chat_json([{"role": "user", "content": "x"}]) == {"a": 3}


def test_a_life_cycle_step_on_a_lent_model_says_which_model_wrote_it(
    lent: tuple[MemoryService, FakeLender],
) -> None:
    svc, lender = lent
    lender.replies.append('{"ok": true}')
    asked = ask_model(
        svc,
        "c",
        "summarize",
        "summarize",
        {"items": []},
        "{}",
        lambda reply: reply if isinstance(reply, dict) else None,
    )
    assert asked.value == {"ok": True} and asked.label == "llm: SillyTavern's model (st-model)"
    lender.replies.append(LLMTimeout("no answer"))
    asked = ask_model(svc, "c", "summarize", "summarize", {"items": []}, "{}", lambda reply: reply)
    assert asked.value is None and asked.label.startswith(
        "rules (model failed: SillyTavern's model (st-model): "
    )


def test_model_labels_name_the_source() -> None:
    assert model_label(SOURCE_SILLYTAVERN, "") == "SillyTavern's model"
    assert model_label(SOURCE_PROXY, "gpt-4o") == "proxy upstream (gpt-4o)"
    assert model_label("endpoint", "qwen2.5:7b") == "qwen2.5:7b"
