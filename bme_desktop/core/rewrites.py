"""Maintenance that deletes or rewrites memories, made safe (issue 19): before it runs, a plan
says what it will do ("286 memories; 41 written or edited by hand are kept"); the run is then
recorded as one step of the undo history, so one Undo puts every memory, link, summary, batch
status and the chat's extraction state back as they were — or the plan says why it cannot.

How: the chat's rows (nodes, edges, summaries), its batches' statuses and its state are read
before the task and again after it, inside the write that records the step. What differs goes
into one ``manual`` batch whose journal holds full row images plus two kinds of entries only
this module writes: ``batches`` (a batch's status before/after) and ``chat_state`` (the chat's
state before/after). The service's undo and redo go through :func:`undo_batch` /
:func:`redo_batch` here, which handle such a batch and hand any other to ``store.journal``.

The step includes the intake of the memories it wrote and the after-extraction steps its
batches asked for: that work runs on the life-cycle worker's thread (the bus only queues it),
and ``record_step`` waits for the chat's queued work (``wait_for_follow_up``) before it reads
the chat (so an earlier extraction's intake is not taken into the step) and again before it
records (so the step's own is). Undo and redo therefore do not wait: the step's follow-up
work is in it, and what is queued later belongs to later writes (an extraction after the step
refuses its undo; the intake leaves memories written by hand alone).

Undo refuses, saying why, when memories were extracted from new messages after the step
(they were built on the rewritten memories; putting the old ones back would mix the two).
Automatic bookkeeping after the step (intake cards, upkeep) is overwritten by the undo: it was
derived from the rewritten memories, and its batches are closed so a later history rollback
never replays them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .cancel import Cancelled, CancelToken
from .errors import Conflict
from .events import ChangeRecord
from .store import journal as store_journal
from .store.chat_rows import insert_batch
from .store.reader import Reader
from .store.unit_of_work import UnitOfWork

if TYPE_CHECKING:
    from sqlalchemy import Connection

    from .ports import Rewriting

# Tasks that delete or rewrite memories: the UI asks before running them.
DESTRUCTIVE_TASKS = ("rebuild", "consolidate", "compress", "fold")
# Tasks recorded as one undoable step when run through ``run_recorded`` (vectors are no memories).
RECORDED_TASKS = ("rebuild", "consolidate", "compress", "fold", "summarize", "reflect", "persona", "upkeep")
UNDO_ROW_LIMIT = 300_000  # rows (memories + links + summaries) above which no undo copy is kept
REWRITE_MARK = "chat_state"  # the journal entry that makes a batch a recorded rewrite
ROW_TABLES = ("nodes", "edges", "summaries")
EXTRACTED_TYPES_NOTE = ("synopsis", "reflection")  # written by their own tasks, not by extraction


@dataclass(frozen=True)
class RewritePlan:
    """What running ``task`` on a chat will do, said before it runs."""

    task: str
    memories: int  # live memories now
    by_hand: int  # of them written or edited by hand (a rebuild keeps these)
    messages: int  # messages a rebuild reads again
    dropped_by_type: dict[str, int] = field(
        default_factory=dict
    )  # rebuild: what is undone and extracted again
    undoable: bool = True
    why_not: str = ""  # "" or "too_large" (with ``rows``)
    rows: int = 0  # rows an undo copy would hold

    @property
    def dropped(self) -> int:
        return sum(self.dropped_by_type.values())

    @property
    def destructive(self) -> bool:
        return self.task in DESTRUCTIVE_TASKS


class RewriteRefused(store_journal.JournalConflict):
    """Undoing a recorded rewrite would mix it with what was built on it since."""


class RewriteRunning(Conflict):
    """Undo or redo asked for while a recorded rewrite runs on the chat: it would step past it."""


def plan_rewrite(service: Rewriting, chat_id: str, task: str) -> RewritePlan:
    """Blocking (a worker's call): the numbers the confirmation shows, read in one go."""

    def read(reader: Reader) -> RewritePlan:
        by_type, by_hand, messages, rows = reader.rewrite_counts(reader.require_chat_pk(chat_id), ROW_TABLES)
        undoable = rows <= UNDO_ROW_LIMIT
        return RewritePlan(
            task=task,
            memories=sum(by_type.values()) + by_hand,
            by_hand=by_hand,
            messages=messages,
            dropped_by_type=dict(by_type) if task == "rebuild" else {},
            undoable=undoable,
            why_not="" if undoable else "too_large",
            rows=rows,
        )

    return service.read(read)


# snapshots ---------------------------------------------------------------------------------
@dataclass
class Snapshot:
    rows: dict[str, dict[str, dict[str, Any]]]  # table -> id -> full row
    batches: dict[int, str]  # batch id -> status
    state: dict[str, Any]


def _snapshot(conn: Connection, pk: int) -> Snapshot:
    return Snapshot(
        store_journal.chat_images(conn, pk, ROW_TABLES),
        store_journal.batch_statuses(conn, pk),
        dict(Reader(conn).chat_state(pk)),
    )


def _record(uow: UnitOfWork, chat_id: str, task: str, before: Snapshot) -> int | None:
    """Write the difference between ``before`` and now as one undoable manual batch (None when
    nothing changed). Runs on the writer, so nothing else writes between the read and the record."""
    pk = uow.read.require_chat_pk(chat_id)
    after = _snapshot(uow.conn, pk)
    journal: list[dict[str, Any]] = []
    for name in ROW_TABLES:
        old, new = before.rows[name], after.rows[name]
        for row_id in sorted(old.keys() | new.keys()):
            if old.get(row_id) != new.get(row_id):
                journal.append(
                    {"table": name, "id": row_id, "before": old.get(row_id), "after": new.get(row_id)}
                )
    for batch_id, status in sorted(after.batches.items()):
        if before.batches.get(batch_id) != status:
            was = before.batches.get(batch_id)
            journal.append(
                {
                    "table": "batches",
                    "id": batch_id,
                    "before": None if was is None else {"status": was},
                    "after": {"status": status},
                }
            )
    if not journal and before.state == after.state:
        return None
    journal.append({"table": REWRITE_MARK, "id": chat_id, "before": before.state, "after": after.state})
    batch_id = insert_batch(
        uow,
        chat_pk=pk,
        kind="manual",
        status="applied",
        read_from=None,
        read_to=None,
        created_at=uow.now,
        actor="user",
        description=task,
        journal=journal,
        state_before=before.state,
    )
    uow.discard_redo(chat_id, keep=batch_id)  # a new step clears the redo stack, as any edit does
    uow.audit(chat_id, "user", task, str(batch_id), entries=len(journal))
    return batch_id


def run_recorded(
    service: Rewriting,
    chat_id: str,
    task: str,
    cancel: CancelToken | None = None,
    *,
    plan: RewritePlan | None = None,
) -> ChangeRecord:
    """Run maintenance ``task`` and record all it changed as one undoable step (when the plan
    allows an undo copy; otherwise it just runs). A cancelled run that kept some of its work
    (a rebuild stops between batches) is recorded too, then ``Cancelled`` is raised again."""

    def run() -> ChangeRecord:
        return service.run_maintenance(chat_id, task, cancel=cancel).value

    if task not in RECORDED_TASKS:
        return run()
    plan = plan or plan_rewrite(service, chat_id, task)
    if not plan.undoable:
        return run()
    return record_step(service, chat_id, task, run, plan=plan)


def record_step(
    service: Rewriting,
    chat_id: str,
    description: str,
    work: Callable[[], ChangeRecord],
    *,
    plan: RewritePlan | None = None,
) -> ChangeRecord:
    """Run ``work`` and record everything it changed in the chat as one undoable step named
    ``description`` (just run it when the chat is too large for an undo copy). ``work`` that
    raises ``Cancelled`` after keeping some of its work is recorded too, then re-raised."""
    plan = plan or plan_rewrite(service, chat_id, description)
    if not plan.undoable:
        return work()
    service.flush_later_writes()
    # The intake of memories written before the step is no part of it (an undo would take it back).
    service.wait_for_follow_up(chat_id)
    pk = service.read(lambda r: r.require_chat_pk(chat_id))
    service.rewriting.add(chat_id)  # an undo meanwhile would step past this run: refused until recorded
    try:
        before = service.read(lambda r: _snapshot(r.conn, pk))
        try:
            change = work()
        except Cancelled:
            service.wait_for_follow_up(chat_id)
            service.write(lambda uow: _record(uow, chat_id, description, before))
            raise
        # The intake of the memories the step wrote is part of it (queued by its events).
        service.wait_for_follow_up(chat_id)
        change.batch_id = service.write(lambda uow: _record(uow, chat_id, description, before))
    finally:
        service.rewriting.discard(chat_id)
    return change


# undo / redo -------------------------------------------------------------------------------
def is_rewrite(batch: dict[str, Any]) -> bool:
    return any(entry.get("table") == REWRITE_MARK for entry in batch["journal"])


def _batch(uow: UnitOfWork, batch_id: int, status: str) -> dict[str, Any]:
    row = store_journal.batch_row(uow, batch_id)
    if row["status"] != status:
        raise store_journal.JournalConflict(f"batch {batch_id} is {row['status']}, not {status}")
    return row


def undo_batch(uow: UnitOfWork, batch_id: int) -> None:
    """Undo a manual batch: a recorded rewrite here, any other edit by ``store.journal``."""
    _move(uow, batch_id, "applied", "before", "undone", store_journal.undo_batch)


def redo_batch(uow: UnitOfWork, batch_id: int) -> None:
    _move(uow, batch_id, "undone", "after", "applied", store_journal.redo_batch)


def _move(
    uow: UnitOfWork,
    batch_id: int,
    status: str,
    image: str,
    new_status: str,
    otherwise: Callable[[UnitOfWork, int], None],
) -> None:
    """Put a recorded rewrite's rows, batch statuses and chat state to their ``image``. Refused
    once memories were extracted from new messages after it; other automatic batches after it
    (bookkeeping built on what it changed) are closed so a history rollback never replays them."""
    batch = _batch(uow, batch_id, status)
    if not is_rewrite(batch):
        otherwise(uow, batch_id)
        return
    later = store_journal.later_automatic_batches(uow, batch)
    if any(kind == "extract" for _, kind in later):
        raise RewriteRefused(
            f"memories were extracted from new messages after this {batch['description']}; "
            "undoing or redoing it would mix the two"
        )
    _step(uow, batch, image)
    for later_id, _kind in later:
        store_journal.set_batch_status(uow, later_id, "rolled_back")
    store_journal.set_batch_status(uow, batch_id, new_status)


def _step(uow: UnitOfWork, batch: dict[str, Any], image: str) -> None:
    pk = int(batch["chat_pk"])
    chat_id = uow.chat_id_of(pk)
    entries = batch["journal"] if image == "after" else list(reversed(batch["journal"]))
    for entry in entries:
        name = entry["table"]
        if name in ROW_TABLES:
            store_journal.apply_image(uow, chat_id, name, entry["id"], entry[image])
        elif name == "batches":
            status = (entry[image] or {}).get("status", "rolled_back")  # made by the step: closed on undo
            store_journal.set_batch_status(uow, int(entry["id"]), status)
        elif name == REWRITE_MARK:
            uow.set_chat_state(pk, store_journal.keep_sync_state(uow.chat_state(pk), dict(entry[image])))
