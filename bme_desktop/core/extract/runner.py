"""One extraction step, off the writer thread: read the next window, make a plan (LLM when
configured, else or on failure the heuristic), embed its proposed memories for near-duplicate
matching when the chat has vectors, then commit it through ``service.write`` and wait for the
work its events queued (the intake of its memories, the after-extraction steps) to be done."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from ..background import yield_to_foreground
from ..events import ErrorReported, ExtractionFinished, ExtractionStarted, Initiator
from ..operations import acting
from ..store.locks import extraction_claim
from .cleaning import PreparedMessage, prepare_window
from .context import open_story_items
from .heuristic import HeuristicExtractor
from .operations import Plan, validate_plan
from .vector_match import TermCache, vector_scores
from .window import Committed, Window, commit, next_window

if TYPE_CHECKING:
    from ..ports import Extracting

log = logging.getLogger(__name__)
FOLLOW_UP_POLL_S = 0.5  # how often waiting for a batch's follow-up work looks at the cancel


@dataclass
class ModelOutcome:
    """What a model-backed extractor produced: a plan, or the reason it has none."""

    plan: Plan | None
    labels: dict[str, str]
    reason: str = ""


class ModelExtractor(Protocol):
    name: str

    def extract(
        self, window: Window, prepared: list[PreparedMessage], cancel: threading.Event | None
    ) -> ModelOutcome: ...


StepResult = tuple[Window, Committed] | None


class Runner:
    """Reads, extracts and commits batches for one service."""

    def __init__(
        self,
        service: Extracting,
        *,
        heuristic: HeuristicExtractor | None = None,
        model: Callable[[], ModelExtractor | None] | None = None,
    ) -> None:
        self.service = service
        self.heuristic = heuristic or HeuristicExtractor()
        self.model = model or (lambda: None)
        self.terms = TermCache()  # term sets of the memories near-duplicate checks compare

    def plan(self, window: Window, cancel: threading.Event | None = None) -> tuple[Plan, dict[str, str]]:
        settings = self.service.settings.extraction
        prepared = prepare_window(
            window.messages, window.start, window.end, patterns=settings.cleaning_patterns
        )
        allowed = {m.index for m in window.messages}
        note = ""
        model = self.model()
        if model is not None:
            outcome = model.extract(window, prepared, cancel)
            if outcome.plan is not None:
                return validate_plan(
                    outcome.plan, labels=outcome.labels, allowed_indices=allowed
                ), outcome.labels
            note = f"fallback: {outcome.reason}"
            self.service.events.publish(
                ErrorReported(
                    window.chat_id,
                    "extraction",
                    outcome.reason,
                    {"fallback": self.heuristic.name, "from": window.start, "to": window.end},
                )
            )
        plan, labels = self._heuristic(window, prepared)
        plan.note = note
        return validate_plan(plan, labels=labels, allowed_indices=allowed), labels

    def _heuristic(self, window: Window, prepared: list[PreparedMessage]) -> tuple[Plan, dict[str, str]]:
        """The heuristic plan, given the graph's open threads, promises and beliefs to close."""
        items, labels = self.service.read(lambda r: open_story_items(r, window.chat_id))
        return self.heuristic.extract(prepared, window.chat, items), labels

    def step(self, chat_id: str, cancel: threading.Event | None = None, attempts: int = 3) -> StepResult:
        """Extract one batch. None when nothing is due (or the chat kept changing under us).

        The whole step holds the chat's extraction claim: with several instances on one
        PostgreSQL database, one reads, plans and commits a batch while the others wait, then
        read the next window (so a batch is planned once and applied once)."""
        with extraction_claim(self.service.store.engine, chat_id, cancel) as claimed:
            if not claimed:
                return None  # shutting down while another instance extracted the chat
            with acting(Initiator.EXTRACTION):
                found = self._step(chat_id, cancel, attempts)
            if found is not None:
                self._follow_up(chat_id, cancel)
            return found

    def _follow_up(self, chat_id: str, cancel: threading.Event | None) -> None:
        """Wait until what the batch's events queued is done (its memories' intake and the
        after-extraction steps, on the life-cycle worker's thread): their batches come before
        the next extraction batch, which reads the summaries they write, and a history rollback
        undoes them in order with it. A cancel (shutdown, a cancelled run) stops the wait."""
        while not self.service.wait_for_follow_up(chat_id, FOLLOW_UP_POLL_S):
            if cancel is not None and cancel.is_set():
                return

    def _step(self, chat_id: str, cancel: threading.Event | None, attempts: int) -> StepResult:
        settings = self.service.settings.extraction
        for _ in range(attempts):
            window = self.service.read(
                lambda r: next_window(
                    r, chat_id, every_n=settings.every_n_replies, context=settings.context_messages
                )
            )
            if window is None:
                return None
            self.service.events.publish(ExtractionStarted(chat_id, window.start, window.end))
            yield_to_foreground()  # a recall that arrived meanwhile goes first
            plan, labels = self.plan(window, cancel)
            if cancel is not None and cancel.is_set():
                return None  # shutting down: abandon this batch rather than commit a fallback
            committed = self._commit(window, plan, labels)
            if committed is not None:
                self.service.events.publish(
                    ExtractionFinished(
                        chat_id,
                        window.start,
                        window.end,
                        committed.batch_id,
                        plan.extractor,
                        plan.model,
                        plan.note,
                        committed.report.to_json(),
                    )
                )
                return window, committed
            log.info(
                "chat %s changed during extraction of %d-%d; reading again", chat_id, window.start, window.end
            )
        return None

    def _commit(self, window: Window, plan: Plan, labels: dict[str, str]) -> Committed | None:
        vectors = vector_scores(
            self.service, window.chat_id, plan, terms=self.terms
        )  # embedding happens here, not on the writer
        try:
            return self.service.write(lambda uow: commit(uow, window, plan, labels, vectors))
        except Exception as exc:  # a bad plan must not stop extraction: fall back, then skip visibly
            log.exception("applying the %s plan for %d-%d failed", plan.extractor, window.start, window.end)
            reason = f"applying the {plan.extractor} plan failed: {type(exc).__name__}: {exc}"
            self.service.events.publish(
                ErrorReported(window.chat_id, "extraction", reason, {"from": window.start, "to": window.end})
            )
            if plan.extractor != self.heuristic.name:
                prepared = prepare_window(
                    window.messages,
                    window.start,
                    window.end,
                    patterns=self.service.settings.extraction.cleaning_patterns,
                )
                fallback, labels = self._heuristic(window, prepared)
                fallback.note = f"fallback: {reason}"[:500]
                fallback = validate_plan(
                    fallback, labels=labels, allowed_indices={m.index for m in window.messages}
                )
                return self._commit(window, fallback, labels)
            skipped = Plan(extractor="skipped", note=reason[:500])
            return self.service.write(lambda uow: commit(uow, window, skipped, {}))
