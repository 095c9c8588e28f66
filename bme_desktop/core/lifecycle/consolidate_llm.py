"""The LLM judge of the ``consolidate`` task: are two near-duplicates really one memory?

Lexical similarity cannot tell "Mira keeps a silver key" from "Mira keeps a silver coin"
(0.9). ``consolidate_with_change`` reads the pairs the rules would merge
(``merge_candidates``), asks the model outside the write (prompt ``consolidate``; both texts
of each pair as quoted JSON) for ``{"pairs": [{"id", "same", "merged"}]}``, and merges in
one write through the ``decider=`` seam: a pair the model calls different is kept apart
(audit ``consolidate.kept_apart``), a pair it calls the same merges with its merged text (at
most ``TEXT_CHARS``; the survivor keeps its own text when there is none). The reply is used
only when it judges exactly every pair asked; else, and for any pair not asked (beyond
``MAX_PAIRS``), the rules decide. The batch description ends with the path used.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..cancel import CancelToken
from ..events import ChangeRecord
from ..model import Node
from ..store.unit_of_work import UnitOfWork
from .consolidate import (
    ACTOR,
    ConsolidationReport,
    Vectors,
    consolidate_in,
    decide_pairs,
    main_text,
    merge_candidates,
)
from .llm_step import Asked, ask_model, is_llm, model_step, text_of

if TYPE_CHECKING:
    from ..ports import ModelSteps

SCHEMA = '{"pairs": [{"id": 1, "same": false, "merged": "..."}]}'
TEXT_CHARS = 600
MAX_PAIRS = 30
Pair = tuple[str, str]  # (older id, newer id)


@dataclass(frozen=True)
class Verdict:
    same: bool
    merged: str | None


def request_data(pairs: list[tuple[Node, Node, float]]) -> dict[str, Any]:
    return {
        "max_chars": TEXT_CHARS,
        "pairs": [
            {"id": i, "type": a.type, "a": main_text(a), "b": main_text(b)}
            for i, (a, b, _) in enumerate(pairs, 1)
        ],
    }


def parse_verdicts(reply: Any, count: int) -> dict[int, Verdict] | None:
    """``{id: Verdict}`` for exactly ids ``1..count``; ``None`` for anything else."""
    if not isinstance(reply, dict) or not isinstance(reply.get("pairs"), list):
        return None
    out: dict[int, Verdict] = {}
    for item in reply["pairs"]:
        if not isinstance(item, dict):
            return None
        key, same, merged = item.get("id"), item.get("same"), item.get("merged")
        if isinstance(key, bool) or not isinstance(key, int) or not 1 <= key <= count or key in out:
            return None
        if not isinstance(same, bool):
            return None
        text = text_of(merged, TEXT_CHARS, required=False) if same and merged is not None else ""
        if text is None:
            return None
        out[key] = Verdict(same, text or None)
    return out if len(out) == count else None


def consolidate_with_change(
    service: ModelSteps, chat_id: str, *, cancel: CancelToken | None = None
) -> tuple[ConsolidationReport, ChangeRecord]:
    settings = service.settings
    threshold = settings.lifecycle.consolidate_threshold
    now = service.now()
    Pairs = list[tuple[Node, Node, float]]

    def ask(pairs: Pairs) -> Asked[dict[int, Verdict]] | None:
        if not pairs:
            return None
        return ask_model(
            service,
            chat_id,
            "consolidate",
            "consolidate",
            request_data(pairs),
            SCHEMA,
            lambda reply: parse_verdicts(reply, len(pairs)),
            texts=[main_text(n) for a, b, _ in pairs for n in (a, b)],
        )

    def write(uow: UnitOfWork, pairs: Pairs, asked: Asked[dict[int, Verdict]] | None) -> ConsolidationReport:
        label = asked.label if asked is not None else "rules"
        answer = asked.value if asked is not None else None
        verdicts: dict[Pair, Verdict] = {}
        if answer is not None:
            verdicts = {(a.id, b.id): answer[i] for i, (a, b, _) in enumerate(pairs, 1)}
        apart: list[tuple[str, str, float]] = []

        def decider(group: list[Node], vectors: Vectors, cut: float) -> list[tuple[int, int, float]]:
            kept = []
            for i, j, sim in decide_pairs(group, vectors, cut):
                verdict = verdicts.get((group[i].id, group[j].id))
                if sim >= cut and verdict is not None and not verdict.same:
                    apart.append((group[i].id, group[j].id, sim))
                else:
                    kept.append((i, j, sim))
            return kept

        judged = all((a.id, b.id) in verdicts for a, b, _ in merge_candidates(uow.read, chat_id, threshold))
        path = (
            (label if is_llm(label) else "llm")
            if verdicts and judged
            else ("rules" if is_llm(label) else label)
        )
        texts = {pair: v.merged for pair, v in verdicts.items() if v.same and v.merged}
        report = consolidate_in(
            uow,
            chat_id,
            now,
            settings.lifecycle,
            decider=decider,
            texts=texts,
            label=path,
            judge="llm" if verdicts else "rules",
            cancel=cancel,
        )
        report.kept_apart = list(apart)
        for keep_id, drop_id, sim in apart:
            uow.audit(
                chat_id,
                ACTOR,
                "consolidate.kept_apart",
                drop_id,
                other=keep_id,
                similarity=round(sim, 4),
                judge="llm",
            )
        return report

    return model_step(
        service, chat_id, lambda r: merge_candidates(r, chat_id, threshold)[:MAX_PAIRS], ask, write, cancel
    )
