"""The daily patrol: the latest patrol report per chat, kept in the chat's state.

``run_patrol(service, chat_id)`` computes the report (``patrol.py``, read-only) and stores
``state["patrol"] = {"at": <service clock>, "report": {...}}``. That write touches only the
chat-state key: no batch is opened and no memory, edge or summary changes, so nothing turns
up in the history and nothing can be undone. ``patrol_if_due`` does the same only when the
stored report is missing or at least a day old by the service clock; the life-cycle worker
calls it for every chat on its schedule. ``latest_patrol`` reads the stored record.

A history rollback restores the chat state from before the rolled-back batch, and with it
possibly an older report; the next due check replaces it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..store.unit_of_work import UnitOfWork
from .chat_state import read_key, set_key
from .patrol import DAY, patrol_report

if TYPE_CHECKING:
    from ..ports import Memory

STATE_KEY = "patrol"


def latest_patrol(service: Memory, chat_id: str) -> dict[str, Any] | None:
    """``{"at": float, "report": PatrolReport.to_json()}`` or None if no patrol ran yet."""
    record = service.read(lambda r: read_key(r, chat_id, STATE_KEY))
    return record if isinstance(record, dict) and "report" in record else None


def run_patrol(service: Memory, chat_id: str) -> dict[str, Any]:
    """Compute the report now and keep it as the chat's latest; returns the stored record."""
    report = patrol_report(service, chat_id)
    record: dict[str, Any] = {"at": report.at, "report": report.to_json()}

    def op(uow: UnitOfWork) -> None:
        set_key(uow, chat_id, STATE_KEY, record)

    service.write(op)
    return record


def patrol_if_due(service: Memory, chat_id: str) -> dict[str, Any] | None:
    """Run the patrol if the latest is missing or a day old; the new record, or None if not due."""
    latest = latest_patrol(service, chat_id)
    if latest is not None and service.now() - float(latest.get("at", 0.0)) < DAY:
        return None
    return run_patrol(service, chat_id)
