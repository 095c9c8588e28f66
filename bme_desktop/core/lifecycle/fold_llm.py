"""The LLM path of the ``fold`` task: the model writes each roll-up of summaries a level up.

``fold_with_change`` plans the folds due now among the existing active summaries
(``fold_groups``, the same oldest-first choice ``fold_in`` makes), asks the model once for all
of them outside the write (prompt ``fold``; the children's texts as quoted JSON), and folds in
one write: the model's text where it gave a valid one for exactly every group asked, else the
extractive text. A roll-up that only becomes due because of this pass's own roll-ups (a
cascade) always gets the extractive text. Each batch description ends with ``(llm)`` or
``(rules …)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cancel import CancelToken
from ..events import ChangeRecord
from ..model import Summary
from ..settings import LifecycleSettings
from ..store.reader import Reader
from ..store.unit_of_work import UnitOfWork
from .llm_step import Asked, ask_model, model_step, numbered_texts
from .summaries import ROLLUP_CHARS, SummaryReport, fold_in

if TYPE_CHECKING:
    from ..ports import ModelSteps

SCHEMA = '{"rollups": [{"id": 1, "text": "..."}]}'
MAX_CHARS = 2 * ROLLUP_CHARS


def fold_groups(read: Reader, chat_id: str, settings: LifecycleSettings) -> list[list[Summary]]:
    """The groups of existing active summaries ``fold_in`` will fold first, level by level."""
    active = read.summaries(chat_id, status="active")
    groups: list[list[Summary]] = []
    for level in sorted({s.level for s in active}):
        same = sorted(
            (s for s in active if s.level == level),
            key=lambda s: (s.start_index if s.start_index is not None else -1, s.created_at),
        )
        while len(same) > settings.fold_above:
            groups.append(same[: settings.fold_above])
            same = same[settings.fold_above :]
    return groups


def request_data(groups: list[list[Summary]]) -> dict[str, Any]:
    return {
        "max_chars": ROLLUP_CHARS,
        "groups": [{"id": i, "summaries": [s.text for s in group]} for i, group in enumerate(groups, 1)],
    }


def parse_rollups(reply: Any, count: int) -> dict[int, str] | None:
    """``{id: text}`` for exactly ids ``1..count``; ``None`` for anything else."""
    return numbered_texts(reply, "rollups", count, MAX_CHARS)


def fold_with_change(
    service: ModelSteps, chat_id: str, *, cancel: CancelToken | None = None
) -> tuple[SummaryReport, ChangeRecord]:
    settings = service.settings
    now = service.now()

    def ask(groups: list[list[Summary]]) -> Asked[dict[int, str]] | None:
        if not groups:
            return None
        return ask_model(
            service,
            chat_id,
            "fold",
            "fold",
            request_data(groups),
            SCHEMA,
            lambda reply: parse_rollups(reply, len(groups)),
            texts=[s.text for g in groups for s in g],
        )

    def write(
        uow: UnitOfWork, groups: list[list[Summary]], asked: Asked[dict[int, str]] | None
    ) -> SummaryReport:
        answer = asked.value if asked is not None else None
        proposed = (
            {tuple(s.id for s in g): answer[i] for i, g in enumerate(groups, 1)} if answer is not None else {}
        )
        return fold_in(
            uow,
            chat_id,
            now,
            settings.lifecycle,
            proposed=proposed,
            label=asked.label if asked is not None else "rules",
            cancel=cancel,
        )

    return model_step(
        service, chat_id, lambda r: fold_groups(r, chat_id, settings.lifecycle), ask, write, cancel
    )
