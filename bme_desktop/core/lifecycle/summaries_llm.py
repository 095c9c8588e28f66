"""The LLM path of the ``summarize`` task: the model writes each due small summary.

``summarize_with_change`` reads the due groups (``pending_groups``), asks the model once for
all of them outside the write (prompt ``summarize``; the memories' texts as quoted JSON),
and writes the summaries in one write: the model's text where it gave a valid one for
exactly every range asked, else the extractive text. Each batch description ends with
``(llm)`` or ``(rules …)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cancel import CancelToken, checkpoint
from ..events import ChangeRecord
from ..store.unit_of_work import UnitOfWork
from .llm_step import ask_model, model_available, numbered_texts
from .summaries import SMALL_CHARS, SummaryReport, SummarySource, pending_groups, summarize_in, summary_source
from .upkeep import copy_change

if TYPE_CHECKING:
    from ..ports import ModelSteps

SCHEMA = '{"summaries": [{"id": 1, "text": "..."}]}'
MAX_CHARS = 2 * SMALL_CHARS  # a model may run a little long; beyond that the reply is not used
MAX_TEXTS = 40


def request_data(sources: list[SummarySource]) -> dict[str, Any]:
    return {"max_chars": SMALL_CHARS,
            "ranges": [{"id": i, "messages": f"{s.start}-{s.end}", "memories": s.texts[:MAX_TEXTS]}
                       for i, s in enumerate(sources, 1)]}


def parse_summaries(reply: Any, count: int) -> dict[int, str] | None:
    """``{id: text}`` for exactly ids ``1..count``; ``None`` for anything else."""
    return numbered_texts(reply, "summaries", count, MAX_CHARS)


def summarize_with_change(service: ModelSteps, chat_id: str, *, cancel: CancelToken | None = None
                          ) -> tuple[SummaryReport, ChangeRecord]:
    settings = service.settings
    now = service.now()

    def sources_of(read: Any) -> list[SummarySource]:
        read.require_chat_pk(chat_id)
        return [summary_source(read, chat_id, g) for g in pending_groups(read, chat_id, settings.lifecycle)]
    sources = service.read(sources_of)
    checkpoint(cancel)
    proposed: dict[tuple[int, int], str] = {}
    label = "rules"
    if sources and model_available(service):
        asked = ask_model(service, chat_id, "summarize", "summarize", request_data(sources), SCHEMA,
                          lambda reply: parse_summaries(reply, len(sources)),
                          texts=[t for s in sources for t in s.texts])
        label = asked.label
        if asked.value is not None:
            proposed = {(s.start, s.end): asked.value[i] for i, s in enumerate(sources, 1)}
    checkpoint(cancel)

    def op(uow: UnitOfWork) -> tuple[SummaryReport, ChangeRecord]:
        uow.read.require_chat_pk(chat_id)
        report = summarize_in(uow, chat_id, now, settings.lifecycle, proposed=proposed, label=label, cancel=cancel)
        checkpoint(cancel)  # raised here, the whole write rolls back
        return report, copy_change(uow, chat_id)
    return service.write(op)
