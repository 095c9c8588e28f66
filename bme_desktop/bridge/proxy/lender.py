"""Proxy mode for memory jobs: the proxy's upstream answers them when the user allows it
(``llm.use_proxy_upstream``, off by default: the jobs spend the proxy's key).

The upstream is ``proxy.upstream_base_url`` with the proxy's key (the ones every chat through
the proxy already uses), and the model is the one the last chat request named (after the
model map): memory jobs run on the model the user chats with. Before the proxy has seen a
chat request there is no model to name, so nothing is lent. Each job is one blocking call on
the caller's worker thread; it carries the proxy's hop header, so an upstream that points
back at BME Desktop refuses it rather than loop."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ...core.providers.chat_model import SOURCE_PROXY, ChatModel, TextModel
from ...core.providers.http_policy import HttpPolicy
from ...core.providers.llm_client import LLMClient, LLMConfig
from ...core.providers.records import ChatMessage
from .upstream import HOP, UpstreamKey

if TYPE_CHECKING:
    from ...core.service import MemoryService


@dataclass
class ProxyLender:
    """Lends the proxy's upstream to ``service`` (registered by the bridge app)."""

    service: MemoryService
    key: UpstreamKey
    last_model: str = ""  # the upstream model of the last chat request (set on the bridge's loop)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def source(self) -> str:
        return SOURCE_PROXY

    def saw_model(self, model: str) -> None:
        with self._lock:
            self.last_model = model[:200]

    def lend(self, purpose: str, timeout_s: float | None = None) -> ChatModel | None:
        proxy, llm = self.service.settings.proxy, self.service.settings.llm
        with self._lock:
            model = self.last_model
        base_url = proxy.upstream_base_url.strip()
        if not (proxy.enabled and base_url and model):
            return None
        total = timeout_s if timeout_s is not None else llm.lent_timeout_s
        config = LLMConfig(
            base_url=base_url,
            model=model,
            temperature=llm.temperature,
            max_tokens=llm.lent_max_tokens,
            extra_headers={HOP: "1"},
            source=SOURCE_PROXY,
            policy=HttpPolicy(
                connect_timeout=min(10.0, total),
                total_timeout=total,
                idle_timeout=min(60.0, total),
                max_retries=0 if timeout_s is not None else llm.max_retries,
            ),
        )
        data_dir: Path | None = self.service.data_dir

        def complete(messages: list[ChatMessage], cancel: threading.Event | None) -> str:
            with LLMClient(replace(config, api_key=self.key.get(data_dir))) as client:
                return client.chat(messages, cancel=cancel).text

        return TextModel(SOURCE_PROXY, model, complete)
