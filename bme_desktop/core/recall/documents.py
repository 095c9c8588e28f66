"""What recall sees of a memory: whether it may be recalled at all, and its text."""

from __future__ import annotations

from ..lifecycle.tiers import is_injectable
from ..model import Node
from ..schema import NODE_TYPES, node_text

EMBED_CHARS = 1200


def recallable(node: Node) -> bool:
    """Only visible, approved memories are injected: dormant, archived, deleted, rejected and
    still-pending memories are never returned (the life cycle's rule)."""
    return is_injectable(node)


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
