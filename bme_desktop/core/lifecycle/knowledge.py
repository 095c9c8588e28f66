"""Meta-memory: "what do I know about X, and how sure am I?" — read-only, never a review.

``what_do_i_know(service, chat_id, about)`` finds the memories (any tier, not deleted)
whose title or text contains ``about`` (case-insensitive) and reports for each: how often
recall confirmed it (``recall_count``), its strength (current retrievability), tier, review
status, age in days and number of neighbours (valid edges). Asking does not strengthen
anything: no hit is recorded, nothing is written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..model import Knowledge as Knowledge
from ..model import KnownMemory as KnownMemory
from ..schema import node_text
from ..settings import LifecycleSettings
from ..store.reader import Reader
from .recall_hits import current_retrievability

if TYPE_CHECKING:
    from ..ports import Memory

DAY = 86400.0


def _gather(read: Reader, chat_id: str, about: str, now: float, settings: LifecycleSettings) -> Knowledge:
    report = Knowledge(about)
    needle = about.strip().casefold()
    if not needle or read.chat_pk(chat_id) is None:
        return report
    matches = [
        n
        for n in read.all_nodes(chat_id)
        if needle in n.title.casefold() or needle in node_text(n.type, n.fields).casefold()
    ]
    degree: dict[str, int] = {}
    for edge in read.edges(chat_id, include_invalid=False):
        for end in {edge.from_id, edge.to_id}:
            degree[end] = degree.get(end, 0) + 1
    for n in matches:
        report.hits.append(
            KnownMemory(
                n.id,
                n.type,
                n.title,
                node_text(n.type, n.fields),
                n.recall_count,
                round(current_retrievability(n, now, settings), 4),
                n.tier,
                n.review_status,
                round(max(now - n.created_at, 0.0) / DAY, 2),
                degree.get(n.id, 0),
            )
        )
    report.hits.sort(key=lambda h: (-h.strength, -h.confirmations, h.id))
    return report


def what_do_i_know(service: Memory, chat_id: str, about: str) -> Knowledge:
    now, settings = service.now(), service.settings.lifecycle
    return service.read(lambda r: _gather(r, chat_id, about, now, settings))
