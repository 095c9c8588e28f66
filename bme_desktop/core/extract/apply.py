"""Applying a validated plan inside the open extraction batch.

A proposed memory that already exists (same name for characters and places; a near
duplicate for other types; the same fact) updates it instead of duplicating it, keeping the
replaced values in ``flags["history"]`` and linking the batch's event to it with
``updates``. A fact that contradicts an older one is added; the older fact's edges are
invalidated (``valid_until``), not deleted, and the new fact links to it with
``contradicts`` and ``temporal_update``. A statement of change ("now", "no longer", "不再")
replaces the older statement it names (``supersedes``, from the LLM) or the one
:mod:`.supersede` finds (the offline path; an older statement not yet a fact becomes one).
The replaced memory stays, marked ``superseded_by`` with its validity interval in story time
(message indices) and record time (``flags["validity"]``) and a history entry; recall no
longer treats it as current. Every write goes through the unit of work, so the batch journal
can undo it exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .. import editing, merging
from ..errors import NotFound, ValidationError
from ..lorebook import is_read_only
from ..model import Edge, Node, Scope
from ..schema import NODE_TYPES, RELATIONS, node_title
from ..scopes import ChatScope, assign_kind
from ..store.unit_of_work import UnitOfWork
from . import entities, matching
from .cues import fact_cue
from .operations import NodeOp, Plan
from .state import record_cognition, record_regions
from .supersede import Replaced, find_replaced
from .textutil import clip
from .vector_match import VectorScores, similarity_since

HISTORY_KEEP = 8
SOURCES_KEEP = {"character": 6, "location": 6}
LONG_TERM_TYPES = ("character", "location", "rule", "thread")
OPENING_KEPT = ("thread", "pov_memory")


@dataclass
class ApplyReport:
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    archived: list[str] = field(default_factory=list)
    edges: int = 0
    dropped: list[str] = field(default_factory=list)
    merged: list[str] = field(default_factory=list)  # memories entity resolution merged into another

    def to_json(self) -> dict[str, Any]:
        return {
            "created": len(self.created),
            "updated": len(self.updated),
            "archived": len(self.archived),
            "edges": self.edges,
            "dropped": len(self.dropped),
            "merged": len(self.merged),
        }


class _Applier:
    def __init__(
        self,
        uow: UnitOfWork,
        chat_id: str,
        plan: Plan,
        labels: Mapping[str, str],
        state: dict[str, Any],
        vectors: Mapping[int, VectorScores],
    ) -> None:
        self.uow, self.chat_id, self.plan, self.labels = uow, chat_id, plan, labels
        self.vectors = vectors  # embedding cosines by operation position, computed before the commit
        self.report = ApplyReport(dropped=list(plan.dropped))
        self.nodes: dict[str, Node] = {}  # ref -> node
        self.touched: list[tuple[NodeOp, Node]] = []
        self.revised: list[str] = []  # updated memories whose fields changed
        self.linked: dict[tuple[str, str, str], Edge] = {}  # the links this batch made: (from, to, relation)
        self.merged: dict[str, str] = {}  # memory merged away by entity resolution -> the one it joined
        self.changed_at: set[int] = set()  # messages whose change already replaced an older statement
        self.entities: dict[str, Node] | None = None  # the chat's characters and places, read once per batch
        self.chat: ChatScope | None = None  # who is who, read on the first new memory
        self.lore: bool | None = None  # whether SillyTavern's lorebook gave the chat memories, read once
        regions = state.get("regions") or {}
        self.region: str | None = plan.regions.active or regions.get("active")

    def run(self) -> None:
        for n, op in enumerate(self.plan.ops):
            try:
                node = self._apply(op, self.vectors.get(n))
            except (ValidationError, NotFound) as exc:
                self.report.dropped.append(f"operation {n + 1}: {exc}")
                continue
            if node is not None:
                if self.entities is not None and node.type in matching.ENTITY_TYPES:
                    self.entities[node.id] = node  # an update or archive of one keeps the batch's list true
                    if node.tier == "archived":
                        del self.entities[node.id]
                self.touched.append((op, node))
                if op.ref:
                    self.nodes[op.ref] = node
        for op, node in self.touched:
            for link in op.links:
                target = self.nodes.get(link.target) or self._label_node(link.target)
                if target is None:
                    if not link.target.startswith(("character:", "location:")):  # an ambiguous name
                        self.report.dropped.append(f"link to {link.target!r}: the memory was not kept")
                    continue
                self._link(
                    self._live(node.id),
                    self._live(target.id),
                    link.relation,
                    link.strength,
                    op.source_indices,
                )
        event = next(
            (node for op, node in self.touched if node.type == "event" and node.id in self.report.created),
            None,
        )
        if event is not None:
            for node_id in dict.fromkeys(self._live(n) for n in self.revised):  # changed: the event is why
                if node_id != event.id:
                    self._link(event.id, node_id, "updates", None, event.source_indices)

    def _label_node(self, label: str) -> Node | None:
        node_id = self.labels.get(label)
        return self.uow.read.node(self.chat_id, node_id) if node_id else None

    def _link(self, a: str, b: str, relation: str, strength: float | None, sources: list[int]) -> None:
        """Like ``editing.link`` (both ends are known to be live here), but finds an existing
        edge by an indexed lookup instead of reading every edge of a busy node. A memory this
        batch created has no links but those this batch made, so nothing is looked up for it
        (most links of an import: SQLite answers the lookup from the chat's edges, a cost that
        grows with the chat)."""
        if a == b or relation not in RELATIONS:
            self.report.dropped.append(f"link {relation}: not a valid link")
            return
        value = RELATIONS[relation].default_strength if strength is None else float(strength)
        key = (a, b, relation)
        if key in self.linked or a in self.report.created or b in self.report.created:
            edge = self.linked.get(key)
        else:
            edge = self.uow.read.valid_edge_between(self.chat_id, a, b, relation)
        if edge is not None:
            if value > edge.strength:
                self.linked[key] = replace(edge, strength=value, updated_at=self.uow.now)
                self.uow.put_edge(self.linked[key])
            return
        self.linked[key] = edge = Edge(
            id=editing.new_id(),
            chat_id=self.chat_id,
            from_id=a,
            to_id=b,
            relation=relation,
            strength=value,
            valid_from=self.uow.now,
            source_indices=list(sources),
            created_at=self.uow.now,
            updated_at=self.uow.now,
        )
        self.uow.put_edge(edge, new=True)
        self.report.edges += 1

    def _scope(self, op: NodeOp) -> Scope:
        if op.type == "event" and op.scope.region is None and self.region:
            return replace(op.scope, region=self.region)
        return op.scope

    def _apply(self, op: NodeOp, vectors: VectorScores | None = None) -> Node | None:
        if op.action == "archive":
            return self._archive(op)
        if op.action == "update":
            node = editing.require_node(self.uow, self.chat_id, op.target_id or "")
            return self._merge(node, op)
        scope = self._kind(op.type, op.fields, self._scope(op))  # matching compares whole scopes
        if self.lore is None:
            self.lore = matching.has_lore(self.uow, self.chat_id)
        lore = matching.lore_match(self.uow, self.chat_id, op.type, op.fields) if self.lore else None
        if lore is not None:  # the lorebook says it already: linked to, never written twice
            return self._merge(lore, op)
        if op.supersedes_id:
            old = editing.require_node(self.uow, self.chat_id, op.supersedes_id)
            return self._supersede(old, op, scope)
        node_type = NODE_TYPES[op.type]
        if op.type in matching.ENTITY_TYPES:
            return self._entity(op, scope)
        if op.entity or node_type.latest_only:
            types = (op.type,)
            found = matching.same_name(
                self.uow, self.chat_id, types, op.fields.get(node_type.title_field, ""), scope
            )
            if found is not None:
                return self._merge(found, op)
        elif op.type == "fact":
            match = matching.fact_match(self.uow, self.chat_id, op.fields, scope)
            if match is not None and not match.contradicts:
                return self._merge(match.node, op)
            if match is not None:
                return self._supersede(match.node, op, scope)
            if op.change and not self.changed_at & set(op.source_indices):
                replaced = find_replaced(
                    self.uow,
                    self.chat_id,
                    op.fields.get("statement", ""),
                    op.fields.get("subject"),
                    op.source_indices,
                )
                if replaced is not None:
                    self.changed_at.update(op.source_indices)
                    return self._supersede(replaced.node or self._stated_fact(replaced), op, scope)
        else:
            if self.entities is None:
                self.entities = {n.id: n for n in matching.entity_nodes(self.uow, self.chat_id)}
            near = matching.nearest(
                self.uow,
                self.chat_id,
                op.type,
                op.fields,
                scope,
                since=similarity_since(op),
                vectors=vectors,
                names=matching.folded_names(self.entities.values()),
            )
            if near is not None:
                return self._merge(near.node, op)
        return self._create(op, scope)

    def _entity(self, op: NodeOp, scope: Scope) -> Node | None:
        """Entity resolution on write: the proposed character or place joins the memory it
        names (by name, alias or partial name); memories its aliases show to be the same one
        are merged into that memory (journaled in this batch, so undone with it)."""
        name = op.fields.get("name", "").strip()
        if self.entities is None:
            self.entities = {n.id: n for n in matching.entity_nodes(self.uow, self.chat_id)}
        match = matching.resolve_entity(
            self.uow,
            self.chat_id,
            op.type,
            name,
            entities.aliases_of(op.fields),
            scope,
            avoid=op.avoid,
            sources=op.source_indices,
            known=list(self.entities.values()),
        )
        if match is None:
            node = self._create(op, scope)
        elif match.how == "ambiguous":
            return None  # a part of several names ("Ashdown"): no memory of its own
        else:
            node = match.node
            for other in match.others:
                node = merging.merge_in(self.uow, self.chat_id, node.id, other.id, manual=False)
                self.merged[other.id] = node.id
                self.report.merged.append(other.id)
                self.entities.pop(other.id, None)
            node = self._merge(node, op)
        self.entities[node.id] = node
        return node

    def _live(self, node_id: str) -> str:
        while node_id in self.merged:
            node_id = self.merged[node_id]
        return node_id

    def _create(self, op: NodeOp, scope: Scope) -> Node:
        stable = op.type in LONG_TERM_TYPES or (op.type == "fact" and op.fields.get("category") != "event")
        fields = dict(op.fields)
        if entities.ALIASES_FIELD in NODE_TYPES[op.type].field_names:
            aliases = entities.with_aliases(fields, [])
            if aliases:
                fields[entities.ALIASES_FIELD] = aliases
            else:
                fields.pop(entities.ALIASES_FIELD, None)
        draft = editing.NodeDraft(
            type=op.type,
            fields=fields,
            importance=op.importance or 5.0,
            tier="long_term" if stable else "short_term",
            scope=self._kind(op.type, fields, scope),
            story_time=op.story_time or self.plan.story_time,
            source_indices=list(op.source_indices),
        )
        node = editing.create_node(self.uow, self.chat_id, draft, manual=False)
        self.report.created.append(node.id)
        return node

    def _kind(self, node_type: str, fields: dict[str, str], scope: Scope) -> Scope:
        """The new memory's scope kind, from its type and subject (``scopes.assign_kind``)."""
        if self.chat is None:
            self.chat = self.uow.read.chat_scope(self.chat_id)
        return replace(scope, kind=assign_kind(node_type, fields, scope.layer, self.chat))

    def _merge(self, node: Node, op: NodeOp) -> Node:
        if node.manually_edited or node.pinned or is_read_only(node):
            return node  # a user's (or the lorebook's) version wins; the memory is still linked to
        title_field = NODE_TYPES[node.type].title_field
        fields = dict(node.fields)
        previous: dict[str, str] = {}
        for key, value in op.fields.items():
            if (
                key not in NODE_TYPES[node.type].field_names
                or not value.strip()
                or key == entities.ALIASES_FIELD
            ):
                continue
            if key == title_field and node.type in ("character", "location") and fields.get(key):
                continue  # keep the name as first written
            if fields.get(key) != value.strip():
                previous[key] = fields.get(key, "")
                fields[key] = value.strip()
        if entities.ALIASES_FIELD in NODE_TYPES[node.type].field_names and op.type in matching.ENTITY_TYPES:
            aliases = entities.with_aliases(
                fields, [op.fields.get("name", ""), *entities.aliases_of(op.fields)]
            )
            if aliases != fields.get(entities.ALIASES_FIELD, ""):
                fields[entities.ALIASES_FIELD] = aliases  # a new name for it is no revision of it
        keep = SOURCES_KEEP.get(node.type, 4)
        sources = sorted(set(node.source_indices) | set(op.source_indices))
        # A thread or a belief keeps where it began (opened, first held) beside its latest messages.
        sources = sources[:1] + sources[1:][-(keep - 1) :] if node.type in OPENING_KEPT else sources[-keep:]
        importance = max(node.importance, op.importance or 0.0)
        if (
            not previous
            and sources == node.source_indices
            and importance == node.importance
            and fields == node.fields
        ):
            return node
        flags = dict(node.flags)
        if previous:
            history = [*flags.get("history", []), {"batch": self.uow.batch_id, "fields": previous}]
            flags["history"] = history[-HISTORY_KEEP:]
            if node.id not in self.revised:
                self.revised.append(node.id)
        editing.check_node_values(
            type_id=node.type,
            fields=fields,
            importance=importance,
            tier=node.tier,
            review_status=node.review_status,
            source_indices=sources,
        )
        updated = replace(
            node,
            fields=fields,
            title=node_title(node.type, fields),
            source_indices=sources,
            importance=importance,
            flags=flags,
            updated_at=self.uow.now,
        )
        self.uow.put_node(updated)
        if updated.id not in self.report.created and updated.id not in self.report.updated:
            self.report.updated.append(updated.id)
        return updated

    def _stated_fact(self, found: Replaced) -> Node:
        """The older statement as a fact of its own (it was said, but not kept as a fact)."""
        cue = fact_cue(found.sentence)
        fields = {
            "statement": clip(found.sentence, 300),
            "category": cue[0] if cue is not None and cue[0] != "event" else "fact",
        }
        if found.speaker:
            fields["subject"] = found.speaker
        draft = editing.NodeDraft(
            type="fact",
            fields=fields,
            importance=6.0,
            tier="long_term",
            scope=self._kind("fact", fields, Scope()),
            source_indices=[found.index],
        )
        node = editing.create_node(self.uow, self.chat_id, draft, manual=False)
        self.report.created.append(node.id)
        return node

    def _supersede(self, old: Node, op: NodeOp, scope: Scope) -> Node:
        """Create the new memory and mark ``old`` as replaced by it (Graphiti-style: the old
        one stays, valid from its first message until the new one's, invalidated now)."""
        new = self._create(op, scope)
        if (
            old.pinned
            or old.manually_edited
            or is_read_only(old)
            or old.flags.get("superseded_by")
            or old.id == new.id
        ):
            return new  # the user's version stands; a memory is replaced once
        for edge in self.uow.read.edges(self.chat_id, node_id=old.id, include_invalid=False):
            if edge.relation not in ("contradicts", "temporal_update"):
                self.uow.put_edge(replace(edge, valid_until=self.uow.now, updated_at=self.uow.now))
        until = max(op.source_indices) if op.source_indices else None
        validity = {
            "from_index": min(old.source_indices) if old.source_indices else None,
            "until_index": until,
            "recorded_from": old.created_at,
            "invalidated_at": self.uow.now,
        }
        history = [
            *old.flags.get("history", []),
            {"batch": self.uow.batch_id, "superseded_by": new.id, "at_index": until},
        ][-HISTORY_KEEP:]
        self.uow.put_node(
            replace(
                old,
                flags={**old.flags, "superseded_by": new.id, "validity": validity, "history": history},
                updated_at=self.uow.now,
            )
        )
        new = replace(
            new,
            flags={**new.flags, "supersedes": [*new.flags.get("supersedes", []), old.id]},
            updated_at=self.uow.now,
        )
        self.uow.put_node(new)
        self._link(new.id, old.id, "temporal_update", None, op.source_indices)
        if old.type == "fact" and new.type == "fact":
            self._link(new.id, old.id, "contradicts", None, op.source_indices)
        return new

    def _archive(self, op: NodeOp) -> Node | None:
        node = editing.require_node(self.uow, self.chat_id, op.target_id or "")
        if node.pinned or node.manually_edited or is_read_only(node):
            self.report.dropped.append(
                f"archive of {op.target!r} refused: the user pinned or edited it, "
                "or it comes from the lorebook"
            )
            return None
        if node.tier != "archived":
            node = replace(
                node,
                tier="archived",
                flags={**node.flags, "archived_by_batch": self.uow.batch_id},
                updated_at=self.uow.now,
            )
            self.uow.put_node(node)
            self.report.archived.append(node.id)
        return node


def apply_plan(
    uow: UnitOfWork,
    chat_id: str,
    plan: Plan,
    *,
    labels: Mapping[str, str] | None = None,
    state: dict[str, Any],
    vectors: Mapping[int, VectorScores] | None = None,
) -> ApplyReport:
    """Apply ``plan`` (already validated) to the graph and record cognition, regions and story
    time in ``state`` (the chat state dict; the caller saves it). ``vectors``: embedding
    cosines of proposed memories by position in ``plan.ops`` (see :mod:`.vector_match`)."""
    applier = _Applier(uow, chat_id, plan, labels or {}, state, vectors or {})
    applier.run()
    live = {ref: replace(node, id=applier._live(node.id)) for ref, node in applier.nodes.items()}
    record_cognition(state, plan, live, applier.labels)
    record_regions(state, plan)
    if plan.story_time:
        state["story_time"] = plan.story_time
    return applier.report
