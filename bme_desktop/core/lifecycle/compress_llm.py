"""The LLM path of the ``compress`` task: the model writes each folded memory's text.

``compress_with_change`` plans the chunks in a read, asks the model once for all of them
outside the write (prompt ``compress``; the children's texts as quoted JSON), and folds in
one write with a composer that takes the model's text (and title) for a chunk it answered
and ``compose_parent`` for any other. The reply must give a text for exactly every chunk
asked (``text`` ≤ ``TEXT_CHARS``, optional ``title`` ≤ ``TITLE_CHARS``) or it is not used.
The batch description ends with ``(llm)`` or ``(rules …)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cancel import CancelToken
from ..events import ChangeRecord
from ..model import Node
from ..schema import NodeType, node_text
from ..store.unit_of_work import UnitOfWork
from .compress import (
    TEXT_CHARS,
    TITLE_CHARS,
    CompressionReport,
    candidates,
    compose_parent,
    compress_in,
    plan,
)
from .llm_step import Asked, ask_model, is_llm, model_step, text_of

if TYPE_CHECKING:
    from ..ports import ModelSteps

SCHEMA = '{"groups": [{"id": 1, "text": "...", "title": "..."}]}'
Proposal = tuple[str, str | None]  # text, title


def request_data(chunks: list[list[Node]]) -> dict[str, Any]:
    return {
        "max_chars": TEXT_CHARS,
        "max_title_chars": TITLE_CHARS,
        "groups": [
            {"id": i, "type": c[0].type, "memories": [node_text(n.type, n.fields) for n in c]}
            for i, c in enumerate(chunks, 1)
        ],
    }


def parse_groups(reply: Any, count: int) -> dict[int, Proposal] | None:
    """``{id: (text, title)}`` for exactly ids ``1..count``; ``None`` for anything else."""
    if not isinstance(reply, dict) or not isinstance(reply.get("groups"), list):
        return None
    out: dict[int, Proposal] = {}
    for item in reply["groups"]:
        if not isinstance(item, dict):
            return None
        key, text = item.get("id"), text_of(item.get("text"), TEXT_CHARS)
        title = text_of(item["title"], TITLE_CHARS, required=False) if item.get("title") is not None else ""
        if (
            isinstance(key, bool)
            or not isinstance(key, int)
            or not 1 <= key <= count
            or key in out
            or not text
            or title is None
        ):
            return None
        out[key] = (text, title or None)
    return out if len(out) == count else None


def fields_from(spec: NodeType, children: list[Node], proposal: Proposal) -> dict[str, str]:
    """The deterministic fields with the model's text (and title, if any) in place."""
    fields = compose_parent(spec, children)
    fields[spec.summary_field] = proposal[0]
    if proposal[1] and spec.title_field != spec.summary_field:
        fields[spec.title_field] = proposal[1]
    return fields


def compress_with_change(
    service: ModelSteps, chat_id: str, *, cancel: CancelToken | None = None
) -> tuple[CompressionReport, ChangeRecord]:
    settings = service.settings
    now = service.now()

    def ask(chunks: list[list[Node]]) -> Asked[dict[int, Proposal]] | None:
        if not chunks:
            return None
        return ask_model(
            service,
            chat_id,
            "compress",
            "compress",
            request_data(chunks),
            SCHEMA,
            lambda reply: parse_groups(reply, len(chunks)),
            texts=[node_text(n.type, n.fields) for c in chunks for n in c],
        )

    def write(
        uow: UnitOfWork, chunks: list[list[Node]], asked: Asked[dict[int, Proposal]] | None
    ) -> CompressionReport:
        label = asked.label if asked is not None else "rules"
        answer = asked.value if asked is not None else None
        proposed = {tuple(n.id for n in c): answer[i] for i, c in enumerate(chunks, 1)} if answer else {}

        def composer(spec: NodeType, children: list[Node]) -> dict[str, str]:
            proposal = proposed.get(tuple(n.id for n in children))
            return fields_from(spec, children, proposal) if proposal else compose_parent(spec, children)

        now_chunks = plan(candidates(uow.read, chat_id))
        all_llm = bool(proposed) and all(tuple(n.id for n in c) in proposed for c in now_chunks)
        return compress_in(
            uow,
            chat_id,
            now,
            settings.lifecycle,
            composer=composer,
            label=(label if is_llm(label) else "llm") if all_llm else ("rules" if is_llm(label) else label),
            cancel=cancel,
        )

    return model_step(service, chat_id, lambda r: plan(candidates(r, chat_id)), ask, write, cancel)
