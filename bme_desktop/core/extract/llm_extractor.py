"""The model-backed extractor: renders the prompt files with the graph's state, asks an
OpenAI-compatible model for JSON, and turns the reply into a plan. It never raises: a failed
call or an unusable reply comes back as a reason, and the runner falls back to the
heuristic extractor (the batch records which one it used)."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..providers import HttpPolicy, LLMClient, LLMConfig, LLMError
from ..providers.chat_model import ChatModel, endpoint_set, label_of
from ..providers.records import ChatMessage
from ..secrets import LLM_KEY, api_key
from .cleaning import PreparedMessage
from .context import GraphContext, graph_context, messages_json
from .heuristic import speaker
from .llm_parse import SCHEMA_HINT, Unusable, plan_from_json
from .names import NameFinder
from .operations import validate_plan
from .prompts import detect_language, load_prompt, relations_text, render, schema_text
from .runner import ModelOutcome
from .window import Window

if TYPE_CHECKING:
    from ..ports import ModelSteps

API_KEY_ENV = "BME_LLM_API_KEY"


class LLMExtractor:
    name = "llm"

    def __init__(self, service: ModelSteps, client: ChatModel, finder: NameFinder | None = None) -> None:
        self.service = service
        self.client = client
        self.finder = finder or NameFinder()

    @property
    def model_label(self) -> str:
        """Which model makes this extractor's plans (the batch says it)."""
        return label_of(self.client)

    def build_messages(
        self, window: Window, prepared: list[PreparedMessage]
    ) -> tuple[list[ChatMessage], GraphContext]:
        speakers = sorted({s for m in prepared if (s := speaker(m, window.chat))})
        whole = "\n".join(m.text for m in prepared)
        names = speakers + [m.name for m in self.finder.find(whole, known=speakers)]
        ctx = self.service.read(lambda r: graph_context(r, window.chat_id, prepared, window.state, names))
        lang = detect_language([m.text for m in prepared], self.service.settings.appearance.language)
        data_dir = self.service.data_dir
        none = "（无）" if lang == "zh" else "(none)"
        system = render(
            load_prompt("extract", lang, data_dir), {"schema": schema_text(), "relations": relations_text()}
        )
        user = render(
            load_prompt("extract-input", lang, data_dir),
            {
                "story_time": ctx.story_time or none,
                "region": ctx.region or none,
                "summaries": json.dumps(ctx.summaries, ensure_ascii=False) if ctx.summaries else none,
                "memories": json.dumps(ctx.memories, ensure_ascii=False, indent=1) if ctx.memories else none,
                "messages": messages_json(prepared),
            },
        )
        return [{"role": "system", "content": system}, {"role": "user", "content": user}], ctx

    def extract(
        self, window: Window, prepared: list[PreparedMessage], cancel: threading.Event | None
    ) -> ModelOutcome:
        if not any(not m.context_only for m in prepared):
            return ModelOutcome(None, {}, "nothing left to read after cleaning")
        messages, ctx = self.build_messages(window, prepared)
        try:
            raw = self.client.chat_json(messages, schema_hint=SCHEMA_HINT, cancel=cancel)
        except LLMError as exc:
            return ModelOutcome(
                None, ctx.labels, f"{self.model_label} failed: {type(exc).__name__}: {exc}"[:500]
            )
        own = [m.index for m in prepared if not m.context_only]
        try:
            plan = plan_from_json(raw, own[-2:])
        except Unusable as exc:
            return ModelOutcome(None, ctx.labels, f"the reply of {self.model_label} was unusable: {exc}")
        offered = len(plan.ops) + sum(1 for d in plan.dropped if d.startswith("operation "))
        plan = validate_plan(plan, labels=ctx.labels, allowed_indices={m.index for m in window.messages})
        if offered and not plan.ops:
            first = plan.dropped[0] if plan.dropped else "no valid operation"
            return ModelOutcome(
                None,
                ctx.labels,
                f"none of the {offered} operations of {self.model_label} was valid ({first})",
            )
        plan.model = self.model_label
        return ModelOutcome(plan, ctx.labels)


@dataclass(frozen=True)
class _ClientKey:
    base_url: str
    model: str
    timeout: float
    retries: int
    temperature: float
    api_key: str | None


class ModelProvider:
    """Builds the LLM extractor from the current settings (``settings.llm``), reusing the
    client until they change; without an endpoint, over a model lent to the memory
    (SillyTavern's connection, the proxy's upstream: ``service.lenders``). None when there
    is neither: the heuristic extracts."""

    def __init__(self, service: ModelSteps, api_key: str | None = None) -> None:
        self.service = service
        self.api_key = api_key
        self._lock = threading.Lock()
        self._key: _ClientKey | None = None
        self._extractor: LLMExtractor | None = None
        self._names: NameFinder | None = None

    def __call__(self) -> LLMExtractor | None:
        llm = self.service.settings.llm
        if not endpoint_set(llm):
            lent = self.service.lenders.borrow(llm, "extract")
            if lent is None:
                return None
            with self._lock:
                return LLMExtractor(self.service, lent, self._finder())
        key = _ClientKey(
            llm.base_url,
            llm.model,
            llm.timeout_s,
            llm.max_retries,
            llm.temperature,
            self.api_key or api_key(self.service.data_dir, LLM_KEY, API_KEY_ENV),
        )
        with self._lock:
            if key != self._key or self._extractor is None:
                self.close()
                policy = HttpPolicy(
                    total_timeout=key.timeout,
                    idle_timeout=min(key.timeout, 60.0),
                    connect_timeout=min(key.timeout, 10.0),
                    max_retries=key.retries,
                )
                client = LLMClient(
                    LLMConfig(
                        base_url=key.base_url,
                        model=key.model,
                        api_key=key.api_key,
                        temperature=key.temperature,
                        policy=policy,
                    )
                )
                self._key, self._extractor = key, LLMExtractor(self.service, client, self._finder())
            return self._extractor

    def _finder(self) -> NameFinder:
        if self._names is None:
            self._names = NameFinder()
        return self._names

    def close(self) -> None:
        if self._extractor is not None:
            client = self._extractor.client
            if isinstance(client, LLMClient):
                client.close()
            self._extractor = None
            self._key = None


def model_from_settings(service: ModelSteps) -> ModelProvider:
    return ModelProvider(service)
