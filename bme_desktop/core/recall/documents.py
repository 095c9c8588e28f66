"""What recall sees of a memory: whether it may be recalled at all, and its text."""

from __future__ import annotations

from ..lifecycle.tiers import is_sleeping, is_visible
from ..model import Node
from ..schema import NODE_TYPES, node_text

EMBED_CHARS = 1200


def recallable(node: Node) -> bool:
    """Whether recall keeps this memory in its state: awake or sleeping (dormant, expired) and
    not rejected. Which of them a recall may return is decided per recall (the review gate,
    and a direct ask for a sleeping one); deleted, rejected and merged memories never are."""
    return node.review_status != "rejected" and (is_visible(node) or is_sleeping(node))


def body_text(node: Node) -> str:
    if node.type in NODE_TYPES:
        return node_text(node.type, node.fields)
    return " ".join(v for v in node.fields.values() if v).replace("\n", " ")


def embed_text(node: Node) -> str:
    """The text a memory is embedded from: its title, then its rendered fields.

    An event is embedded from what was said (its summary and status): its title repeats the
    summary's first sentence and its participants list the names the summary already holds, so
    both are left out where that is so (31 % of an event's tokens on an import, e5's cost
    being linear in tokens; docs/embedders.md). A stored vector of another text is embedded
    again by the vector index (its text hash no longer matches)."""
    if node.type == "event":
        return _event_text(node)[:EMBED_CHARS]
    body = body_text(node)
    title = node.title.strip()
    text = body if not title or body.startswith(title) else f"{title}. {body}"
    return text[:EMBED_CHARS]


def _event_text(node: Node) -> str:
    fields = {k: v for k, v in node.fields.items() if isinstance(v, str)}
    summary = fields.get("summary", "").strip()
    title = fields.get("title", "").strip()
    if summary and title.rstrip("…").strip() in summary:
        fields["title"] = ""
    participants = fields.get("participants", "")
    if summary and all(n.strip() in summary for n in participants.split(",")):
        fields["participants"] = ""
    return node_text("event", fields)


def lexical_fields(node: Node) -> dict[str, str]:
    return {"title": node.title, "body": body_text(node)}
