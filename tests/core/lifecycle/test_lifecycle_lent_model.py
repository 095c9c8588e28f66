"""The hand-run life-cycle steps without an endpoint: a model lent to the memory (SillyTavern's,
faked here as a Python lender) writes them, and the batch names it; none lent: the rules."""

from __future__ import annotations

import json
import threading

from lifecycle_helpers import CHAT, auto_node

from bme_desktop.core.lifecycle.persona import current_persona
from bme_desktop.core.providers.chat_model import SOURCE_SILLYTAVERN, ChatModel, TextModel
from bme_desktop.core.providers.records import ChatMessage
from bme_desktop.core.service import MemoryService

TRAITS = json.dumps({"traits": [{"kind": "preference", "text": "Tea drinker", "evidence": [1]}]})


class Tavern:
    source = SOURCE_SILLYTAVERN

    def __init__(self) -> None:
        self.asked: list[str] = []

    def lend(self, purpose: str, timeout_s: float | None = None) -> ChatModel | None:
        def complete(messages: list[ChatMessage], cancel: threading.Event | None) -> str:
            self.asked.append(purpose)
            return TRAITS

        return TextModel(SOURCE_SILLYTAVERN, "gpt-4o-mini", complete)


def _persona_batch(service: MemoryService) -> str:
    service.write(lambda uow: uow.ensure_chat(CHAT, "Aria", "Lin"))
    auto_node(service, "fact", {"statement": "Prefers green tea", "category": "preference"})
    change = service.run_maintenance(CHAT, "persona").value
    return next(
        b.description or ""
        for b in service.read(lambda r: r.batches(CHAT, kind="persona"))
        if b.id == change.batch_id
    )


def test_without_an_endpoint_sillytavern_writes_the_persona_and_the_batch_names_it(
    service: MemoryService,
) -> None:
    tavern = Tavern()
    service.lenders.add(tavern)
    description = _persona_batch(service)
    assert tavern.asked == ["persona"]
    persona = current_persona(service, CHAT)
    assert persona is not None and persona.by_kind()["preference"] == ["Tea drinker"]
    assert description.endswith("(llm: SillyTavern's model (gpt-4o-mini))")


def test_with_sillytavern_refused_in_settings_the_rules_write_it(service: MemoryService) -> None:
    tavern = Tavern()
    service.lenders.add(tavern)
    service.settings.llm.use_sillytavern = False
    assert _persona_batch(service).endswith("(rules)") and tavern.asked == []
