"""Shared helpers for the life-cycle tests: automatic memories made the way extraction makes them."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sqlalchemy import select

from bme_desktop.core import editing
from bme_desktop.core.events import Event
from bme_desktop.core.lifecycle.working_memory import todo_lines
from bme_desktop.core.model import Node
from bme_desktop.core.service import MemoryService
from bme_desktop.core.store import tables as t

DAY = 86400.0
CHAT = "chat-1"


def auto_node(
    service: MemoryService,
    type_id: str,
    fields: dict[str, str],
    *,
    tier: str = "long_term",
    importance: float = 5.0,
    chat_id: str = CHAT,
    source_indices: list[int] | None = None,
) -> Node:
    """A memory created by an automatic step (not by hand), in its own extract-like batch."""

    def op(uow: Any) -> Node:
        uow.ensure_chat(chat_id)
        uow.begin_batch(chat_id, "extract", actor="test", read_from=None, read_to=None)
        node = editing.create_node(
            uow,
            chat_id,
            editing.NodeDraft(
                type=type_id,
                fields=fields,
                tier=tier,
                importance=importance,
                source_indices=source_indices or [],
            ),
            manual=False,
        )
        uow.end_batch()
        return node

    return service.write(op)


def node_rows(service: MemoryService, chat_id: str = CHAT) -> dict[str, dict[str, Any]]:
    def op(r: Any) -> dict[str, dict[str, Any]]:
        pk = r.require_chat_pk(chat_id)
        rows = r.conn.execute(select(t.nodes).where(t.nodes.c.chat_pk == pk)).mappings()
        return {row["id"]: dict(row) for row in rows}

    return service.read(op)


def get(service: MemoryService, node_id: str, chat_id: str = CHAT) -> Node:
    return service.get_node(chat_id, node_id)


def llm_on(service: MemoryService, base_url: str) -> list[Event]:
    """Point the service's LLM at ``base_url`` (fast, no retries); returns the error events seen."""
    service.settings = replace(
        service.settings,
        llm=replace(
            service.settings.llm, enabled=True, base_url=base_url, model="m", timeout_s=2.0, max_retries=0
        ),
    )
    errors: list[Event] = []
    service.events.subscribe(lambda e: errors.append(e) if e.type == "error" else None)
    return errors


def working_memory_lines(service: MemoryService, chat_id: str = CHAT) -> list[str]:
    """The open to-dos as recall would inject them now (empty when the chat does not exist)."""
    now, settings = service.now(), service.settings.lifecycle
    return service.read(lambda r: todo_lines(r, chat_id, now, settings) if r.chat_pk(chat_id) else [])
