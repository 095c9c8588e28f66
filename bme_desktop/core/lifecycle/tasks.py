"""Life-cycle steps as maintenance tasks: each runs in one write on the writer thread, as of
``service.now()``, leaves at most one journaled batch, and returns what changed."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

from ..cancel import CancellableTask, CancelToken, checkpoint
from ..events import ChangeRecord, Initiator
from ..operations import acting
from ..settings import LifecycleSettings
from ..store.unit_of_work import UnitOfWork
from .upkeep import UpkeepReport, copy_change, upkeep_in

if TYPE_CHECKING:
    from ..ports import Memory, TaskRegistry

Step = Callable[[UnitOfWork, str, float, LifecycleSettings], Any]


class CancellableStep(Protocol):
    """A step that also takes ``cancel=`` (checked in its loops)."""

    def __call__(
        self,
        uow: UnitOfWork,
        chat_id: str,
        now: float,
        settings: LifecycleSettings,
        *,
        cancel: CancelToken | None = None,
    ) -> Any: ...


def run_step(
    service: Memory, chat_id: str, step: Step, cancel: CancelToken | None = None
) -> tuple[Any, ChangeRecord]:
    """Run ``step(uow, chat_id, now, settings)`` in one write; its result and the change record.
    ``cancel`` is checked before the commit (a cancelled step's write rolls back)."""
    settings = service.settings.lifecycle
    now = service.now()

    def op(uow: UnitOfWork) -> tuple[Any, ChangeRecord]:
        uow.read.require_chat_pk(chat_id)
        result = step(uow, chat_id, now, settings)
        checkpoint(cancel)
        return result, copy_change(uow, chat_id)

    with acting(Initiator.UPKEEP):
        return service.write(op)


def run_upkeep(service: Memory, chat_id: str) -> UpkeepReport:
    """One upkeep pass now (also the ``upkeep`` maintenance task)."""
    report: UpkeepReport = run_step(service, chat_id, upkeep_in)[0]
    return report


def _task(service: Memory, step: CancellableStep) -> CancellableTask:
    """A maintenance task running ``step`` in one write, with ``cancel`` handed to the step."""

    def task(chat_id: str, cancel: CancelToken | None) -> ChangeRecord:
        return run_step(service, chat_id, partial(step, cancel=cancel), cancel)[1]

    return CancellableTask(task)


def steps() -> dict[str, Step]:
    """The maintenance task name → step table (imports kept local: one module per step)."""
    from .compress import compress_in
    from .consolidate import consolidate_in
    from .persona import persona_in
    from .summaries import fold_in, summarize_in

    table: dict[str, Step] = {
        "upkeep": upkeep_in,
        "consolidate": consolidate_in,
        "summarize": summarize_in,
        "fold": fold_in,
        "compress": compress_in,
        "persona": persona_in,
    }
    return table


def after_extraction_steps() -> dict[str, Step]:
    """Steps the worker runs after each extraction; each checks its own ``auto_*`` gate."""
    from .compress import auto_compress_in
    from .persona import auto_persona_in
    from .reflect import auto_reflect_in
    from .working_memory import working_in

    table = steps()
    return {
        "summarize": table["summarize"],
        "fold": table["fold"],
        "compress": auto_compress_in,
        "reflect": auto_reflect_in,
        "persona": auto_persona_in,
        "working": working_in,
    }


def register_tasks(service: TaskRegistry) -> None:
    from .compress_llm import compress_with_change
    from .consolidate_llm import consolidate_with_change
    from .fold_llm import fold_with_change
    from .persona_llm import persona_with_change
    from .reflect import reflect_with_change
    from .summaries_llm import summarize_with_change

    service.add_maintenance_task("upkeep", _task(service, upkeep_in))
    # tasks that may ask an LLM first (outside the write), then write what it proposed
    with_change: dict[str, Callable[..., tuple[Any, ChangeRecord]]] = {
        "reflect": reflect_with_change,
        "summarize": summarize_with_change,
        "compress": compress_with_change,
        "persona": persona_with_change,
        "consolidate": consolidate_with_change,
        "fold": fold_with_change,
    }
    for name, run in with_change.items():
        service.add_maintenance_task(name, _llm_task(service, run))


def _llm_task(service: TaskRegistry, run: Callable[..., tuple[Any, ChangeRecord]]) -> CancellableTask:
    def task(chat_id: str, cancel: CancelToken | None) -> ChangeRecord:
        return run(service, chat_id, cancel=cancel)[1]

    return CancellableTask(task)
