"""Kept recall records: one per user message, editable, deletable, re-runnable."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, select

from ..errors import NotFound
from ..model import RecallRecord, RecallRequest, RecallResult
from ..providers.tokens import estimate_tokens
from . import tables as t
from .rows import row_to_recall
from .unit_of_work import UnitOfWork


def recalled_node_json(result: RecallResult) -> list[dict[str, Any]]:
    return [
        {
            "id": r.node.id,
            "type": r.node.type,
            "title": r.node.title,
            "score": round(r.score, 6),
            "bucket": r.bucket,
            "source_indices": list(r.node.source_indices),
            "components": {k: round(v, 6) for k, v in r.components.items()},
        }
        for r in result.nodes
    ]


def store_recall_record(uow: UnitOfWork, request: RecallRequest, result: RecallResult) -> None:
    assert request.index is not None
    pk = uow.read.require_chat_pk(request.chat_id)
    existing = uow.read.recall_record(request.chat_id, request.index)
    row = {
        "user_input": request.user_input,
        "injection": result.injection,
        "token_estimate": result.token_estimate,
        "elapsed_ms": result.elapsed_ms,
        "nodes": recalled_node_json(result),
        "manually_edited": False,
        "updated_at": uow.now,
    }
    if existing is None:
        uow.conn.execute(
            t.recall_records.insert().values(chat_pk=pk, idx=request.index, created_at=uow.now, **row)
        )
    else:
        uow.conn.execute(
            t.recall_records.update()
            .where(t.recall_records.c.chat_pk == pk, t.recall_records.c.idx == request.index)
            .values(**row)
        )


def edit_recall_injection(uow: UnitOfWork, chat_id: str, index: int, injection: str) -> RecallRecord:
    pk = uow.read.require_chat_pk(chat_id)
    where = (t.recall_records.c.chat_pk == pk, t.recall_records.c.idx == index)
    if uow.conn.execute(select(t.recall_records.c.idx).where(*where)).first() is None:
        raise NotFound(f"no kept recall for message {index} in chat {chat_id!r}")
    uow.conn.execute(
        t.recall_records.update()
        .where(*where)
        .values(
            injection=injection,
            token_estimate=estimate_tokens(injection),
            manually_edited=True,
            updated_at=uow.now,
        )
    )
    uow.audit(chat_id, "user", "edit_recall", str(index))
    row = uow.conn.execute(select(t.recall_records).where(*where)).mappings().one()
    return row_to_recall(row, chat_id)


def delete_recall(uow: UnitOfWork, chat_id: str, index: int) -> bool:
    pk = uow.read.require_chat_pk(chat_id)
    result = uow.conn.execute(
        delete(t.recall_records).where(t.recall_records.c.chat_pk == pk, t.recall_records.c.idx == index)
    )
    return bool(result.rowcount)
