"""The ``rebuild`` maintenance task: undo every automatic batch of a chat (newest first, so
memories come back exactly as they were before extraction; manual edits are kept) and
extract the whole chat again from scratch, with automatic extraction paused meanwhile.
The drop is one write; each batch extracted again is its own write."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cancel import CancelToken, checkpoint
from ..events import ChangeRecord
from ..ingest.history import batches_to_roll_back
from ..store import journal
from ..store.unit_of_work import UnitOfWork

if TYPE_CHECKING:
    from ..ports import Writes
    from .scheduler import ExtractionWorker


def drop_extraction(uow: UnitOfWork, chat_id: str) -> ChangeRecord:
    pk = uow.read.require_chat_pk(chat_id)
    for batch_id in batches_to_roll_back(uow, pk, 0):
        journal.rollback_history(uow, batch_id)
    state = uow.chat_state(pk)
    state["extracted_to"] = -1
    state["extraction_count"] = 0
    for key in ("knowledge", "regions", "story_time", "last_extractor", "last_model", "last_note"):
        state.pop(key, None)
    uow.set_chat_state(pk, state)
    change = ChangeRecord(chat_id)
    change.merge(uow.change(chat_id))
    return change


def rebuild(
    service: Writes, worker: ExtractionWorker, chat_id: str, cancel: CancelToken | None = None
) -> ChangeRecord:
    """Cancelled before the drop, nothing changes; cancelled later, it stops before the next
    batch (raising ``Cancelled``) and the batches extracted again so far are kept."""
    with worker.pause():
        checkpoint(cancel)
        total = service.write(lambda uow: drop_extraction(uow, chat_id))
        for _window, committed in worker.extract_reported(chat_id, "rebuild", cancel):
            total.merge(committed.change)
    return total
