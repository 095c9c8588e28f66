"""The review queue as a reviewer sees it: each pending memory with why it is waiting and the
messages it came from, so it can be judged without opening anything else (issue 19).

The reason is a code with its numbers (``ReviewReason``), never a sentence: the front end
words it in the user's language. Reading a card costs one node read and one message read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..model import Message, Node
from ..model import ReviewCard as ReviewCard
from ..model import ReviewReason as ReviewReason
from ..settings import LifecycleSettings
from .tiers import PROMOTED_FLAG

if TYPE_CHECKING:
    from ..ports import Editing

MAX_SOURCES = 4  # the messages shown under a card; the rest are counted
REASONS = (
    "kept_after_rollback",
    "promoted",
    "compressed",
    "reopened",
    "new_long_term",
    "new",
    "edited_pending",
    "marked",
)


def review_reason(node: Node, settings: LifecycleSettings) -> ReviewReason:
    """Why ``node`` is (or would be) in the review queue, from what the store recorded."""
    flags = node.flags or {}
    if "kept_after_rollback" in flags:
        return ReviewReason("kept_after_rollback", {"note": str(flags["kept_after_rollback"])})
    if flags.get(PROMOTED_FLAG):
        return ReviewReason("promoted", {"recalls": node.recall_count, "at": flags.get("promoted_at")})
    reviewed = flags.get("reviewed")
    if isinstance(reviewed, dict) and reviewed.get("status") == "pending":
        return ReviewReason("reopened", {"by": str(reviewed.get("by", "")), "at": reviewed.get("at")})
    if isinstance(flags.get("children"), list):
        return ReviewReason("compressed", {"children": len(flags["children"])})
    if node.manually_edited:
        return ReviewReason("edited_pending")
    if settings.audit_mode == "all":
        return ReviewReason("new", {"tier": node.tier})
    if settings.audit_mode == "long_term" and node.tier == "long_term":
        return ReviewReason("new_long_term")
    return ReviewReason("marked")


def review_card(service: Editing, chat_id: str, node_id: str) -> ReviewCard:
    """Blocking (a worker's call): the memory, why it waits and the messages it came from."""
    node = service.get_node(chat_id, node_id)
    indices = sorted(set(node.source_indices))
    shown = indices[:MAX_SOURCES]
    sources: list[Message] = []
    if shown and shown[-1] - shown[0] < 4 * MAX_SOURCES:  # close together: one read of the span
        wanted = set(shown)
        sources = [m for m in service.messages(chat_id, shown[0], shown[-1]) if m.index in wanted]
    else:
        sources = [m for i in shown for m in service.messages(chat_id, i, i)]
    return ReviewCard(
        node=node,
        reason=review_reason(node, service.settings.lifecycle),
        sources=sources,
        more_sources=len(indices) - len(shown),
    )
