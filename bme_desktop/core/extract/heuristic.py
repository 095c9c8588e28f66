"""The deterministic extractor used when no model is configured (or the model failed).

Per assistant reply it proposes one event (with the user turn it answers; its source
indices are those few messages), characters and places named in the batch, rules from
rule-like sentences and facts from stable-fact cues, plus the links between them. Only the
batch's own messages produce memories; context-only messages help recognise names. Same
input, same plan: nothing here reads the clock, the graph or random state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..model import Scope
from . import entities
from .cleaning import PreparedMessage
from .cues import FIRST_PERSON, SECOND_PERSON, change_cue, fact_cue
from .names import Mention, NameFinder
from .operations import CognitionOp, LinkOp, NodeOp, Plan, RegionUpdate
from .rules import overrides_fact, rules_in
from .scene import place_at, read_scene
from .story import OpenItem, StoryReader, Turn
from .textutil import clip, sentences, term_set

MAX_NAMES = 12
MAX_FACTS = 8
MAX_RULES = 4
MAX_USER_TURNS = 3


@dataclass(frozen=True)
class ChatInfo:
    character: str | None = None
    user: str | None = None


def speaker(m: PreparedMessage, chat: ChatInfo) -> str | None:
    if m.name:
        return m.name
    if m.role == "assistant":
        return chat.character
    if m.role == "user":
        return chat.user
    return None


class HeuristicExtractor:
    name = "heuristic"

    def __init__(self, finder: NameFinder | None = None) -> None:
        self.finder = finder or NameFinder()

    def extract(
        self, window: Sequence[PreparedMessage], chat: ChatInfo, open_items: Sequence[OpenItem] = ()
    ) -> Plan:
        """The plan for the batch's own messages; ``open_items``: the graph's open threads,
        promises and beliefs (see :mod:`.story`), which these messages may close."""
        plan = Plan(extractor=self.name)
        own = [m for m in window if not m.context_only]
        if not own:
            return plan
        speakers = sorted(
            {s for m in window if (s := speaker(m, chat))} | {n for n in (chat.character, chat.user) if n}
        )
        whole = "\n".join(m.text for m in window)
        mentions: dict[int, list[Mention]] = {
            m.index: self.finder.find(
                m.text,
                known=speakers,
                window=whole,
                speaker=speaker(m, chat),
                addressee=chat.character if m.role == "user" else chat.user,
            )
            for m in own
        }
        events = self._events(own, chat, mentions, plan)
        event_of = {i: ref for ref, indices in events for i in indices}
        self._names(own, chat, mentions, event_of, plan)
        self._facts_and_rules(own, chat, mentions, event_of, plan)
        self._scene(own, mentions, plan)
        turns = [
            Turn(m, speaker(m, chat), chat.character if m.role == "user" else chat.user, mentions[m.index])
            for m in own
            if m.role != "system"
        ]
        StoryReader(plan, open_items, event_of).read(turns)
        return plan

    def _events(
        self, own: list[PreparedMessage], chat: ChatInfo, mentions: dict[int, list[Mention]], plan: Plan
    ) -> list[tuple[str, list[int]]]:
        out: list[tuple[str, list[int]]] = []
        pending: list[PreparedMessage] = []
        for m in own:
            if m.role == "user":
                pending.append(m)
                continue
            if m.role != "assistant":
                continue
            turn = [*pending[-MAX_USER_TURNS:], m]
            pending = []
            names: list[str] = []
            for part in turn:
                for n in [
                    speaker(part, chat),
                    *(x.name for x in mentions[part.index] if x.kind == "character"),
                ]:
                    if n and n not in names:
                        names.append(n)
            said = [
                f"{speaker(p, chat) or p.role}: {clip(p.text, 200 if p.role == 'user' else 320)}"
                for p in turn
            ]
            first = sentences(m.text)
            fields = {
                "summary": clip(" / ".join(said), 600),
                "title": clip(first[0] if first else m.text, 60),
            }
            if names:
                fields["participants"] = ", ".join(names[:8])
            ref = f"event@{m.index}"
            indices = [p.index for p in turn]
            plan.ops.append(
                NodeOp("create", "event", fields, ref=ref, importance=5.0, source_indices=indices)
            )
            plan.cognition.extend(CognitionOp(n, known=[ref]) for n in names[:8])
            out.append((ref, indices))
        return out

    def _names(
        self,
        own: list[PreparedMessage],
        chat: ChatInfo,
        mentions: dict[int, list[Mention]],
        event_of: dict[int, str],
        plan: Plan,
    ) -> None:
        seen: dict[str, NodeOp] = {}
        speakers = sorted({n for n in (chat.character, chat.user, *(m.name for m in own)) if n})
        for m in own:
            found = list(mentions[m.index])
            who = speaker(m, chat)
            if who and m.role != "system":
                found.insert(0, Mention(who, "character"))
            for mention in found:
                key = mention.name.lower()
                op = seen.get(key)
                if op is None:
                    if len(seen) >= MAX_NAMES:
                        continue
                    op = NodeOp(
                        "create",
                        mention.kind,
                        {"name": mention.name},
                        ref=f"{mention.kind}:{key}",
                        importance=6.0 if mention.kind == "character" else 4.0,
                        entity=True,
                    )
                    if entities.role_title(mention.name):
                        op.avoid = speakers  # 林掌柜 is not the speaker 林远 for sharing a surname
                    seen[key] = op
                    plan.ops.append(op)
                if mention.aliases:
                    op.fields[entities.ALIASES_FIELD] = entities.with_aliases(op.fields, mention.aliases)
                if m.index not in op.source_indices:
                    op.source_indices.append(m.index)
                state = next(
                    (s for s in reversed(sentences(m.text)) if mention.name.lower() in s.lower()), None
                )
                if state and m.role == "assistant":
                    op.fields["state"] = clip(state, 240)
                event = event_of.get(m.index)
                if event:
                    relation = "involved_in" if mention.kind == "character" else "occurred_at"
                    link = LinkOp(event, relation) if relation == "involved_in" else None
                    if link and all(x.target != event for x in op.links):
                        op.links.append(link)
                    if relation == "occurred_at":
                        ev = next(o for o in plan.ops if o.ref == event)
                        if all(x.target != op.ref for x in ev.links):
                            ev.links.append(LinkOp(op.ref or "", "occurred_at"))
        for op in seen.values():
            op.source_indices = op.source_indices[-4:]

    def _facts_and_rules(
        self,
        own: list[PreparedMessage],
        chat: ChatInfo,
        mentions: dict[int, list[Mention]],
        event_of: dict[int, str],
        plan: Plan,
    ) -> None:
        facts = rules = 0
        for m in own:
            who = speaker(m, chat)
            other = chat.character if m.role == "user" else chat.user
            names = [x.name for x in mentions[m.index] if x.kind == "character"]
            said = sentences(m.text)
            found = {n: text for n, text in rules_in(said, [*names, *(x for x in (who, other) if x)])}
            for n, sentence in enumerate(said):
                if len(term_set(sentence)) < 2:
                    continue  # "Remember that!" alone says nothing to keep
                cue = fact_cue(sentence)
                event = event_of.get(m.index)
                rule = found.get(n)
                change = change_cue(sentence)  # "I hate it now", "我戒奶茶了": may replace an older fact
                if change and cue is None and rule is None:
                    cue = ("fact", 6.5)
                if rule is not None and (cue is None or overrides_fact(sentence)) and rules < MAX_RULES:
                    rules += 1
                    op = NodeOp(
                        "create",
                        "rule",
                        {"title": clip(rule, 48), "constraint": clip(rule, 300)},
                        ref=f"rule@{m.index}.{rules}",
                        importance=7.0,
                        source_indices=[m.index],
                    )
                    if event:
                        op.links.append(LinkOp(event, "related", 0.6))
                    plan.ops.append(op)
                elif cue and facts < MAX_FACTS:
                    facts += 1
                    subject = _subject(sentence, who, other, names)
                    fields = {"statement": clip(sentence, 300), "category": cue[0]}
                    if subject:
                        fields["subject"] = subject
                    op = NodeOp(
                        "create",
                        "fact",
                        fields,
                        ref=f"fact@{m.index}.{facts}",
                        importance=cue[1],
                        source_indices=[m.index],
                        scope=Scope(),
                        change=change,
                    )
                    if event:
                        op.links.append(LinkOp(event, "related", 0.6))
                    subject_ref = f"character:{subject.lower()}" if subject else None
                    if subject_ref and any(o.ref == subject_ref for o in plan.ops):
                        op.links.append(LinkOp(subject_ref, "related", 0.8))
                    plan.ops.append(op)

    @staticmethod
    def _scene(own: list[PreparedMessage], mentions: dict[int, list[Mention]], plan: Plan) -> None:
        """Each event's place and story time; the batch's active region, neighbours and time."""
        scene = read_scene([(m.index, m.text, mentions[m.index]) for m in own])
        for op in plan.ops:
            if op.type != "event" or not op.source_indices:
                continue
            region = place_at(scene, max(op.source_indices))
            if region:
                op.scope = Scope(region=region)
            when = next((scene.time[i] for i in reversed(op.source_indices) if i in scene.time), None)
            if when:
                op.story_time = dict(when)
        moves = sorted(scene.place)
        plan.regions = RegionUpdate(
            active=scene.place[moves[-1]] if moves else None, adjacency=scene.adjacency
        )
        plan.story_time = dict(scene.now) if scene.now else None


def _subject(sentence: str, who: str | None, other: str | None, names: list[str]) -> str | None:
    lowered = sentence.lower()
    for name in names:
        if lowered.startswith(name.lower()):
            return name
    if FIRST_PERSON.search(sentence):
        return who
    if SECOND_PERSON.search(sentence):
        return other
    present = [n for n in names if n.lower() in lowered]
    return present[0] if len(present) == 1 else who
