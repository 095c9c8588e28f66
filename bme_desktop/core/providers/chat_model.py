"""The model port: what the memory asks a chat model for, whoever answers.

The core asks for JSON through :class:`ChatModel` and never knows how the text arrives.
Three kinds of model answer:

- the endpoint set in Settings (``settings.llm``): an :class:`~.llm_client.LLMClient`;
- models *lent* to the memory by the bridge, which implements :class:`ModelLender`:
  SillyTavern's current connection (its companion extension runs the jobs it receives over
  ``/v1/events``) and the proxy's upstream (the server and key the proxy already forwards
  chats to, with the model the last chat request named).

:func:`choose` picks one: a dedicated endpoint wins when set; else a lent model the settings
allow (SillyTavern first, then the proxy's upstream) within the lent-job budget; else none,
and the caller takes its offline path. Every model has a ``source`` and a ``name``; the
batch it made says which (:func:`model_label`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from ..settings import LLMSettings
from .errors import LLMError
from .json_chat import json_reply
from .json_repair import JSONValue
from .records import ChatMessage

SOURCE_ENDPOINT = "endpoint"
SOURCE_SILLYTAVERN = "sillytavern"
SOURCE_PROXY = "proxy"
LENT_ORDER = (SOURCE_SILLYTAVERN, SOURCE_PROXY)
# What a job is for. Rerank runs inside the user's own generation (recall happens before
# SillyTavern sends the prompt), so SillyTavern never serves it; the lender decides.
PURPOSES = ("extract", "summarize", "compress", "fold", "consolidate", "persona", "reflect", "rerank")

log = logging.getLogger("bme_desktop.core.providers.chat_model")


class ChatModel(Protocol):
    """A chat model the memory can ask for JSON."""

    @property
    def source(self) -> str: ...  # SOURCE_*

    @property
    def name(self) -> str: ...  # the model's name where known, else ""

    def chat_json(
        self,
        messages: Sequence[ChatMessage],
        *,
        schema_hint: str | None = None,
        cancel: threading.Event | None = None,
    ) -> JSONValue: ...


def model_label(source: str, name: str) -> str:
    """How a batch names the model that made it (English: batch descriptions are data; the app
    translates the source when it shows one)."""
    if source == SOURCE_SILLYTAVERN:
        return f"SillyTavern's model ({name})" if name else "SillyTavern's model"
    if source == SOURCE_PROXY:
        return f"proxy upstream ({name})" if name else "proxy upstream"
    return name or "endpoint"


def label_of(model: ChatModel) -> str:
    return model_label(model.source, model.name)


Complete = Callable[[list[ChatMessage], threading.Event | None], str]


@dataclass
class TextModel:
    """A :class:`ChatModel` over any function that turns messages into the model's reply
    text (lent models): asks for JSON, parses tolerantly and makes one repair request, like
    :meth:`LLMClient.chat_json`. ``complete`` raises :class:`~.errors.LLMError` on failure."""

    source: str
    name: str
    complete: Complete

    def chat_json(
        self,
        messages: Sequence[ChatMessage],
        *,
        schema_hint: str | None = None,
        cancel: threading.Event | None = None,
    ) -> JSONValue:
        return json_reply(lambda msgs: self.complete(msgs, cancel), messages, schema_hint, log)


class ModelLender(Protocol):
    """Lends a model to the memory (the bridge implements it). ``lend`` returns ``None`` when
        it cannot serve ``purpose`` now (nobody offers a connection, the proxy saw no request yet,
        or the purpose is not one it serves). ``timeout_s`` bounds each call of the model
    (default: ``llm.lent_timeout_s``)."""

    @property
    def source(self) -> str: ...

    def lend(self, purpose: str, timeout_s: float | None = None) -> ChatModel | None: ...


class ModelLenders:
    """The lenders registered on a service, and the budget of lent jobs (a sliding minute
    shared by every lent source: ``llm.lent_jobs_per_minute``). Thread-safe."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._lock = threading.Lock()
        self._lenders: dict[str, ModelLender] = {}
        self._started: deque[float] = deque()
        self._clock = clock

    def add(self, lender: ModelLender) -> Callable[[], None]:
        """Register ``lender`` (replacing one of the same source); returns its removal."""
        with self._lock:
            self._lenders[lender.source] = lender

        def remove() -> None:
            with self._lock:
                if self._lenders.get(lender.source) is lender:
                    del self._lenders[lender.source]

        return remove

    def sources(self) -> list[str]:
        with self._lock:
            return [s for s in LENT_ORDER if s in self._lenders]

    def may_lend(self, settings: LLMSettings) -> bool:
        """Whether a lender the settings allow is registered (it may still have nothing to
        lend: ``borrow`` says); spends no budget."""
        allowed = {SOURCE_SILLYTAVERN: settings.use_sillytavern, SOURCE_PROXY: settings.use_proxy_upstream}
        return any(allowed[s] for s in self.sources())

    def borrow(self, settings: LLMSettings, purpose: str, timeout_s: float | None = None) -> ChatModel | None:
        """The first lent model the settings allow for ``purpose``, counted against the
        per-minute budget; ``None`` when there is none. Over the budget, a model that fails
        at once saying so (the step falls back, and its batch says why)."""
        allowed = {SOURCE_SILLYTAVERN: settings.use_sillytavern, SOURCE_PROXY: settings.use_proxy_upstream}
        with self._lock:
            lenders = [self._lenders[s] for s in LENT_ORDER if allowed[s] and s in self._lenders]
        for lender in lenders:
            model = lender.lend(purpose, timeout_s)
            if model is None:
                continue
            if not self._spend(settings.lent_jobs_per_minute):
                log.info(
                    "lent-model budget spent (%d jobs a minute); %s job takes the offline path",
                    settings.lent_jobs_per_minute,
                    purpose,
                )
                return _spent(model, settings.lent_jobs_per_minute)
            return model
        return None

    def _spend(self, per_minute: int) -> bool:
        now = self._clock()
        with self._lock:
            while self._started and now - self._started[0] >= 60.0:
                self._started.popleft()
            if len(self._started) >= per_minute:
                return False
            self._started.append(now)
            return True


def _spent(model: ChatModel, per_minute: int) -> ChatModel:
    def refuse(messages: list[ChatMessage], cancel: threading.Event | None) -> str:
        raise LLMError(
            f"the budget of {per_minute} borrowed-model jobs a minute is spent (llm.lent_jobs_per_minute)"
        )

    return TextModel(model.source, model.name, refuse)


def endpoint_set(settings: LLMSettings) -> bool:
    """A dedicated endpoint is configured (it wins over every lent model)."""
    return bool(settings.enabled and settings.base_url and settings.model)
