"""Import of validated chats: one transaction on the writer thread, under the extraction
pause, all or nothing.

Modes: ``new`` (the target chat must not exist), ``replace`` (an existing target chat is
emptied first, in the same transaction) and ``merge`` (chats that already exist are left
alone and skipped). Node, edge and summary ids are kept when they are free and remapped
(all of a chat's at once) when any is taken or the chat is imported under another id.
Batches always get new numbers; extraction batches get a journal of the rows they created,
so an edited message still rolls back the memories drawn from it. Undo history does not
travel: imported manual batches are marked ``discarded``.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Collection, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from ..events import Initiator
from ..operations import acting
from ..ports import Pausable
from ..scopes import identity_key
from ..store import chat_rows
from ..store.rows import edge_to_row, node_to_row, summary_to_row
from ..store.unit_of_work import UnitOfWork
from .format import BackupError
from .validate import ChatDoc

if TYPE_CHECKING:
    from ..ports import Backups, Pipelines

ImportMode = Literal["new", "replace", "merge"]
T = TypeVar("T")


@dataclass
class ImportResult:
    imported: list[str] = field(default_factory=list)  # target chat ids written
    skipped: list[str] = field(default_factory=list)  # merge mode: chats that already existed
    nodes: int = 0
    edges: int = 0
    messages: int = 0
    remapped: list[str] = field(default_factory=list)  # chats whose ids were remapped
    deleted: list[str] = field(default_factory=list)  # chats a restored chain had deleted


def extraction_paused(service: Pipelines) -> AbstractContextManager[None]:
    """The extraction scheduler's restore lock, where the scheduler has one."""
    extraction = service.extraction
    return extraction.pause() if isinstance(extraction, Pausable) else nullcontext()


def import_chats(
    service: Backups,
    chats: Collection[ChatDoc],
    *,
    mode: ImportMode = "new",
    as_chat: str | None = None,
    delete: Sequence[str] = (),
) -> ImportResult:
    """Import ``chats`` in one transaction; ``delete`` names chats to delete in the same
    transaction (a restored chain's deleted chats)."""
    if as_chat is not None:
        if len(chats) != 1:
            raise BackupError("chats", f"holds {len(chats)} chats; importing under one id needs exactly one")
        if not as_chat or len(as_chat) > 256 or "\x00" in as_chat:
            raise BackupError("chat_id", "the new chat id must be text of 1 to 256 characters")
    with extraction_paused(service):
        return write_followed(service, lambda uow: _import_all(uow, chats, mode, as_chat, delete))


def write_followed(service: Backups, fn: Callable[[UnitOfWork], T]) -> T:
    """``fn`` written as an import, returning once the work its events queued is done (the
    intake of the memories it wrote, on the life-cycle worker's thread), still under the
    caller's extraction pause: an extraction batch never comes before that intake."""

    def op(uow: UnitOfWork) -> tuple[T, list[str]]:
        return fn(uow), [chat_id for chat_id, change in uow.changes.items() if change.nodes_added]

    with acting(Initiator.IMPORT):
        result, chat_ids = service.write(op)
    for chat_id in chat_ids:
        service.wait_for_follow_up(chat_id)
    return result


def _import_all(
    uow: UnitOfWork,
    chats: Collection[ChatDoc],
    mode: ImportMode,
    as_chat: str | None,
    delete: Sequence[str] = (),
) -> ImportResult:
    result = ImportResult()
    for chat_id in delete:
        if uow.read.chat_pk(chat_id) is not None:
            delete_chat_rows(uow, chat_id)
            uow.deleted.append(chat_id)
            result.deleted.append(chat_id)
    for pos, chat in enumerate(chats):
        target = as_chat or chat.chat_id
        if uow.read.chat_pk(target) is not None:
            if mode == "merge":
                result.skipped.append(target)
                continue
            if mode == "new":
                raise BackupError(
                    f"chats[{pos}].chat_id",
                    f"chat {target!r} already exists (import it under another id, or replace it)",
                )
            delete_chat_rows(uow, target)
        import_chat(uow, chat, target, force_remap=as_chat is not None, result=result)
        uow.audit(
            target,
            "import",
            "import",
            None,
            source_chat=chat.chat_id,
            mode=mode,
            nodes=len(chat.nodes),
            edges=len(chat.edges),
            messages=len(chat.messages),
        )
    return result


delete_chat_rows = chat_rows.delete_chat_rows


def _ids_taken(uow: UnitOfWork, chat: ChatDoc) -> bool:
    return (
        chat_rows.any_id_taken(uow.read, "nodes", [n.id for n in chat.nodes])
        or chat_rows.any_id_taken(uow.read, "edges", [e.id for e in chat.edges])
        or chat_rows.any_id_taken(uow.read, "summaries", [s.id for s in chat.summaries])
    )


def remap_json(value: Any, ids: dict[str, str]) -> Any:
    """Replace every string that is a remapped id, anywhere inside a JSON value."""
    if isinstance(value, str):
        return ids.get(value, value)
    if isinstance(value, list):
        return [remap_json(v, ids) for v in value]
    if isinstance(value, dict):
        return {k: remap_json(v, ids) for k, v in value.items()}
    return value


def import_chat(
    uow: UnitOfWork, chat: ChatDoc, target: str, *, force_remap: bool, result: ImportResult
) -> None:
    remap = force_remap or _ids_taken(uow, chat)
    ids: dict[str, str] = {}
    if remap:
        for old in [n.id for n in chat.nodes] + [e.id for e in chat.edges] + [s.id for s in chat.summaries]:
            ids[old] = uuid.uuid4().hex
        result.remapped.append(target)
    pk = chat_rows.insert_chat(
        uow,
        chat_id=target,
        character=chat.character,
        user_name=chat.user,
        created_at=chat.created_at,
        character_id=chat.identity.character_id,
        persona_id=chat.identity.persona_id,
        world=chat.identity.world,
        isolated=bool(chat.identity.isolated),
        character_key=identity_key(chat.identity.character_id, chat.character),
        persona_key=identity_key(chat.identity.persona_id, chat.user),
        last_activity=chat.last_activity,
        revision=chat.revision,
        state=remap_json(chat.state, ids),
    )
    batches = _insert_batches(uow, pk, chat)
    insert_messages(uow, pk, chat)
    journals: dict[int, list[dict[str, Any]]] = {}

    def new_batch(old: int | None) -> int | None:
        return None if old is None else batches[old]

    # Every id is free here (checked above, or fresh): plain bulk inserts, 500 rows a statement.
    record = uow.change(target)
    rows: list[dict[str, Any]] = []
    for node in chat.nodes:
        n = replace(
            node,
            id=ids.get(node.id, node.id),
            chat_id=target,
            batch_id=new_batch(node.batch_id),
            parent_id=None if node.parent_id is None else ids.get(node.parent_id, node.parent_id),
            flags=remap_json(node.flags, ids),
        )
        rows.append(node_to_row(n, pk))
        record.node_added(n.id)
        _journal(journals, n.batch_id, "nodes", n.id, rows[-1])
    chat_rows.insert_rows(uow, "nodes", rows)
    rows = []
    for edge in chat.edges:
        e = replace(
            edge,
            id=ids.get(edge.id, edge.id),
            chat_id=target,
            from_id=ids.get(edge.from_id, edge.from_id),
            to_id=ids.get(edge.to_id, edge.to_id),
            batch_id=new_batch(edge.batch_id),
        )
        rows.append(edge_to_row(e, pk))
        record.edge_added(e.id)
        _journal(journals, e.batch_id, "edges", e.id, rows[-1])
    chat_rows.insert_rows(uow, "edges", rows)
    rows = []
    for summary in chat.summaries:
        s = replace(
            summary,
            id=ids.get(summary.id, summary.id),
            chat_id=target,
            batch_id=new_batch(summary.batch_id),
            source_ids=remap_json(summary.source_ids, ids),
        )
        rows.append(summary_to_row(s, pk))
        _journal(journals, s.batch_id, "summaries", s.id, rows[-1])
    chat_rows.insert_rows(uow, "summaries", rows)
    insert_recall_records(uow, pk, chat, ids)
    extract_batches = {batches[b["id"]] for b in chat.batches if b["kind"] == "extract"}
    for batch_id, entries in journals.items():
        if batch_id in extract_batches:
            chat_rows.set_batch_journal(uow, batch_id, entries)
    uow.change(target).messages_changed = bool(chat.messages)
    result.imported.append(target)
    result.nodes += len(chat.nodes)
    result.edges += len(chat.edges)
    result.messages += len(chat.messages)


def _journal(
    journals: dict[int, list[dict[str, Any]]],
    batch_id: int | None,
    table: str,
    row_id: str,
    row: dict[str, Any],
) -> None:
    if batch_id is not None:
        journals.setdefault(batch_id, []).append({"table": table, "id": row_id, "before": None, "after": row})


def _insert_batches(uow: UnitOfWork, pk: int, chat: ChatDoc) -> dict[int, int]:
    out: dict[int, int] = {}
    for b in chat.batches:
        status = (
            "discarded" if b["kind"] == "manual" and b["status"] in ("applied", "undone") else b["status"]
        )
        out[b["id"]] = chat_rows.insert_batch(
            uow,
            chat_pk=pk,
            kind=b["kind"],
            status=status,
            read_from=b["read_from"],
            read_to=b["read_to"],
            created_at=b["created_at"],
            actor=b["actor"],
            description=b["description"],
            journal=[],
            state_before=None,
        )
    return out


def insert_messages(uow: UnitOfWork, pk: int, chat: ChatDoc) -> None:
    rows = [
        {
            "chat_pk": pk,
            "idx": m.index,
            "role": m.role,
            "name": m.name,
            "text": m.text,
            "swipe_id": m.swipe_id,
            "time": m.time,
            "fingerprint": m.fingerprint,
            "stored_at": uow.now,
        }
        for m in chat.messages
    ]
    chat_rows.insert_rows(uow, "messages", rows)


def insert_recall_records(uow: UnitOfWork, pk: int, chat: ChatDoc, ids: dict[str, str]) -> None:
    rows = [
        {
            "chat_pk": pk,
            "idx": r.index,
            "user_input": r.user_input,
            "injection": r.injection,
            "token_estimate": r.token_estimate,
            "elapsed_ms": r.elapsed_ms,
            "nodes": remap_json(r.nodes, ids),
            "manually_edited": r.manually_edited,
            "created_at": r.created_at,
            "updated_at": r.updated_at,
        }
        for r in chat.recall_records
    ]
    chat_rows.insert_rows(uow, "recall_records", rows)
