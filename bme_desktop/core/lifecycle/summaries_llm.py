"""The LLM path of the ``summarize`` task: the model writes each due small summary.

``summarize_with_change`` reads the due groups (``pending_groups``), asks the model once for
all of them outside the write (prompt ``summarize``; the memories' texts as quoted JSON),
and writes the summaries in one write: the model's text where it gave a valid one for
exactly every range asked, else the extractive text. Each batch description ends with
``(llm)`` or ``(rules …)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cancel import CancelToken
from ..events import ChangeRecord
from ..store.unit_of_work import UnitOfWork
from .llm_step import Asked, ask_model, model_step, numbered_texts
from .summaries import SMALL_CHARS, SummaryReport, SummarySource, pending_groups, summarize_in, summary_source

if TYPE_CHECKING:
    from ..ports import ModelSteps

SCHEMA = '{"summaries": [{"id": 1, "text": "..."}]}'
MAX_CHARS = 2 * SMALL_CHARS  # a model may run a little long; beyond that the reply is not used
MAX_TEXTS = 40


def request_data(sources: list[SummarySource]) -> dict[str, Any]:
    return {
        "max_chars": SMALL_CHARS,
        "ranges": [
            {"id": i, "messages": f"{s.start}-{s.end}", "memories": s.texts[:MAX_TEXTS]}
            for i, s in enumerate(sources, 1)
        ],
    }


def parse_summaries(reply: Any, count: int) -> dict[int, str] | None:
    """``{id: text}`` for exactly ids ``1..count``; ``None`` for anything else."""
    return numbered_texts(reply, "summaries", count, MAX_CHARS)


def summarize_with_change(
    service: ModelSteps, chat_id: str, *, cancel: CancelToken | None = None
) -> tuple[SummaryReport, ChangeRecord]:
    settings = service.settings
    now = service.now()

    def ask(sources: list[SummarySource]) -> Asked[dict[int, str]] | None:
        if not sources:
            return None
        return ask_model(
            service,
            chat_id,
            "summarize",
            "summarize",
            request_data(sources),
            SCHEMA,
            lambda reply: parse_summaries(reply, len(sources)),
            texts=[t for s in sources for t in s.texts],
        )

    def write(
        uow: UnitOfWork, sources: list[SummarySource], asked: Asked[dict[int, str]] | None
    ) -> SummaryReport:
        answer = asked.value if asked is not None else None
        proposed = (
            {(s.start, s.end): answer[i] for i, s in enumerate(sources, 1)} if answer is not None else {}
        )
        return summarize_in(
            uow,
            chat_id,
            now,
            settings.lifecycle,
            proposed=proposed,
            label=asked.label if asked is not None else "rules",
            cancel=cancel,
        )

    return model_step(
        service,
        chat_id,
        lambda r: [summary_source(r, chat_id, g) for g in pending_groups(r, chat_id, settings.lifecycle)],
        ask,
        write,
        cancel,
    )
