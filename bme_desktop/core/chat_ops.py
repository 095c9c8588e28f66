"""ST-BME's hand-run operations over a chat's messages (issue 17): extraction mode *pending*
(extract only what was not read yet) and *rerun* (roll a range back and extract it again from
scratch), rebuilding the summary state from the extraction batches, rebuilding vectors for a
message range, and *force evolve* (new memories revise the older memories they are linked to).

Each one runs through :func:`run_operation`, the one entry point the bridge, the CLI and the
Actions panel use. It checks the input first and changes nothing when it is bad (an unknown
chat is ``NotFound``, a bad range ``ValidationError``, nothing to do ``NothingToDo``); then the
operation runs with automatic extraction paused and is recorded as **one** step of the chat's
undo history (``rewrites.record_step``), except the vector rebuild: vectors are a cache of the
memories' texts, not memories, so there is nothing to undo. Progress goes out on the event bus
as ``maintenance.progress`` ``{"task", "done", "total"}`` (the bridge forwards it on
``/v1/events``; the Actions panel draws it).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .cancel import CancelToken, checkpoint
from .errors import Conflict, NotFound, ValidationError
from .events import ChangeRecord, Initiator, MaintenanceProgressed
from .operations import acting
from .store import journal
from .store.reader import Reader
from .store.unit_of_work import UnitOfWork

if TYPE_CHECKING:
    from .ports import ChatOperations

# The operations, by the task name the bridge and the CLI use.
OPERATIONS = ("extract_pending", "reextract", "rebuild_summaries", "rebuild_vectors", "evolve")
RANGED = ("reextract", "rebuild_vectors", "evolve")  # take ``start``/``end`` (message indices)


class NothingToDo(Conflict):
    """The operation has nothing to work on (every message is extracted, no memory in range…)."""


@dataclass(frozen=True)
class MessageRange:
    start: int
    end: int  # inclusive


@dataclass
class OperationResult:
    task: str
    change: ChangeRecord
    done: int  # batches extracted, summaries written, memories re-embedded or revised
    range: MessageRange | None = None
    detail: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"done": self.done, **self.detail}
        if self.range is not None:
            out["range"] = {"from": self.range.start, "to": self.range.end}
        return out


Progress = Callable[[int, int], None]


# input checks ------------------------------------------------------------------------------
@dataclass(frozen=True)
class ChatFacts:
    last_index: int  # -1 when the chat holds no message
    extracted_to: int
    evolved_to: int


def chat_facts(reader: Reader, chat_id: str) -> ChatFacts:
    row = reader.chat_row(chat_id)
    if row is None:
        raise NotFound(f"no chat named {chat_id!r}")
    last = reader.last_message_index(row["pk"])
    state = dict(row["state"] or {})
    extracted = state.get("extracted_to")
    evolved = state.get("evolved_to")
    return ChatFacts(
        int(last) if last is not None else -1,
        extracted if isinstance(extracted, int) else -1,
        evolved if isinstance(evolved, int) else -1,
    )


def check_range(start: int | None, end: int | None, facts: ChatFacts) -> MessageRange | None:
    """The range asked for, checked against the chat; None when neither end was given."""
    if start is None and end is None:
        return None
    for name, value in (("from", start), ("to", end)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise ValidationError(name, "must be a message index (a whole number ≥ 0)")
    if facts.last_index < 0:
        raise NothingToDo("the chat holds no messages")
    lo = 0 if start is None else start
    hi = facts.last_index if end is None else end
    if lo > facts.last_index:
        raise ValidationError("from", f"the chat's last message is {facts.last_index}")
    if lo > hi:
        raise ValidationError("from", f"must not be after 'to' ({lo} > {hi})")
    return MessageRange(lo, min(hi, facts.last_index))


# the entry point ---------------------------------------------------------------------------
def run_operation(
    service: ChatOperations,
    chat_id: str,
    task: str,
    *,
    start: int | None = None,
    end: int | None = None,
    cancel: CancelToken | None = None,
    progress: Progress | None = None,
) -> OperationResult:
    """Check, then run ``task`` (one of ``OPERATIONS``) as one undoable step; blocking."""
    if task not in OPERATIONS:
        raise ValidationError("task", f"must be one of {', '.join(OPERATIONS)}")
    if task not in RANGED and (start is not None or end is not None):
        raise ValidationError("from", f"{task} takes no message range")
    facts = service.read(lambda r: chat_facts(r, chat_id))
    rng = check_range(start, end, facts)

    def report(done: int, total: int) -> None:
        service.events.publish(MaintenanceProgressed(chat_id, task, done, total))
        if progress is not None:
            progress(done, total)

    if task == "rebuild_vectors":
        from .evolve import rebuild_vectors

        return rebuild_vectors(service, chat_id, rng, cancel, report)
    from .rewrites import record_step

    with _paused(service), acting(Initiator.UPKEEP):
        facts = service.read(lambda r: chat_facts(r, chat_id))  # again: a batch may have finished meanwhile
        runner = _prepare(service, chat_id, task, rng, facts, report)
        holder: list[OperationResult] = []

        def work() -> ChangeRecord:
            holder.append(runner(cancel))
            return holder[-1].change

        change = record_step(service, chat_id, task, work)
    result = holder[0]
    result.change = change
    return result


@contextlib.contextmanager
def _paused(service: ChatOperations) -> Iterator[None]:
    """Hold automatic extraction back, so nothing else writes the chat inside the step."""
    from .extract.scheduler import ExtractionWorker

    worker = service.extraction
    if isinstance(worker, ExtractionWorker):
        with worker.pause():
            yield
    else:
        yield


Runner = Callable[[CancelToken | None], OperationResult]


def _prepare(
    service: ChatOperations,
    chat_id: str,
    task: str,
    rng: MessageRange | None,
    facts: ChatFacts,
    report: Progress,
) -> Runner:
    """Check that ``task`` has something to do (raising before anything is written) and
    return the function that does it."""
    if task in ("extract_pending", "reextract"):
        from .extract.scheduler import ExtractionWorker

        worker = service.extraction
        if not isinstance(worker, ExtractionWorker):
            raise Conflict("no extractor is attached to this data folder")
        if task == "extract_pending":
            if facts.extracted_to >= facts.last_index:
                raise NothingToDo("every message is extracted already")
            target = facts.last_index
            return lambda cancel: _extract_until(
                service, worker, chat_id, task, None, facts.extracted_to, target, cancel, report
            )
        if rng is None:
            raise ValidationError("from", "reextract needs the first message of the range")
        if rng.start > facts.extracted_to:
            raise NothingToDo(f"messages from {rng.start} on were never extracted: extract the pending ones")
        target = max(rng.end, facts.extracted_to)

        def rerun(cancel: CancelToken | None) -> OperationResult:
            checkpoint(cancel)
            dropped, after = service.write(lambda uow: drop_from(uow, chat_id, rng.start))
            result = _extract_until(
                service, worker, chat_id, task, MessageRange(after + 1, target), after, target, cancel, report
            )
            result.detail["rolled_back"] = dropped
            return result

        return rerun
    if task == "rebuild_summaries":
        batches = service.read(lambda r: len(r.batches(chat_id, status="applied", kind="extract")))
        if not batches:
            raise NothingToDo("the chat has no extraction batches to summarise")
        return lambda cancel: rebuild_summaries(service, chat_id, cancel, report)
    from .evolve import plan_evolve, run_evolve

    plan = service.read(lambda r: plan_evolve(r, chat_id, rng, facts))
    if not plan.new_count:
        where = (
            f"from messages {rng.start}–{rng.end}"
            if rng is not None
            else f"since the last evolve (message {facts.evolved_to})"
        )
        raise NothingToDo(f"no new memory {where}")
    if not plan.pairs:
        raise NothingToDo("no new memory is linked to an older one that it could revise")
    return lambda cancel: run_evolve(service, chat_id, plan, cancel, report)


# extraction: pending / rerun ---------------------------------------------------------------
def extraction_from(uow: UnitOfWork, pk: int, start: int) -> list[int]:
    """The first extraction batch that read message ``start`` or later, and every automatic
    batch after it (built on it), newest first. Only extraction batches decide where to start:
    a bookkeeping batch that read the whole chat (working memory) must not pull it back to 0."""
    rows = uow.read.applied_batches(pk)
    stale = [
        bid for bid, kind, read_to in rows if kind == "extract" and read_to is not None and read_to >= start
    ]
    if not stale:
        return []
    return sorted((bid for bid, kind, _ in rows if bid >= min(stale) and kind != "manual"), reverse=True)


def drop_from(uow: UnitOfWork, chat_id: str, start: int) -> tuple[int, int]:
    """Roll back every extraction that read message ``start`` or later (and the automatic
    batches after it, built on it), newest first. Extraction resumes where the first batch
    rolled back began (at or before ``start``: a batch is undone whole). Returns the number
    of batches rolled back and the new ``extracted_to``."""
    pk = uow.read.require_chat_pk(chat_id)
    rolled = extraction_from(uow, pk, start)
    for batch_id in rolled:
        journal.rollback_history(uow, batch_id)
    state = uow.chat_state(pk)
    if isinstance(state.get("extracted_to"), int) and state["extracted_to"] >= start:
        state["extracted_to"] = start - 1
    if isinstance(state.get("evolved_to"), int) and state["evolved_to"] >= start:
        state["evolved_to"] = start - 1
    uow.set_chat_state(pk, state)
    return len(rolled), int(state.get("extracted_to", -1))


def _extract_until(
    service: ChatOperations,
    worker: Any,
    chat_id: str,
    task: str,
    rng: MessageRange | None,
    after: int,
    target: int,
    cancel: CancelToken | None,
    report: Progress,
) -> OperationResult:
    """Extract batch after batch until message ``target`` is read (or nothing more is due: a
    trailing user message waits for its reply). Cancelled, it stops before the next batch."""
    total = ChangeRecord(chat_id)
    count = 0
    span = max(1, target - after)
    report(0, span)
    with contextlib.closing(worker.extract_batches(chat_id, cancel)) as batches:
        for window, committed in batches:
            total.merge(committed.change)
            count += 1
            report(min(span, window.end - after), span)
            if window.end >= target:
                break
    if count == 0 and task == "extract_pending":
        raise NothingToDo("no batch is due: the last messages wait for an assistant reply")
    return OperationResult(task, total, count, rng, {"batches": count})


# summary state -------------------------------------------------------------------------------
SUMMARY_BATCH_KINDS = ("summarize", "fold")


def drop_summaries(uow: UnitOfWork, chat_id: str) -> int:
    """Remove every summary and close the batches that wrote them (a history rollback must
    not replay them); the count removed."""
    return uow.drop_summaries(chat_id, SUMMARY_BATCH_KINDS)


def rebuild_summaries(
    service: ChatOperations, chat_id: str, cancel: CancelToken | None, report: Progress
) -> OperationResult:
    """Drop the summary state and write it again from the extraction batches: the small
    summaries (``summarize``, every ``summary_every`` batches) then the roll-ups (``fold``),
    each through its task, so a configured model writes them as the hand-run tasks do."""
    report(0, 3)
    checkpoint(cancel)
    change = ChangeRecord(chat_id)
    dropped = service.write(lambda uow: drop_summaries(uow, chat_id))
    report(1, 3)
    for n, task in enumerate(("summarize", "fold"), 2):
        checkpoint(cancel)
        if task in service.maintenance_tasks:
            change.merge(service.run_maintenance(chat_id, task, cancel=cancel).value)
        report(n, 3)
    written = service.read(lambda r: r.summaries(chat_id))
    active = sum(1 for s in written if s.status == "active")
    return OperationResult(
        "rebuild_summaries",
        change,
        len(written),
        detail={"removed": dropped, "summaries": len(written), "active": active},
    )
