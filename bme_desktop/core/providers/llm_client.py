"""Client for any OpenAI-compatible chat endpoint (OpenAI, DeepSeek, Ollama, LM Studio, vLLM).

Synchronous; run it in a worker thread. One client per endpoint configuration; it owns a
connection pool, so ``close()`` it (or use it as a context manager) when done.

    with LLMClient(LLMConfig(base_url="http://127.0.0.1:11434/v1", model="qwen2.5:7b")) as llm:
        reply = llm.chat([{"role": "user", "content": "Hello"}]).text
        data = llm.chat_json(messages, schema_hint='{"operations": [...]}')
        for delta in llm.stream_chat(messages, cancel=stop_event):
            ...

Timeouts, retries and cancellation follow :mod:`.http_policy`. Logs (loggers under
``bme_desktop.core.providers``) carry roles and sizes only: no key, no message text.
A stream counts as complete at ``data: [DONE]`` or at the first ``finish_reason``; reading
stops there.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from .chat_model import SOURCE_ENDPOINT
from .errors import LLMBadResponse, LLMError, LLMHTTPError
from .http_policy import HttpPolicy
from .http_session import HttpSession
from .json_chat import json_reply
from .json_repair import JSONValue
from .openai_wire import decode_stream_event, first_choice, parse_completion
from .records import ChatMessage, ChatResult, ConnectionReport
from .redaction import describe_messages
from .sse import iter_sse_data

_CONNECTION_TEST_TIMEOUT = 15.0


@dataclass(frozen=True)
class LLMConfig:
    """Where and how to call a chat model. ``api_key`` is never shown by ``repr``."""

    base_url: str
    model: str
    api_key: str | None = field(default=None, repr=False)
    temperature: float | None = 0.2
    max_tokens: int | None = None
    extra_headers: Mapping[str, str] = field(default_factory=dict)
    policy: HttpPolicy = field(default_factory=HttpPolicy)
    json_mode: bool = True  # send response_format={"type": "json_object"} from chat_json
    source: str = (
        SOURCE_ENDPOINT  # who lends it (chat_model.py): the Settings endpoint, or the proxy's upstream
    )


class LLMClient:
    """Chat, JSON chat, streaming chat and a connection test against one endpoint."""

    def __init__(
        self, config: LLMConfig, *, logger: logging.Logger | None = None, rng: random.Random | None = None
    ) -> None:
        self.config = config
        self._log = logger or logging.getLogger("bme_desktop.core.providers.llm")
        self._session = HttpSession(
            config.base_url,
            api_key=config.api_key,
            extra_headers=config.extra_headers,
            policy=config.policy,
            logger=self._log,
            rng=rng,
        )
        self._response_format_rejected = False

    @property
    def source(self) -> str:  # a ChatModel (chat_model.py)
        return self.config.source

    @property
    def name(self) -> str:
        return self.config.model

    @property
    def base_url(self) -> str:
        return self._session.base_url

    def close(self) -> None:
        self._session.close()

    def __enter__(self) -> LLMClient:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # -- chat -----------------------------------------------------------------------------
    def chat(
        self,
        messages: Sequence[ChatMessage],
        *,
        cancel: threading.Event | None = None,
        max_tokens: int | None = None,
    ) -> ChatResult:
        """One non-streaming completion."""
        return self._complete(messages, cancel=cancel, json_mode=False, max_tokens=max_tokens)

    def chat_json(
        self,
        messages: Sequence[ChatMessage],
        *,
        schema_hint: str | None = None,
        cancel: threading.Event | None = None,
    ) -> JSONValue:
        """A completion parsed as a JSON object or array.

        Asks for JSON (instruction plus ``response_format`` where the server accepts it),
        parses tolerantly (:mod:`.json_repair`) and, if that fails, makes exactly one repair
        request. Raises :class:`LLMBadResponse` when the repaired reply is not JSON either.
        """
        return json_reply(
            lambda msgs: self._json_completion(msgs, cancel).text, messages, schema_hint, self._log
        )

    def stream_chat(
        self, messages: Sequence[ChatMessage], *, cancel: threading.Event | None = None
    ) -> Generator[str, None, None]:
        """Yield text deltas as they arrive. The request is sent on the first ``next()``;
        ``close()`` the generator (or stop iterating) to drop the connection early.

        Raises :class:`LLMTimeout` on an idle stream or at the hard deadline,
        :class:`LLMBadResponse` if the stream ends before the model finished,
        :class:`LLMCancelled` once ``cancel`` is set (checked between chunks).
        """
        payload = self._payload(messages, stream=True, json_mode=False)
        summary = describe_messages(messages)
        chars = 0
        with self._session.stream_lines("chat/completions", payload, cancel=cancel, summary=summary) as lines:
            for data in iter_sse_data(lines):
                if data.strip() == "[DONE]":
                    self._log.info("stream from %s done: %d chars", self.config.model, chars)
                    return
                choice = first_choice(decode_stream_event(data))
                if choice is None:
                    continue
                delta = choice.get("delta")
                text = delta.get("content") if isinstance(delta, Mapping) else None
                if isinstance(text, str) and text:
                    chars += len(text)
                    yield text
                if choice.get("finish_reason"):
                    self._log.info("stream from %s finished: %d chars", self.config.model, chars)
                    return
        raise LLMBadResponse(f"stream ended before the model finished ({chars} chars received)")

    # -- connection test ------------------------------------------------------------------
    def test_connection(self) -> ConnectionReport:
        """List models (``GET /models``, limited to 15 s); where that route is missing, try a
        1-token chat. Never raises; no retries."""
        start = time.monotonic()
        try:
            try:
                body = self._session.request_json(
                    "GET", "models", retries=False, timeout=_CONNECTION_TEST_TIMEOUT
                )
            except LLMHTTPError as exc:
                if exc.status not in (404, 405, 501):
                    raise
                self._complete(
                    [{"role": "user", "content": "ping"}],
                    cancel=None,
                    json_mode=False,
                    max_tokens=1,
                    retries=False,
                )
                return ConnectionReport(ok=True, latency=time.monotonic() - start)
        except LLMError as exc:
            return ConnectionReport(ok=False, latency=time.monotonic() - start, error=str(exc))
        entries = body.get("data") if isinstance(body, Mapping) else None
        models = tuple(
            str(entry["id"]) for entry in (entries or []) if isinstance(entry, Mapping) and entry.get("id")
        )
        return ConnectionReport(
            ok=True,
            latency=time.monotonic() - start,
            models=models,
            model_listed=(self.config.model in models) if models else None,
        )

    # -- internals ------------------------------------------------------------------------
    def _json_completion(self, messages: Sequence[ChatMessage], cancel: threading.Event | None) -> ChatResult:
        if self.config.json_mode and not self._response_format_rejected:
            try:
                return self._complete(messages, cancel=cancel, json_mode=True)
            except LLMHTTPError as exc:
                if exc.status not in (400, 422):
                    raise
                self._log.info(
                    "server rejected response_format (HTTP %d); asking for JSON without it", exc.status
                )
                self._response_format_rejected = True
        return self._complete(messages, cancel=cancel, json_mode=False)

    def _payload(
        self, messages: Sequence[ChatMessage], *, stream: bool, json_mode: bool, max_tokens: int | None = None
    ) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "model": self.config.model,
            "messages": [dict(message) for message in messages],
            "stream": stream,
        }
        if self.config.temperature is not None:
            payload["temperature"] = self.config.temperature
        tokens = max_tokens if max_tokens is not None else self.config.max_tokens
        if tokens is not None:
            payload["max_tokens"] = tokens
        if json_mode:
            payload["response_format"] = {"type": "json_object"}
        return payload

    def _complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        cancel: threading.Event | None,
        json_mode: bool,
        max_tokens: int | None = None,
        retries: bool = True,
    ) -> ChatResult:
        start = time.monotonic()
        payload = self._payload(messages, stream=False, json_mode=json_mode, max_tokens=max_tokens)
        body = self._session.request_json(
            "POST",
            "chat/completions",
            payload,
            cancel=cancel,
            retries=retries,
            summary=describe_messages(messages),
        )
        result = parse_completion(body, self.config.model, time.monotonic() - start)
        self._log.info(
            "chat %s: %d chars in %.2fs (finish=%s, usage=%s)",
            result.model,
            len(result.text),
            result.elapsed,
            result.finish_reason,
            result.usage,
        )
        return result
