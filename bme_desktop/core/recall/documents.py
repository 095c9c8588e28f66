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
    """The text a memory is embedded from: its title, then its rendered fields."""
    body = body_text(node)
    title = node.title.strip()
    text = body if not title or body.startswith(title) else f"{title}. {body}"
    return text[:EMBED_CHARS]


def lexical_fields(node: Node) -> dict[str, str]:
    return {"title": node.title, "body": body_text(node)}
