"""Model jobs over ``/v1/events``: SillyTavern's connection lent to the memory.

The companion extension *offers* its connection on the events socket (``model.offer``). While
an offer stands, :class:`SocketLender` lends a model to the core (``service.lenders``): each
JSON request of extraction, summaries, reflection, persona and the other life-cycle steps
becomes a ``model.job`` sent on that socket, and the worker thread that asked waits for the
``model.result`` (the reply's text) or ``model.error``. The extension runs the job through
SillyTavern's current connection as a raw generation (no chat, no chat events) and never
while SillyTavern generates for the user. A job that fails, times out, comes back as
garbage, or whose socket drops gives the caller an :class:`LLMError`: the step takes its
offline path and its batch says so. Rerank is never sent (it runs inside the user's own
generation). Messages: docs/bridge.md, "Model jobs".
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import uuid
from collections.abc import Coroutine, Mapping
from concurrent.futures import CancelledError as FutureCancelled
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core.providers.chat_model import PURPOSES, SOURCE_SILLYTAVERN, ChatModel, TextModel, endpoint_set
from ..core.providers.errors import LLMBadResponse, LLMCancelled, LLMConnectionError, LLMError, LLMTimeout
from ..core.providers.records import ChatMessage
from .events_hub import Subscriber

if TYPE_CHECKING:
    from ..core.service import MemoryService

log = logging.getLogger(__name__)
OFFER, JOB, RESULT, FAILED, CANCEL, ACCEPTED = (
    "model.offer",
    "model.job",
    "model.result",
    "model.error",
    "model.cancel",
    "model.offer.accepted",
)
NOT_LENT = frozenset({"rerank"})  # runs inside SillyTavern's own generation: it would wait for itself
MAX_NAME = 200
CANCEL_POLL_S = 0.25  # how often a waiting worker looks at its cancel flag


@dataclass(eq=False)
class Offer:
    """One socket's standing offer (touched on the bridge's loop only, except ``name`` and
    ``purposes``, which are immutable once made)."""

    sub: Subscriber
    name: str
    purposes: frozenset[str]
    jobs: set[str] = field(default_factory=set)


def _text(value: Any, limit: int) -> str:
    return " ".join(value.split())[:limit] if isinstance(value, str) else ""


def parse_offer(data: Mapping[str, Any]) -> tuple[bool, str, frozenset[str]]:
    """``(enabled, model name, purposes)`` of a ``model.offer`` message; unknown purposes are
    ignored and a missing list means all of them."""
    enabled = data.get("enabled") is True
    purposes = data.get("purposes")
    wanted = (
        frozenset(p for p in purposes if isinstance(p, str))
        if isinstance(purposes, list)
        else frozenset(PURPOSES)
    )
    return enabled, _text(data.get("model"), MAX_NAME), (wanted & frozenset(PURPOSES)) - NOT_LENT


class SocketLender:
    """The ``sillytavern`` lender. Socket-side methods run on the bridge's loop; ``lend`` and
    the models it returns are called from worker threads."""

    def __init__(self, service: MemoryService, loop: asyncio.AbstractEventLoop) -> None:
        self.service = service
        self.loop = loop
        self._lock = threading.Lock()
        self._offers: list[Offer] = []  # oldest first; the newest serves
        self._jobs: dict[str, tuple[asyncio.Future[str], Offer]] = {}

    @property
    def source(self) -> str:
        return SOURCE_SILLYTAVERN

    # -- the socket side (bridge loop) ------------------------------------------------------
    def handle(self, sub: Subscriber, data: Mapping[str, Any]) -> None:
        """A message from an events socket: an offer, a result or an error."""
        kind = data.get("type")
        if kind == OFFER:
            self._offer(sub, data)
        elif kind in (RESULT, FAILED):
            self._answer(sub, data)

    def _offer(self, sub: Subscriber, data: Mapping[str, Any]) -> None:
        enabled, name, purposes = parse_offer(data)
        self.withdraw(sub, "the offer was replaced")
        if enabled:
            with self._lock:
                self._offers.append(Offer(sub, name, purposes))
        llm = self.service.settings.llm
        in_use = enabled and llm.use_sillytavern and not endpoint_set(llm)
        why = (
            ""
            if in_use
            else ("withdrawn" if not enabled else "endpoint" if endpoint_set(llm) else "off_in_app")
        )
        self._send(
            sub,
            {
                "type": ACCEPTED,
                "chat_id": None,
                "enabled": enabled,
                "in_use": in_use,
                "reason": why,
                "max_tokens": llm.lent_max_tokens,
                "jobs_per_minute": llm.lent_jobs_per_minute,
            },
        )

    def withdraw(self, sub: Subscriber, why: str = "the socket closed") -> None:
        """Drop ``sub``'s offer; its jobs in flight fail now (their steps fall back)."""
        with self._lock:
            gone = [o for o in self._offers if o.sub is sub]
            self._offers = [o for o in self._offers if o.sub is not sub]
        for offer in gone:
            for job_id in list(offer.jobs):
                entry = self._jobs.get(job_id)
                if entry is not None and not entry[0].done():
                    entry[0].set_exception(
                        LLMConnectionError(f"SillyTavern's connection went away mid-job ({why})")
                    )

    def _answer(self, sub: Subscriber, data: Mapping[str, Any]) -> None:
        job_id = data.get("job_id")
        entry = self._jobs.get(job_id) if isinstance(job_id, str) else None
        if entry is None or entry[1].sub is not sub:
            return  # late (timed out), unknown, or from another socket: ignored
        future = entry[0]
        if future.done():
            return
        if data.get("type") == RESULT:
            text = data.get("text")
            if not isinstance(text, str) or not text.strip():
                future.set_exception(LLMBadResponse("SillyTavern's model returned no text"))
            else:
                future.set_result(text)
            return
        code = _text(data.get("code"), 40) or "failed"
        message = _text(data.get("message"), 300)
        error: LLMError = (
            LLMTimeout(f"SillyTavern: {code}: {message}")
            if code in ("timeout", "busy")
            else LLMError(f"SillyTavern: {code}: {message}")
        )
        future.set_exception(error)

    @staticmethod
    def _send(sub: Subscriber, payload: Mapping[str, Any]) -> bool:
        try:
            sub.queue.put_nowait(json.dumps(payload, ensure_ascii=False))
        except asyncio.QueueFull:
            return False
        return True

    async def run(
        self, offer: Offer, purpose: str, messages: list[ChatMessage], max_tokens: int, timeout_s: float
    ) -> str:
        """Send one job on ``offer``'s socket and wait for its answer (bridge loop)."""
        with self._lock:
            standing = offer in self._offers
        if not standing:
            raise LLMConnectionError("SillyTavern no longer offers its connection")
        job_id = uuid.uuid4().hex
        future: asyncio.Future[str] = self.loop.create_future()
        self._jobs[job_id] = (future, offer)
        offer.jobs.add(job_id)
        try:
            sent = self._send(
                offer.sub,
                {
                    "type": JOB,
                    "chat_id": None,
                    "job_id": job_id,
                    "purpose": purpose,
                    "messages": [dict(m) for m in messages],
                    "max_tokens": max_tokens,
                    "timeout_ms": int(timeout_s * 1000),
                },
            )
            if not sent:
                raise LLMConnectionError("the events socket is too far behind to take a job")
            try:
                return await asyncio.wait_for(future, timeout_s)
            except TimeoutError:
                self._send(offer.sub, {"type": CANCEL, "chat_id": None, "job_id": job_id})
                raise LLMTimeout(
                    f"SillyTavern did not answer the {purpose} job within {timeout_s:g} s"
                ) from None
            except asyncio.CancelledError:
                self._send(offer.sub, {"type": CANCEL, "chat_id": None, "job_id": job_id})
                raise
        finally:
            self._jobs.pop(job_id, None)
            offer.jobs.discard(job_id)

    # -- the core side (worker threads) -------------------------------------------------------
    def lend(self, purpose: str, timeout_s: float | None = None) -> ChatModel | None:
        with self._lock:
            offer = next((o for o in reversed(self._offers) if purpose in o.purposes), None)
        if offer is None or self.loop.is_closed():
            return None
        llm = self.service.settings.llm
        timeout = timeout_s if timeout_s is not None else llm.lent_timeout_s
        max_tokens = llm.lent_max_tokens

        def complete(messages: list[ChatMessage], cancel: threading.Event | None) -> str:
            return self._wait(self.run(offer, purpose, messages, max_tokens, timeout), cancel)

        return TextModel(SOURCE_SILLYTAVERN, offer.name, complete)

    def _wait(self, job: Coroutine[Any, Any, str], cancel: threading.Event | None) -> str:
        try:
            future = asyncio.run_coroutine_threadsafe(job, self.loop)
        except RuntimeError as exc:  # the loop closed: the bridge is stopping
            job.close()
            raise LLMConnectionError("the bridge is stopping") from exc
        done = threading.Event()
        future.add_done_callback(lambda _f: done.set())
        while not done.wait(CANCEL_POLL_S if cancel is not None else None):
            if cancel is not None and cancel.is_set():
                future.cancel()
                raise LLMCancelled("cancelled by caller")
        try:
            return future.result()
        except FutureCancelled as exc:
            raise LLMConnectionError("the job was dropped (the bridge is stopping)") from exc
