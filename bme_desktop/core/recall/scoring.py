"""The hybrid score: relevance (vector, lexical, diffusion energy, importance) times the
memory's strength (lifecycle retrievability) and its point-of-view, region and time weights.

    relevance = (0.45 v + 0.35 lex + 0.15 g + 0.05 importance/10) (+ 0.1 when anchored by name)
    score     = relevance × (0.75 + 0.25 strength) × w_pov × w_region × w_time

``strength`` is the life cycle's ``recall_strength`` (FSRS retrievability, discounted when a
strong memory was just recalled).

Every factor is kept in ``components`` so the UI can say why a memory came back.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ..lifecycle.recall_hits import recall_strength
from ..model import Node
from ..settings import LifecycleSettings
from .api import RecalledNode
from .cues import Cues, DayRef

W_VECTOR = 0.45
W_LEXICAL = 0.35
W_GRAPH = 0.15
W_IMPORTANCE = 0.05
ANCHOR_BONUS = 0.1
W_VECTOR_ONLY_LEXICAL = W_VECTOR + W_LEXICAL  # lexical weight when no vectors are available

POV_CHARACTER = 1.15
POV_USER = 1.0
POV_OTHER = 0.7
KIND_MATCH = 1.25  # a memory of the kind the input asks about (a belief, a promise, a rule, a quest)
PROMISE_STATUSES = frozenset({"promised", "done", "kept", "broken"})
DAY_MATCH = 1.6
MONTH_MATCH = 1.3
DAY_MISMATCH = 0.75
MONTH_MISMATCH = 0.85

# When a sleeping memory (dormant, expired) counts as asked for: a question, a "remember
# when" or a named day/month whose best match it nearly is, or a match strong for any input.
ASKED_SHARE = 0.6  # of the best relevance among this recall's candidates, for a question or cue
STRONG_SHARE = 0.9  # of the best relevance, for any input


@dataclass
class ScoreContext:
    lexical: Mapping[str, float]
    vector: Mapping[str, float]
    diffusion: Mapping[str, float]
    anchors: set[str]
    cues: Cues
    character: str | None = None
    active_region: str | None = None
    adjacent_regions: frozenset[str] = frozenset()  # lower case
    region_weights: tuple[float, float, float] = (
        1.15,
        0.9,
        0.75,
    )  # current, adjacent, other (settings.recall)
    owners: frozenset[str] = frozenset()  # every name (lower case) of the characters the input names
    vectors_available: bool = True
    message_days: Mapping[int, DayRef] = field(default_factory=dict)
    now: float = 0.0
    lifecycle: LifecycleSettings = field(default_factory=LifecycleSettings)


def _same(a: str | None, b: str | None) -> bool:
    return bool(a and b and a.strip().lower() == b.strip().lower())


def pov_weight(node: Node, character: str | None, owners: Collection[str] = ()) -> float:
    """Who knows what: a point of view counts fully for the chat's character and for a
    character the input names ("what does Ilse think of me?"), less for anyone else's."""
    if node.scope.layer != "pov":
        return 1.0
    owner = node.scope.owner or ""
    name = owner.split(":", 1)[-1]
    if _same(name, character) or name.strip().lower() in owners:
        return POV_CHARACTER
    if owner.startswith("user"):
        return POV_USER
    return POV_OTHER


def region_weight(node: Node, ctx: ScoreContext) -> float:
    """ST-BME's region weights: the story's current region, a region next to it, another one.
    A memory without a region, or a recall with no current region, is not weighed."""
    region = (node.scope.region or "").strip().lower()
    if not region or not ctx.active_region:
        return 1.0
    current, adjacent, other = ctx.region_weights
    if region == ctx.active_region.strip().lower():
        return current
    return adjacent if region in ctx.adjacent_regions else other


def memory_kind(node: Node) -> str | None:
    """The kind of typed memory ``node`` is, as ``Cues.kinds`` names them (None: none of them)."""
    if node.type == "pov_memory" or (node.scope.layer == "pov" and node.type != "thread"):
        return "belief"
    if node.type == "thread":
        return "promise" if node.fields.get("status", "").strip().lower() in PROMISE_STATUSES else "thread"
    if node.type == "rule":
        return "rule"
    return None


def kind_weight(node: Node, cues: Cues) -> float:
    """``KIND_MATCH`` for a memory of the kind the input asks about; for "when…", a memory that
    carries a story time (a date, a time of day, a skip)."""
    if not cues.kinds:
        return 1.0
    if memory_kind(node) in cues.kinds:
        return KIND_MATCH
    if "time" in cues.kinds and str((node.story_time or {}).get("label") or "").strip():
        return KIND_MATCH
    return 1.0


def story_time_weight(node: Node, cues: Cues) -> float:
    tense = str((node.story_time or {}).get("tense", "")).lower()
    if tense == "future":
        return 1.0 if cues.future else 0.3
    if tense == "hypothetical":
        return 0.5
    if tense == "flashback":
        return 1.0 if cues.flashback else 0.8
    return 1.0


def day_weight(source_indices: Iterable[int], cues: Cues, message_days: Mapping[int, DayRef]) -> float:
    """Memories from the day (or month) a question names count more; those from other days less."""
    if not cues.days:
        return 1.0
    days = [message_days[i] for i in source_indices if i in message_days]
    if not days:
        return 1.0
    if any(d.matches(q) for d in days for q in cues.days if not q.is_month):
        return DAY_MATCH
    if any(d.matches(q) for d in days for q in cues.days if q.is_month):
        return MONTH_MATCH
    return MONTH_MISMATCH if all(q.is_month for q in cues.days) else DAY_MISMATCH


def score_node(node: Node, ctx: ScoreContext) -> tuple[float, dict[str, float]]:
    v = ctx.vector.get(node.id, 0.0)
    lex = ctx.lexical.get(node.id, 0.0)
    g = min(1.0, ctx.diffusion.get(node.id, 0.0))
    importance = max(0.0, min(10.0, node.importance)) / 10.0
    anchored = node.id in ctx.anchors
    relevance = W_VECTOR * v + W_LEXICAL * lex if ctx.vectors_available else W_VECTOR_ONLY_LEXICAL * lex
    relevance += W_GRAPH * g + W_IMPORTANCE * importance + (ANCHOR_BONUS if anchored else 0.0)
    retrievability = max(0.0, min(1.0, recall_strength(node, ctx.now, ctx.lifecycle)))
    w_life = 0.75 + 0.25 * retrievability
    w_pov = pov_weight(node, ctx.character, ctx.owners)
    w_region = region_weight(node, ctx)
    w_time = story_time_weight(node, ctx.cues) * day_weight(node.source_indices, ctx.cues, ctx.message_days)
    w_kind = kind_weight(node, ctx.cues)
    score = relevance * w_life * w_pov * w_region * w_time * w_kind
    return score, {  # raw numbers: whoever shows them rounds (the bridge, the kept record, the UI)
        "vector": v,
        "lexical": lex,
        "diffusion": g,
        "importance": importance,
        "anchor": 1.0 if anchored else 0.0,
        "relevance": relevance,
        "retrievability": retrievability,
        "w_lifecycle": w_life,
        "w_pov": w_pov,
        "w_region": w_region,
        "w_time": w_time,
        "w_kind": w_kind,
    }


def asked_for(
    sleeping: Sequence[RecalledNode],
    awake: Sequence[RecalledNode],
    ctx: ScoreContext,
    titled: Collection[str] = (),
) -> list[RecalledNode]:
    """The sleeping memories this recall asks for directly; the rest stay asleep. A memory
    whose title the input names verbatim (``titled``), or from a day or month the input
    names, is asked for; so is one whose
    relevance is near the best of the candidates (``ASKED_SHARE`` of it when the input is a
    question or a "remember when", ``STRONG_SHARE`` otherwise)."""
    if not sleeping:
        return []
    best = max(r.components["relevance"] for r in (*sleeping, *awake))
    share = ASKED_SHARE if (ctx.cues.question or ctx.cues.remember or ctx.cues.days) else STRONG_SHARE
    out = []
    for r in sleeping:
        named = r.node.id in titled or r.components["w_time"] > 1.0
        if named or r.components["relevance"] >= share * best:
            r.components["woken"] = 1.0
            out.append(r)
    return out
