"""Consolidation (maintenance task ``consolidate``): merge near-duplicate long-term memories.

Only long-term memories take part (short-term is a draft layer where repeats are normal).
Within one type and one point of view, pairs whose similarity reaches
``consolidate_threshold`` (0.85) merge: the older memory survives and takes the evidence
(``source_indices``), the higher importance, the recall counts and any field it lacked;
the newer one is archived with ``merged_into`` and its edges move to the survivor.
Similarity is lexical (hashed character bigrams); where both memories have an embedding of
the same model, the embedding cosine counts too once the texts share at least half their
bigrams — embeddings alone would merge different facts about the same person. Near misses
(within 0.1 below the threshold) are logged in the audit log, never merged. Pinned or
hand-edited memories are never archived by a merge. ``decider=`` is the seam for a judge
with ``decide_pairs``' inputs and output; the hand-run task asks the LLM whether each
merge candidate is really the same memory ("silver key" vs "silver coin": no) and for the
merged text (``consolidate_llm``, outside the write). The batch description ends with the
path used, and the audit entries name the judge.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

import numpy as np

from ..cancel import CancelToken, checkpoint
from ..lorebook import is_read_only
from ..model import Node
from ..schema import NODE_TYPES, node_text
from ..settings import LifecycleSettings
from ..store.reader import Reader
from ..store.unit_of_work import UnitOfWork
from ..store.vectors import load_vectors_by_ids
from .similarity import pairs_above, text_matrix

ACTOR = "lifecycle"
NEAR_MISS_BAND = 0.1
LEXICAL_GATE = 0.5
Vectors = dict[str, tuple[str, np.ndarray]]
Decider = Callable[[list[Node], Vectors, float], list[tuple[int, int, float]]]


@dataclass
class ConsolidationReport:
    batch_id: int | None = None
    merged: list[tuple[str, str, float]] = field(default_factory=list)  # (survivor, archived, similarity)
    near_misses: list[tuple[str, str, float]] = field(default_factory=list)
    kept_apart: list[tuple[str, str, float]] = field(default_factory=list)  # the LLM judge said "different"


def _vectors(read: Reader, ids: list[str]) -> Vectors:
    out: Vectors = {}
    for stored in load_vectors_by_ids(read, ids, None):
        norm = float(np.linalg.norm(stored.vector))
        if norm > 0:
            out[stored.node_id] = (stored.model, stored.vector / norm)
    return out


def main_text(node: Node) -> str:
    """The memory's main statement (its summary field), else its one-line rendering."""
    spec = NODE_TYPES.get(node.type)
    main = node.fields.get(spec.summary_field, "") if spec else ""
    return main or node_text(node.type, node.fields)


def decide_pairs(
    group: list[Node], vectors: dict[str, tuple[str, np.ndarray]], threshold: float
) -> list[tuple[int, int, float]]:
    """Candidate pairs (indices into ``group``) with their similarity, highest first."""
    m = text_matrix([main_text(n) for n in group])
    floor = min(threshold - NEAR_MISS_BAND, LEXICAL_GATE)
    scored = []
    for i, j, lex in pairs_above(m, floor):
        sim = lex
        a, b = vectors.get(group[i].id), vectors.get(group[j].id)
        if a is not None and b is not None and a[0] == b[0] and a[1].shape == b[1].shape:
            sim = max(lex, float(a[1] @ b[1]))
        if sim >= threshold - NEAR_MISS_BAND:
            scored.append((i, j, sim))
    scored.sort(key=lambda p: (-p[2], p[0], p[1]))
    return scored


def _merge(uow: UnitOfWork, keep: Node, drop: Node, sim: float, text: str | None = None) -> Node:
    fields = {**{k: v for k, v in drop.fields.items() if v}, **{k: v for k, v in keep.fields.items() if v}}
    spec = NODE_TYPES.get(keep.type)
    if text and spec is not None and not keep.manually_edited:
        fields[spec.summary_field] = text
    merged_from = [*keep.flags.get("merged_from", []), {"id": drop.id, "similarity": round(sim, 4)}]
    survivor = replace(
        keep,
        fields=fields,
        source_indices=sorted(set(keep.source_indices) | set(drop.source_indices)),
        importance=max(keep.importance, drop.importance),
        recall_count=keep.recall_count + drop.recall_count,
        flags={**keep.flags, "merged_from": merged_from},
        updated_at=uow.now,
    )
    uow.put_node(survivor)
    uow.put_node(
        replace(
            drop,
            tier="archived",
            updated_at=uow.now,
            flags={**drop.flags, "merged_into": keep.id, "similarity": round(sim, 4)},
        )
    )
    for edge in uow.read.edges(keep.chat_id, node_id=drop.id):
        ends = (
            keep.id if edge.from_id == drop.id else edge.from_id,
            keep.id if edge.to_id == drop.id else edge.to_id,
        )
        if ends[0] == ends[1]:
            uow.put_edge(replace(edge, deleted_at=uow.now, updated_at=uow.now))
        else:
            uow.put_edge(replace(edge, from_id=ends[0], to_id=ends[1], updated_at=uow.now))
    return survivor


def groups_of(read: Reader, chat_id: str) -> tuple[list[list[Node]], Vectors]:
    """Long-term memories by (type, point of view), each oldest first, and their vectors (not
    those SillyTavern's lorebook owns: they change only there)."""
    nodes = [
        n
        for n in read.all_nodes(chat_id)
        if n.tier == "long_term" and n.review_status != "rejected" and not is_read_only(n)
    ]
    groups: dict[tuple[str, str, str | None], list[Node]] = {}
    for n in nodes:
        groups.setdefault((n.type, n.scope.layer, n.scope.owner), []).append(n)
    ordered = [
        sorted(groups[k], key=lambda n: (n.created_at, n.id))
        for k in sorted(groups, key=lambda k: (k[0], k[1], k[2] or ""))
    ]
    return ordered, _vectors(read, [n.id for n in nodes])


def merge_candidates(read: Reader, chat_id: str, threshold: float) -> list[tuple[Node, Node, float]]:
    """(older, newer, similarity) for the pairs the rules would merge (before overlaps)."""
    groups, vectors = groups_of(read, chat_id)
    return [
        (g[i], g[j], sim)
        for g in groups
        for i, j, sim in decide_pairs(g, vectors, threshold)
        if sim >= threshold and not g[j].pinned and not g[j].manually_edited
    ]


def consolidate_in(
    uow: UnitOfWork,
    chat_id: str,
    now: float,
    settings: LifecycleSettings,
    *,
    decider: Decider = decide_pairs,
    texts: Mapping[tuple[str, str], str] | None = None,
    label: str = "rules",
    judge: str = "rules",
    cancel: CancelToken | None = None,
) -> ConsolidationReport:
    """Merge the pairs ``decider`` keeps; ``texts`` maps (survivor id, archived id) to a merged
    text; ``label`` ends the batch description and ``judge`` is named in the audit entries."""
    report = ConsolidationReport()
    groups, vectors = groups_of(uow.read, chat_id)
    plan: list[tuple[Node, Node, float]] = []
    for group in groups:
        checkpoint(cancel)
        gone: set[str] = set()
        for i, j, sim in decider(group, vectors, settings.consolidate_threshold):
            keep, drop = group[i], group[j]  # the older memory survives
            if sim < settings.consolidate_threshold:
                report.near_misses.append((keep.id, drop.id, sim))
                continue
            if keep.id in gone or drop.id in gone or drop.pinned or drop.manually_edited:
                continue
            gone.add(drop.id)
            plan.append((keep, drop, sim))
    if plan:
        report.batch_id = uow.begin_batch(
            chat_id,
            "consolidate",
            actor=ACTOR,
            description=f"consolidation: {len(plan)} near-duplicates merged ({label})",
        )
        current: dict[str, Node] = {}
        for keep, drop, sim in plan:
            checkpoint(cancel)
            survivor = _merge(
                uow,
                current.get(keep.id, keep),
                current.get(drop.id, drop),
                sim,
                (texts or {}).get((keep.id, drop.id)),
            )
            current[keep.id] = survivor
            report.merged.append((keep.id, drop.id, sim))
        uow.end_batch()
    for keep_id, drop_id, sim in plan_audit(report):
        uow.audit(
            chat_id,
            ACTOR,
            "consolidate.merge" if sim >= settings.consolidate_threshold else "consolidate.near_miss",
            drop_id,
            other=keep_id,
            similarity=round(sim, 4),
            judge=judge,
        )
    return report


def plan_audit(report: ConsolidationReport) -> list[tuple[str, str, float]]:
    return [*report.merged, *report.near_misses]
