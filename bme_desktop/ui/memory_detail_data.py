"""What the detail panes show about one memory, gathered in one worker call: the source
messages it was drawn from, its history (previous values kept by extraction and the audit
log entries naming it) and its links with the other ends' titles."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core.model import Edge, Message, Node
from ..core.service import MemoryService

AUDIT_SCAN = 2000  # newest audit rows of the chat searched for this node


@dataclass(frozen=True)
class HistoryEntry:
    at: float | None  # None: extraction history does not keep a time
    actor: str
    action: str  # an audit action id, or "revised" for a previous value kept by extraction
    detail: str = ""


@dataclass(frozen=True)
class LinkRow:
    edge: Edge
    outgoing: bool
    other_id: str
    other_title: str


@dataclass
class NodeDetails:
    node: Node
    sources: list[Message] = field(default_factory=list)
    history: list[HistoryEntry] = field(default_factory=list)
    links: list[LinkRow] = field(default_factory=list)


def first_line(text: str, limit: int = 80) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _history(node: Node, audit: list[dict[str, Any]], successor: Node | None = None) -> list[HistoryEntry]:
    entries = [
        HistoryEntry(at=row["at"], actor=row["actor"], action=row["action"])
        for row in audit
        if row.get("target") == node.id
    ]
    if node.flags.get("superseded_by"):  # a later statement replaced it (see core/extract/supersede.py)
        validity = node.flags.get("validity") or {}
        until = validity.get("until_index")
        title = (
            first_line(successor.title or successor.fields.get("statement", ""))
            if successor is not None
            else str(node.flags["superseded_by"])
        )
        at = validity.get("invalidated_at")
        entries.append(
            HistoryEntry(
                at=float(at) if isinstance(at, int | float) else None,
                actor="extraction",
                action="superseded",
                detail=f"{title} (#{until})" if until is not None else title,
            )
        )
    for kept in reversed(node.flags.get("history", [])):
        if isinstance(kept, dict) and "superseded_by" in kept:
            continue  # shown above
        previous = kept.get("fields", {}) if isinstance(kept, dict) else {}
        detail = "; ".join(f"{k}: {v or '∅'}" for k, v in previous.items())
        entries.append(HistoryEntry(at=None, actor="extraction", action="revised", detail=detail))
    return entries


def load_details(service: MemoryService, chat_id: str, node_id: str) -> NodeDetails:
    """Runs on a worker."""
    node = service.get_node(chat_id, node_id, include_deleted=True)
    wanted = sorted(set(node.source_indices))
    sources = (
        [m for m in service.messages(chat_id, wanted[0], wanted[-1]) if m.index in wanted] if wanted else []
    )
    audit = service.audit(chat_id, limit=AUDIT_SCAN)
    edges = [e for e in service.edges(chat_id, node_id=node_id) if e.is_valid]
    others = {e.to_id if e.from_id == node_id else e.from_id for e in edges}
    titles = {n.id: n.title for n in service.nodes_by_ids(chat_id, others)}
    links = [
        LinkRow(
            edge=e,
            outgoing=e.from_id == node_id,
            other_id=(other := e.to_id if e.from_id == node_id else e.from_id),
            other_title=titles.get(other, other),
        )
        for e in edges
    ]
    successor_id = node.flags.get("superseded_by")
    successor = service.find_node(chat_id, str(successor_id), include_deleted=True) if successor_id else None
    return NodeDetails(node=node, sources=sources, history=_history(node, audit, successor), links=links)


def neighbours(service: MemoryService, chat_id: str, index: int, around: int = 2) -> list[Message]:
    """A message with ``around`` messages either side (runs on a worker)."""
    return service.messages(chat_id, max(0, index - around), index + around)
