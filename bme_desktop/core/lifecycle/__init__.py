"""The memory life cycle: tiers, spaced-repetition scheduling, upkeep, the review centre,
consolidation, summaries, reflection and the patrol report.

Public API for recall and the UI (see ``docs/lifecycle.md``)::

    record_recall_hits(service, chat_id, node_ids) -> HitReport
    current_retrievability(node, now, settings) -> float
    recall_strength(node, now, settings) -> float
    is_visible(node) / is_injectable(node) -> bool
    run_upkeep(service, chat_id) -> UpkeepReport
    wake(service, chat_id, node_id) -> Node
    undo_lifecycle_batch(service, chat_id, batch_id) -> None
"""

from __future__ import annotations

from .recall_hits import HitReport, current_retrievability, recall_strength, record_recall_hits
from .tasks import run_upkeep
from .tiers import is_injectable, is_visible
from .upkeep import UpkeepReport
from .wake import undo_lifecycle_batch, wake
from .worker import LifecycleWorker, attach

__all__ = [
    "HitReport",
    "LifecycleWorker",
    "UpkeepReport",
    "attach",
    "current_retrievability",
    "is_injectable",
    "is_visible",
    "recall_strength",
    "record_recall_hits",
    "run_upkeep",
    "undo_lifecycle_batch",
    "wake",
]
