"""Which injection bucket a recalled memory goes to, and the order buckets are written in."""

from __future__ import annotations

from ..model import Node

CORE_TYPES = {"rule": "Rules", "thread": "Plot threads", "synopsis": "Story so far"}
RECALLED_TYPES = {
    "character": "Current state",
    "location": "Current state",
    "event": "Events",
    "fact": "Facts",
    "reflection": "Reflections",
}
ARCHIVE = "archive"
BUCKET_TITLES = {
    "summary": "Story so far",
    "rule": "Rules",
    "thread": "Plot threads",
    "state": "Current state",
    "event": "Events",
    "fact": "Facts",
    "reflection": "Reflections",
    ARCHIVE: "From the chat archive (verbatim messages)",
}
BUCKET_ORDER = ("summary", "rule", "thread", "state", "event", "fact", "reflection", "pov", ARCHIVE)
CLOSED_THREAD = {"resolved", "closed", "done", "abandoned", "finished"}


def is_core(node: Node) -> bool:
    """Rules in force, open plot threads and active summaries go into every injection."""
    if node.type not in CORE_TYPES:
        return False
    status = node.fields.get("status", "").strip().lower()
    return status not in CLOSED_THREAD and status != "inactive"


def bucket_of(node: Node) -> str:
    if node.type == "message":
        return ARCHIVE
    if node.type == "pov_memory" or node.scope.layer == "pov":
        return f"pov:{node.scope.owner or 'unknown'}"
    if node.type in ("character", "location"):
        return "state"
    if node.type == "synopsis":
        return "summary"
    if node.type in ("rule", "thread", "event", "fact", "reflection"):
        return node.type
    return "fact"


def bucket_rank(bucket: str) -> tuple[int, str]:
    head = bucket.split(":", 1)[0]
    return (BUCKET_ORDER.index(head) if head in BUCKET_ORDER else len(BUCKET_ORDER), bucket)


def bucket_title(bucket: str) -> str:
    if bucket.startswith("pov:"):
        owner = bucket.split(":", 1)[1].split(":", 1)[-1]
        return f"{owner}'s point of view (what they believe; may be wrong)"
    return BUCKET_TITLES.get(bucket, bucket.title())
