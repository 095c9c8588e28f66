"""Import at the memory level, with a preview of what it will do before anything is written.

Modes, for a chat of the file that already exists here (a chat that does not exist is
created whole, in every mode):

- ``skip`` (default): memories already here — the same id, or a live memory of the same
  type and title — are left alone; the others are added. Importing a file twice changes
  nothing the second time.
- ``merge``: like skip, but a memory already here is *reinforced* by the file's: it keeps
  its own text and gains the fields it lacks, the higher importance, recall count and
  retrievability, the later recall and update times and the union of the message indices
  it came from. Same id and a newer file version: the file's version is taken ("updated").
  Merging is idempotent: a second merge of the same file is all "skipped".
- ``new``: every memory of the file is added as a new memory (new ids), even duplicates.
- ``replace``: the chat is replaced by the file's (memories here and not in the file are
  "deleted").

Edges follow their memories (an edge that already says the same is skipped), messages and
kept recalls fill only the indices that are free, summaries only ids that are free. The plan
is computed again inside the one write transaction, so what is written is what the preview
said (unless the memory changed in between, in which case the new state is what counts).
"""

from __future__ import annotations

import uuid
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

from ..model import Edge, Node
from ..schema import RELATIONS
from ..store import chat_rows
from ..store.rows import edge_to_row, node_to_row
from ..store.unit_of_work import UnitOfWork
from .export import node_to_json
from .importer import (
    ImportResult,
    delete_chat_rows,
    extraction_paused,
    import_chat,
    insert_messages,
    insert_recall_records,
    remap_json,
    write_followed,
)
from .validate import ChatDoc

if TYPE_CHECKING:
    from ..ports import Backups

MemoryMode = Literal["skip", "merge", "new", "replace"]
MODES: tuple[MemoryMode, ...] = ("skip", "merge", "new", "replace")
OUTCOMES = ("new", "updated", "skipped", "merged", "deleted")
MAX_EXAMPLES = 5


@dataclass
class ImportPlan:
    mode: str
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(OUTCOMES, 0))
    examples: dict[str, list[str]] = field(default_factory=lambda: {o: [] for o in OUTCOMES})
    new_chats: list[str] = field(default_factory=list)
    links_added: int = 0
    messages_added: int = 0
    written: bool = False

    def note(self, outcome: str, chat_id: str, title: str, n: int = 1) -> None:
        self.counts[outcome] += n
        if len(self.examples[outcome]) < MAX_EXAMPLES:
            self.examples[outcome].append(f"{chat_id}: {title}")

    @property
    def changes(self) -> int:
        c = self.counts
        return c["new"] + c["updated"] + c["merged"] + c["deleted"] + self.links_added + self.messages_added

    def lines(self) -> list[str]:
        c = self.counts
        out = [
            f"{c['new']} new, {c['updated']} updated, {c['skipped']} skipped, {c['merged']} merged, "
            f"{c['deleted']} deleted memories; {self.links_added} links and {self.messages_added} messages "
            "added" + (f"; new chats: {', '.join(self.new_chats)}" if self.new_chats else "")
        ]
        for outcome in OUTCOMES:
            if self.examples[outcome]:
                more = c[outcome] - len(self.examples[outcome])
                out.append(
                    f"  {outcome}: {'; '.join(self.examples[outcome])}" + (f" (+{more} more)" if more else "")
                )
        return out


def _key(node: Node) -> tuple[str, str]:
    return node.type, " ".join(node.title.casefold().split())


def _same(a: Node, b: Node) -> bool:
    ja, jb = node_to_json(a), node_to_json(b)
    for volatile in ("id", "batch_id"):
        ja.pop(volatile)
        jb.pop(volatile)
    return ja == jb


def _later(a: float | None, b: float | None) -> float | None:
    return b if a is None else a if b is None else max(a, b)


def reinforce(here: Node, incoming: Node) -> Node:
    """``here`` strengthened by ``incoming`` (idempotent: reinforcing twice changes nothing more)."""
    return replace(
        here,
        fields={**incoming.fields, **here.fields},
        importance=max(here.importance, incoming.importance),
        recall_count=max(here.recall_count, incoming.recall_count),
        retrievability=max(here.retrievability, incoming.retrievability),
        last_recalled_at=_later(here.last_recalled_at, incoming.last_recalled_at),
        updated_at=max(here.updated_at, incoming.updated_at),
        pinned=here.pinned or incoming.pinned,
        source_indices=sorted(set(here.source_indices) | set(incoming.source_indices)),
        srs=here.srs if here.srs is not None else incoming.srs,
    )


def _into_existing(
    uow: UnitOfWork, chat: ChatDoc, target: str, mode: MemoryMode, plan: ImportPlan, write: bool
) -> None:
    here = {n.id: n for n in uow.read.all_nodes(target, include_deleted=True)}
    by_key = {_key(n): n for n in here.values() if n.deleted_at is None}
    taken_nodes = chat_rows.taken_ids(uow.read, "nodes", [n.id for n in chat.nodes])
    ids: dict[str, str] = {}  # file node id → id here
    writes: list[tuple[Node, bool]] = []  # (node to put, new?) once every id is known
    for node in chat.nodes:
        match = None if mode == "new" else here.get(node.id) or by_key.get(_key(node))
        if match is None:
            ids[node.id] = uuid.uuid4().hex if mode == "new" or node.id in taken_nodes else node.id
            plan.note("new", target, node.title)
            writes.append((replace(node, id=ids[node.id], chat_id=target, batch_id=None), True))
            continue
        ids[node.id] = match.id
        if mode == "skip":
            plan.note("skipped", target, match.title)
            continue
        if match.id == node.id and node.updated_at > match.updated_at:
            result, outcome = replace(node, chat_id=target, batch_id=match.batch_id), "updated"
        else:
            result, outcome = reinforce(match, node), "merged" if match.id != node.id else "updated"
        if _same(result, match):
            plan.note("skipped", target, match.title)
            continue
        plan.note(outcome, target, match.title)
        writes.append((result, False))
    if write:
        pk = uow.read.require_chat_pk(target)
        record = uow.change(target)
        fresh: list[dict[str, Any]] = []  # new ids are free: inserted 500 rows a statement
        for node, new in writes:
            if not new:
                uow.put_node(node)
                continue
            parent = None if node.parent_id is None else ids.get(node.parent_id)
            fresh.append(node_to_row(replace(node, parent_id=parent, flags=remap_json(node.flags, ids)), pk))
            record.node_added(node.id)
        chat_rows.insert_rows(uow, "nodes", fresh)
    taken_edges = chat_rows.taken_ids(uow.read, "edges", [e.id for e in chat.edges])
    edges_here = chat_rows.edge_ids(uow.read, target) if chat.edges else set()
    edge_rows: list[dict[str, Any]] = []
    for edge in chat.edges:
        a, b = ids[edge.from_id], ids[edge.to_id]
        if mode != "new" and (edge.id in edges_here or _says_already(uow, target, a, b, edge)):
            continue
        plan.links_added += 1
        if write:
            new_id = uuid.uuid4().hex if mode == "new" or edge.id in taken_edges else edge.id
            edge_rows.append(
                edge_to_row(
                    replace(edge, id=new_id, chat_id=target, from_id=a, to_id=b, batch_id=None),
                    uow.read.require_chat_pk(target),
                )
            )
            uow.change(target).edge_added(new_id)
    if write:
        chat_rows.insert_rows(uow, "edges", edge_rows)
    _fill_free(uow, chat, target, ids, plan, write)


def _says_already(uow: UnitOfWork, chat_id: str, a: str, b: str, edge: Edge) -> bool:
    if edge.deleted_at is not None:
        return True  # a deleted edge is not brought into a chat that has its own history
    found = uow.read.valid_edge_between(chat_id, a, b, edge.relation)
    relation = RELATIONS.get(edge.relation)
    if found is None and relation is not None and not relation.directed:
        found = uow.read.valid_edge_between(chat_id, b, a, edge.relation)
    return found is not None


def _fill_free(
    uow: UnitOfWork, chat: ChatDoc, target: str, ids: dict[str, str], plan: ImportPlan, write: bool
) -> None:
    """Messages and kept recalls at free indices; summaries under free ids."""
    have = {m.index for m in uow.read.messages(target)}
    messages = [m for m in chat.messages if m.index not in have]
    plan.messages_added += len(messages)
    if not write:
        return
    pk = uow.read.require_chat_pk(target)
    if messages:
        insert_messages(uow, pk, replace(chat, messages=messages))
        uow.change(target).messages_changed = True
    recalls_have = {r.index for r in uow.read.recall_records(target)}
    records = [r for r in chat.recall_records if r.index not in recalls_have]
    if records:
        insert_recall_records(uow, pk, replace(chat, recall_records=records), ids)
    taken = chat_rows.taken_ids(uow.read, "summaries", [s.id for s in chat.summaries])
    for s in chat.summaries:
        if s.id not in taken:
            uow.put_summary(
                replace(s, chat_id=target, batch_id=None, source_ids=remap_json(s.source_ids, ids))
            )


def _run(uow: UnitOfWork, chats: Collection[ChatDoc], mode: MemoryMode, write: bool) -> ImportPlan:
    plan = ImportPlan(mode)
    result = ImportResult()
    for chat in chats:
        target = chat.chat_id
        exists = uow.read.chat_pk(target) is not None
        if exists and mode != "replace":
            _into_existing(uow, chat, target, mode, plan, write)
        else:
            if exists:
                incoming = {n.id: n for n in chat.nodes}
                for node in uow.read.all_nodes(target, include_deleted=True):
                    if node.id not in incoming:
                        plan.note("deleted", target, node.title)
                    elif _same(node, replace(incoming[node.id], chat_id=target)):
                        plan.note("skipped", target, node.title)
                    else:
                        plan.note("updated", target, node.title)
                here = {n.id for n in uow.read.all_nodes(target, include_deleted=True)}
                for node in chat.nodes:
                    if node.id not in here:
                        plan.note("new", target, node.title)
            else:
                plan.new_chats.append(target)
                for node in chat.nodes:
                    plan.note("new", target, node.title)
                plan.links_added += len(chat.edges)
                plan.messages_added += len(chat.messages)
            if write:
                if exists:
                    delete_chat_rows(uow, target)
                import_chat(uow, chat, target, force_remap=False, result=result)
        if write:
            uow.audit(
                target,
                "import",
                "import",
                None,
                source_chat=chat.chat_id,
                mode=mode,
                **{k: v for k, v in plan.counts.items()},
            )
    plan.written = write
    return plan


def preview_import(service: Backups, chats: Collection[ChatDoc], mode: MemoryMode) -> ImportPlan:
    """What ``import_memories`` would do, writing nothing."""
    return service.write(lambda uow: _run(uow, chats, mode, write=False))


def import_memories(service: Backups, chats: Collection[ChatDoc], mode: MemoryMode = "skip") -> ImportPlan:
    """Import in one transaction under the extraction pause; returns what was done."""
    with extraction_paused(service):
        return write_followed(service, lambda uow: _run(uow, chats, mode, write=True))
