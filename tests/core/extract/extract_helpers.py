"""Shared helpers for the write-path tests: opening services and comparing graphs."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bme_desktop.core.events import Event
from bme_desktop.core.extract.runner import ModelExtractor
from bme_desktop.core.extract.scheduler import attach
from bme_desktop.core.model import MessageIn
from bme_desktop.core.service import MemoryService
from bme_desktop.core.settings import Settings

Canon = tuple[frozenset[Any], frozenset[Any]]


@contextmanager
def open_service(
    path: Path,
    settings: Settings | None = None,
    *,
    everything: bool = False,
    model: Callable[[], ModelExtractor | None] | None = None,
) -> Iterator[MemoryService]:
    """A service with only the extraction pipeline attached (``everything``: all pipelines)."""
    svc = MemoryService.open(path, settings=settings or Settings(), attach=everything)
    if not everything:
        worker = attach(svc)
        if model is not None:
            worker.runner.model = model
    try:
        yield svc
    finally:
        svc.close()


def record_events(svc: MemoryService) -> list[Event]:
    events: list[Event] = []
    svc.events.subscribe(events.append)
    return events


def canonical_graph(svc: MemoryService, chat_id: str) -> Canon:
    """Nodes by type + fields + source indices; edges by their ends' identity + relation +
    validity. Random ids and timestamps are left out."""
    nodes = svc.all_nodes(chat_id)
    ident = {
        n.id: (n.type, json.dumps(n.fields, sort_keys=True, ensure_ascii=False), tuple(n.source_indices))
        for n in nodes
    }
    node_set = frozenset((*ident[n.id], n.tier, n.importance) for n in nodes)
    edges = frozenset(
        (ident.get(e.from_id), ident.get(e.to_id), e.relation, e.valid_until is None)
        for e in svc.edges(chat_id)
    )
    assert len(node_set) == len(nodes), "two memories are identical"
    return node_set, edges


def chat(*turns: tuple[str, str], names: tuple[str, str] = ("Tom", "Alice")) -> list[MessageIn]:
    """Messages from (role, text) pairs; users are named ``names[0]``, assistants ``names[1]``."""
    return [
        MessageIn(i, role, text, name=names[0] if role == "user" else names[1])
        for i, (role, text) in enumerate(turns)
    ]
