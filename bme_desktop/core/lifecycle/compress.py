"""Compression (maintenance task ``compress``): fold old memories of a crowded group into one.

A group is one node type, one level and one scope (the point-of-view owner, or the region
of objective memories). Types with ``NodeType.compression = (threshold, fan_in, max_depth,
keep_recent)`` take part. When a group's active (short- or long-term, not rejected, not
pinned) memories number more than ``threshold``, all of them except the ``keep_recent``
newest fold ``fan_in`` at a time, oldest first, into a level + 1 memory that carries the
highest importance, the union of ``source_indices`` and ``flags["children"]``. Children
are archived (``flags["compressed_into"]``, ``parent_id``), never deleted; their edges move
to the new memory. A level + 1 beyond ``max_depth`` is never written. One ``compress``
batch per pass, undone exactly by ``undo_lifecycle_batch``.

The text is deterministic (the children's main statements joined and trimmed); the seam
``composer=`` takes ``compose_parent``'s place. The hand-run task asks the LLM first
(``compress_llm``, outside the write) and the batch description ends with the path used.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from .. import editing
from ..cancel import CancelToken, checkpoint
from ..model import Node, Scope
from ..schema import NODE_TYPES, NodeType
from ..settings import LifecycleSettings
from ..store.reader import Reader
from ..store.unit_of_work import UnitOfWork

ACTOR = "lifecycle"
TEXT_CHARS = 600
TITLE_CHARS = 120
GroupKey = tuple[str, int, str, str]
Composer = Callable[[NodeType, list[Node]], dict[str, str]]


@dataclass
class CompressionReport:
    batch_id: int | None = None
    created: list[str] = field(default_factory=list)
    folded: dict[str, list[str]] = field(default_factory=dict)  # new id -> children ids


def _trim(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def compose_parent(spec: NodeType, children: list[Node]) -> dict[str, str]:
    """The folded memory's fields: the children's main statements joined in order (trimmed),
    and a title naming the first and last child when the type has a title field."""
    statements = [(c.fields.get(spec.summary_field) or c.title).strip() for c in children]
    sep = "；" if any("\u4e00" <= ch <= "\u9fff" for s in statements for ch in s) else "; "
    fields = {spec.summary_field: _trim(sep.join(s for s in statements if s), TEXT_CHARS)}
    titles = [(c.fields.get(spec.title_field) or "").strip() for c in children]
    titles = [t for t in titles if t]
    if spec.title_field != spec.summary_field and titles:
        fields[spec.title_field] = _trim(
            titles[0] if len(titles) == 1 else f"{titles[0]} … {titles[-1]}", TITLE_CHARS
        )
    elif spec.title_field != spec.summary_field and any(
        f.name == spec.title_field and f.required for f in spec.fields
    ):
        fields[spec.title_field] = _trim(statements[0], TITLE_CHARS)
    return fields


def group_key(node: Node) -> GroupKey:
    scope = node.scope.owner if node.scope.layer == "pov" else node.scope.region
    return node.type, node.level, node.scope.layer, scope or ""


def candidates(read: Reader, chat_id: str) -> dict[GroupKey, list[Node]]:
    groups: dict[GroupKey, list[Node]] = {}
    for n in read.all_nodes(chat_id):
        spec = NODE_TYPES.get(n.type)
        if (
            spec is None
            or spec.compression is None
            or n.tier not in ("short_term", "long_term")
            or n.review_status == "rejected"
            or n.pinned
        ):
            continue
        groups.setdefault(group_key(n), []).append(n)
    return groups


def plan(groups: dict[GroupKey, list[Node]]) -> list[list[Node]]:
    """The chunks to fold, oldest first within each group (pure, no database)."""
    chunks: list[list[Node]] = []
    for key in sorted(groups):
        spec = NODE_TYPES[key[0]]
        assert spec.compression is not None
        threshold, fan_in, max_depth, keep_recent = spec.compression
        members = sorted(groups[key], key=lambda n: (n.created_at, min(n.source_indices, default=0), n.id))
        if len(members) <= threshold or key[1] + 1 > max_depth:
            continue
        foldable = members[: max(len(members) - keep_recent, 0)]
        chunks.extend(foldable[i : i + fan_in] for i in range(0, len(foldable) - fan_in + 1, fan_in))
    return chunks


def _fold(uow: UnitOfWork, chat_id: str, spec: NodeType, children: list[Node], composer: Composer) -> Node:
    first = children[0]
    approved = all(c.review_status == "approved" for c in children)
    draft = editing.NodeDraft(
        type=spec.id,
        fields=composer(spec, children),
        importance=max(c.importance for c in children),
        tier="long_term",
        review_status="approved" if approved else "pending",
        scope=Scope(first.scope.layer, first.scope.owner, first.scope.region),
        story_time=first.story_time,
        source_indices=sorted({i for c in children for i in c.source_indices}),
    )
    parent = editing.create_node(uow, chat_id, draft, manual=False)
    parent = replace(
        parent,
        level=first.level + 1,
        recall_count=sum(c.recall_count for c in children),
        flags={"children": [c.id for c in children], "compressed_at": uow.now},
    )
    uow.put_node(parent)
    child_ids = {c.id for c in children}
    for child in children:
        uow.put_node(
            replace(
                child,
                tier="archived",
                parent_id=parent.id,
                updated_at=uow.now,
                flags={**child.flags, "compressed_into": parent.id},
            )
        )
    seen: set[tuple[str, str, str]] = set()
    for edge in uow.read.edges(chat_id, node_id=parent.id):
        seen.add((edge.from_id, edge.to_id, edge.relation))
    moved = {e.id: e for c in children for e in uow.read.edges(chat_id, node_id=c.id)}
    for edge in sorted(moved.values(), key=lambda e: (e.created_at, e.id)):
        if edge.deleted_at is not None:
            continue
        ends = (
            parent.id if edge.from_id in child_ids else edge.from_id,
            parent.id if edge.to_id in child_ids else edge.to_id,
        )
        key = (ends[0], ends[1], edge.relation)
        if ends[0] == ends[1] or key in seen:
            uow.put_edge(replace(edge, deleted_at=uow.now, updated_at=uow.now))
            continue
        seen.add(key)
        uow.put_edge(replace(edge, from_id=ends[0], to_id=ends[1], updated_at=uow.now))
    return parent


def compress_in(
    uow: UnitOfWork,
    chat_id: str,
    now: float,
    settings: LifecycleSettings,
    *,
    composer: Composer = compose_parent,
    label: str = "rules",
    cancel: CancelToken | None = None,
) -> CompressionReport:
    """Fold every planned chunk with ``composer``; ``label`` (the path that wrote the texts)
    ends the batch description."""
    report = CompressionReport()
    chunks = plan(candidates(uow.read, chat_id))
    if not chunks:
        return report
    report.batch_id = uow.begin_batch(
        chat_id,
        "compress",
        actor=ACTOR,
        description=f"compression: {sum(map(len, chunks))} memories folded into {len(chunks)} ({label})",
    )
    for children in chunks:
        checkpoint(cancel)
        parent = _fold(uow, chat_id, NODE_TYPES[children[0].type], children, composer)
        report.created.append(parent.id)
        report.folded[parent.id] = [c.id for c in children]
    uow.end_batch()
    return report


def auto_compress_in(
    uow: UnitOfWork, chat_id: str, now: float, settings: LifecycleSettings
) -> CompressionReport:
    """The after-extraction hook: compress only when ``auto_compress`` is on."""
    return compress_in(uow, chat_id, now, settings) if settings.auto_compress else CompressionReport()
