"""Force evolve (the A-MEM evolution step) and the ranged vector rebuild, for ``chat_ops``.

**Evolve.** The *new* memories are those whose first source message lies in the range asked
for, or, without a range, after the last evolve (chat state ``evolved_to``) up to the last
extracted message. Each new memory is paired with every *older* memory it is linked to (a
valid link either way; the older one's first source message comes before the new one's, it is
not in the recycle bin and was not written or edited by hand: a hand edit is kept as it is).

With a model (the endpoint in ``settings.llm`` or one lent to the memory), prompt ``evolve``
gets the pairs as quoted JSON and answers ``{"updates": [{"pair": n, "fields": {…}, "tags":
[…]}]}``: new values for the older memory's own fields (never its name or title; ≤ 400
characters each) and up to 8 short tags (kept in ``flags.tags``). A reply of the wrong shape
means the rules. **Offline (the rules)**, per pair, the older memory takes from the new one:

- a character or place of the same type: its name and aliases join the older one's
  ``aliases``; fields the older one lacks are copied;
- a fact about a character (a trait or preference joins ``traits``; a goal becomes ``goal``;
  another fact becomes ``state``) or about a place (joins ``features``);
- an event it took part in or that happened there becomes its ``state`` (the latest news);
- an open or promised plot thread: a thread that is now resolved/done/failed gives it that
  status; an event that says it was resolved ("finally found", 找到了, 完成…) marks it
  resolved (done for a promise), any other linked event is appended to its ``summary``;
- a point of view the new memory ``contradicts`` (or a mistaken belief) becomes
  ``certainty: mistaken``.

Every revised memory gets ``flags.evolved_by`` (the new memories' ids) and an ``evolves`` link
from the new memory; the batch's description says ``(llm: model)`` or ``(rules)``.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from .cancel import CancelToken, checkpoint
from .errors import Conflict
from .events import ChangeRecord
from .extract.entities import ALIASES_FIELD, aliases_of, with_aliases
from .model import Edge, Node
from .schema import NODE_TYPES, node_text, node_title
from .store.reader import Reader
from .store.unit_of_work import UnitOfWork

if TYPE_CHECKING:
    from .chat_ops import ChatFacts, MessageRange, OperationResult, Progress
    from .ports import ChatOperations

FIELD_CHARS = 400
MAX_TAGS = 8
TAG_CHARS = 40
MAX_PAIRS = 40  # asked of the model at once; the rest take the rules
SKIPPED_TYPES = frozenset({"synopsis", "reflection"})
ENTITY_TYPES = frozenset({"character", "location"})
OPEN_THREAD = frozenset({"", "open", "promised", "active", "ongoing"})
CLOSED_THREAD = frozenset({"resolved", "done", "failed", "closed", "abandoned"})
_RESOLVED = re.compile(
    r"\b(?:finally (?:found|got|reached|made)|found (?:it|him|her|them)|resolved|solved|completed|"
    r"accomplished|"
    r"succeeded|kept (?:my|his|her|their|our) (?:promise|word)|rescued|returned (?:it|the))\b"
    r"|找到了|终于|完成了|解决了|做到了|兑现|成功|救出|归还",
    re.I,
)
SCHEMA = '{"updates": [{"pair": 1, "fields": {"state": "..."}, "tags": ["..."]}]}'


@dataclass(frozen=True)
class Pair:
    new: Node
    old: Node
    relation: str


@dataclass
class EvolvePlan:
    pairs: list[Pair]
    evolved_to: int
    new_count: int = 0


@dataclass
class Revision:
    fields: dict[str, str] = field(default_factory=dict)
    tags: list[str] = field(default_factory=list)


def _first(node: Node) -> int:
    return min(node.source_indices) if node.source_indices else -1


def plan_evolve(read: Reader, chat_id: str, rng: MessageRange | None, facts: ChatFacts) -> EvolvePlan:
    lo, hi = (rng.start, rng.end) if rng is not None else (facts.evolved_to + 1, facts.extracted_to)
    nodes = {n.id: n for n in read.all_nodes(chat_id) if n.type not in SKIPPED_TYPES}
    new = [n for n in nodes.values() if n.source_indices and lo <= _first(n) <= hi]
    new_ids = {n.id for n in new}
    pairs: list[Pair] = []
    seen: set[tuple[str, str]] = set()
    for edge in read.edges(chat_id, include_invalid=False):
        for a, b in ((edge.from_id, edge.to_id), (edge.to_id, edge.from_id)):
            if a not in new_ids or b not in nodes or (a, b) in seen:
                continue
            old = nodes[b]
            if old.manually_edited or not old.source_indices or _first(old) >= _first(nodes[a]):
                continue
            seen.add((a, b))
            pairs.append(Pair(nodes[a], old, edge.relation))
    pairs.sort(key=lambda p: (_first(p.new), p.new.id, _first(p.old), p.old.id))
    return EvolvePlan(pairs, max(hi, facts.evolved_to), len(new))


# the rules ---------------------------------------------------------------------------------
def _joined(current: str, addition: str, sep: str = "; ") -> str:
    addition = addition.strip()
    if not addition or addition.lower() in current.lower():
        return current
    text = f"{current}{sep}{addition}" if current else addition
    return text if len(text) <= FIELD_CHARS else text[-FIELD_CHARS:].split(sep, 1)[-1]


def _text(node: Node) -> str:
    return node_text(node.type, node.fields)


def revise_by_rules(old: Node, new: Node, relation: str, fields: dict[str, str]) -> dict[str, str]:
    """The older memory's fields after the rules take what ``new`` adds (``fields`` is its
    current state, possibly already revised by an earlier pair)."""
    out = dict(fields)
    nf = new.fields
    if old.type in ENTITY_TYPES:
        if new.type == old.type:
            out[ALIASES_FIELD] = with_aliases(out, [nf.get("name", ""), *aliases_of(nf)])
            if not out[ALIASES_FIELD]:
                out.pop(ALIASES_FIELD)
            for key, value in nf.items():
                if key not in ("name", ALIASES_FIELD) and value and not out.get(key):
                    out[key] = value
        elif new.type == "fact":
            statement = nf.get("statement", "")
            category = nf.get("category", "").lower()
            if old.type == "location":
                out["features"] = _joined(out.get("features", ""), statement)
            elif category in ("trait", "preference"):
                out["traits"] = _joined(out.get("traits", ""), statement)
            elif category == "goal":
                out["goal"] = statement[:FIELD_CHARS]
            elif statement:
                out["state"] = statement[:FIELD_CHARS]
        elif new.type == "event" and nf.get("summary"):
            out["state"] = nf["summary"][:FIELD_CHARS]
    elif old.type == "thread" and out.get("status", "").strip().lower() in OPEN_THREAD:
        promised = out.get("status", "").strip().lower() == "promised"
        status = nf.get("status", "").strip().lower()
        if new.type == "thread" and status in CLOSED_THREAD:
            out["status"] = status
        elif new.type in ("event", "fact", "thread"):
            text = _text(new)
            if _RESOLVED.search(text):
                out["status"] = "done" if promised else "resolved"
            elif new.type == "event":
                out["summary"] = _joined(out.get("summary", ""), text, " → ")
    elif old.type == "pov_memory" and (
        relation == "contradicts"
        or (
            new.type == "pov_memory"
            and nf.get("certainty", "").lower() == "mistaken"
            and new.scope.owner == old.scope.owner
        )
    ):
        out["certainty"] = "mistaken"
    return out


# the model's path ------------------------------------------------------------------------
def request_data(pairs: list[Pair]) -> dict[str, Any]:
    return {
        "max_chars": FIELD_CHARS,
        "max_tags": MAX_TAGS,
        "pairs": [
            {
                "pair": n,
                "relation": p.relation,
                "new": {"type": p.new.type, "text": _text(p.new)},
                "old": {
                    "type": p.old.type,
                    "fields": dict(p.old.fields),
                    "editable": [
                        f.name
                        for f in NODE_TYPES[p.old.type].fields
                        if f.name != NODE_TYPES[p.old.type].title_field
                    ],
                },
            }
            for n, p in enumerate(pairs, 1)
        ],
    }


def parse_updates(reply: Any, pairs: list[Pair]) -> dict[int, Revision] | None:
    """Pair number → what the model revises; None when any entry is malformed."""
    if not isinstance(reply, dict) or not isinstance(reply.get("updates"), list):
        return None
    out: dict[int, Revision] = {}
    for item in reply["updates"]:
        if not isinstance(item, dict):
            return None
        n = item.get("pair")
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= len(pairs) or n in out:
            return None
        spec = NODE_TYPES[pairs[n - 1].old.type]
        editable = {f.name for f in spec.fields} - {spec.title_field}
        fields, tags = item.get("fields") or {}, item.get("tags") or []
        if not isinstance(fields, dict) or not isinstance(tags, list) or len(tags) > MAX_TAGS:
            return None
        revision = Revision()
        for key, value in fields.items():
            if key not in editable or not isinstance(value, str) or len(value) > FIELD_CHARS:
                return None
            revision.fields[key] = " ".join(value.split())
        for tag in tags:
            if not isinstance(tag, str) or not tag.strip() or len(tag) > TAG_CHARS:
                return None
            revision.tags.append(tag.strip())
        out[n] = revision
    return out


# running it --------------------------------------------------------------------------------
def run_evolve(
    service: ChatOperations, chat_id: str, plan: EvolvePlan, cancel: CancelToken | None, report: Progress
) -> OperationResult:
    from .chat_ops import OperationResult
    from .lifecycle.llm_step import Asked, ask_model, model_available

    total = len(plan.pairs)
    report(0, total)
    asked: Asked[dict[int, Revision]] = Asked(None)
    if model_available(service):
        asked_pairs = plan.pairs[:MAX_PAIRS]
        asked = ask_model(
            service,
            chat_id,
            "evolve",
            "evolve",
            request_data(asked_pairs),
            SCHEMA,
            lambda reply: parse_updates(reply, asked_pairs),
            texts=[_text(p.new) for p in asked_pairs],
        )
    checkpoint(cancel)
    label = asked.label
    by_model = asked.value

    def write(uow: UnitOfWork) -> tuple[ChangeRecord, int]:
        pk = uow.read.require_chat_pk(chat_id)
        now = uow.now
        current: dict[str, Node] = {}
        revised_by: dict[str, list[str]] = {}
        tags: dict[str, list[str]] = {}
        linked = {(e.from_id, e.to_id) for e in uow.read.edges(chat_id) if e.relation == "evolves"}
        for n, pair in enumerate(plan.pairs, 1):
            old = current.get(pair.old.id, pair.old)
            if by_model is not None and n <= MAX_PAIRS:
                revision = by_model.get(n)
                fields = {**old.fields, **revision.fields} if revision else dict(old.fields)
                if revision:
                    tags.setdefault(old.id, []).extend(
                        t for t in revision.tags if t not in tags.get(old.id, [])
                    )
            else:
                fields = revise_by_rules(old, pair.new, pair.relation, old.fields)
            if fields == old.fields and not tags.get(old.id):
                continue
            current[old.id] = replace(old, fields=fields, title=node_title(old.type, fields))
            revised_by.setdefault(old.id, []).append(pair.new.id)
        originals = {p.old.id: p.old for p in plan.pairs}
        revised = {k: v for k, v in current.items() if v.fields != originals[k].fields or tags.get(k)}
        for node_id, node in revised.items():
            for new_id in dict.fromkeys(revised_by[node_id]):
                if (new_id, node_id) not in linked:
                    linked.add((new_id, node_id))
                    uow.put_edge(
                        Edge(
                            id=uuid.uuid4().hex,
                            chat_id=chat_id,
                            from_id=new_id,
                            to_id=node_id,
                            relation="evolves",
                            strength=0.75,
                            created_at=now,
                            updated_at=now,
                        )
                    )
            flags = dict(node.flags)
            flags["evolved_by"] = list(dict.fromkeys([*flags.get("evolved_by", []), *revised_by[node_id]]))[
                -10:
            ]
            flags["evolved_at"] = now
            flags["evolved_path"] = label
            if tags.get(node_id):
                flags["tags"] = list(dict.fromkeys([*flags.get("tags", []), *tags[node_id]]))[-MAX_TAGS:]
            uow.put_node(replace(node, flags=flags, updated_at=now))
        state = uow.chat_state(pk)
        state["evolved_to"] = plan.evolved_to
        uow.set_chat_state(pk, state)
        uow.audit(chat_id, "user", "evolve", None, revised=len(revised), path=label)
        change = ChangeRecord(chat_id)
        change.merge(uow.change(chat_id))
        return change, len(revised)

    change, revised = service.write(write)
    report(total, total)
    return OperationResult(
        "evolve",
        change,
        revised,
        detail={"pairs": total, "revised": revised, "new_memories": plan.new_count, "path": label},
    )


def rebuild_vectors(
    service: ChatOperations,
    chat_id: str,
    rng: MessageRange | None,
    cancel: CancelToken | None,
    report: Progress,
) -> OperationResult:
    """Embed again the memories drawn from messages in ``rng`` (all of the chat's without
    one). Not an undo step: vectors are a cache of the memories' texts."""
    from .chat_ops import NothingToDo, OperationResult
    from .index import vector_store
    from .index.maintainer import VectorMaintainer

    vectors = service.vector_index()
    if not isinstance(vectors, VectorMaintainer):
        raise Conflict("recall has no vector index in this data folder")
    nodes = [n for n in service.all_nodes(chat_id) if n.deleted_at is None]
    if rng is not None:
        nodes = [n for n in nodes if any(rng.start <= i <= rng.end for i in n.source_indices)]
    if not nodes:
        raise NothingToDo(
            "no memory comes from these messages" if rng is not None else "the chat has no memories"
        )
    report(0, len(nodes))
    if rng is None:
        change = service.run_maintenance(chat_id, "rebuild_vectors", cancel=cancel).value
    else:
        if vectors.embedder() is None:
            raise Conflict(f"no embedder: {vectors.last_error or 'embedding is switched off'}")
        checkpoint(cancel)
        ids = [n.id for n in nodes]
        service.write(lambda uow: vector_store.delete_vectors(uow, chat_id, ids))
        index = vectors.index(chat_id)
        if index is not None:
            index.remove(ids)
        vectors.schedule(chat_id, set(ids))
        vectors.wait_idle()
        change = ChangeRecord(chat_id)
    report(len(nodes), len(nodes))
    return OperationResult("rebuild_vectors", change, len(nodes), rng, {"memories": len(nodes)})
