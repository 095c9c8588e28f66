"""A generated demo story for an empty data folder: memories of every type with links,
points of view, tiers, review statuses, kept recalls and the user's persona (what the story
says about Wren, in three stages, each followed by a persona snapshot as the ``persona`` task
writes it). The welcome screen and ``bench/graph_shots.py`` build it (``ui/demo_story.py``
names it for them); it writes through the unit of work, as an import does.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from functools import partial
from typing import Protocol

from .editing import NodeDraft, create_node, link
from .ingest.history import apply_sync
from .lifecycle.persona import Trait, persona_in, synthesise
from .lifecycle.schedule import new_card
from .model import MessageIn, Node, RecallRequest, Scope
from .ports import ChatQueries, Clocked, Configured, Recalls, Writes
from .store.unit_of_work import UnitOfWork

DAY = 86400.0


class DemoTarget(Writes, ChatQueries, Recalls, Configured, Clocked, Protocol):
    """What the demo writes into (a ``MemoryService``)."""


CHARACTERS = (
    ("Lyra", "a lantern-keeper with a burned left hand", "keep the Ember Road lit"),
    ("Wren", "a cartographer who never draws the same map twice", "find the drowned library"),
    ("Captain Orsk", "a tired harbour captain who owes everyone", "pay the tithe before winter"),
    ("Mira Vale", "an archivist who speaks to ghosts in ledgers", "recover her sister's name"),
    ("The Grey Choir", "seven singers who share one memory", "forget the war"),
    ("Tamsin", "a smuggler's child with perfect pitch", "leave the harbour"),
    ("Old Hollin", "a ferryman who charges in secrets", "cross the river one last time"),
    ("Sable", "a fox that follows Lyra", "stay warm"),
)
PLACES = (
    ("Ember Road", "lanterns every forty paces"),
    ("Saltglass Harbour", "fog and broken masts"),
    ("The Drowned Library", "shelves under green water"),
    ("Hollin's Ferry", "a rope and a bell"),
    ("Choir Hall", "an echo that answers late"),
    ("Marrow Market", "stalls that sell hours"),
    ("North Watchtower", "a cold fire and a telescope"),
    ("Glasswood", "trees that ring in wind"),
)
RULES = (
    ("Lanterns must not go out", "If a lantern on the Ember Road dies, the road forgets travellers."),
    ("Secrets are currency", "Hollin's ferry is paid only in true secrets."),
    ("No names in the Library", "Speaking a true name under water wakes the drowned."),
    ("The Choir sings at dusk", "Every dusk the Grey Choir sings and someone forgets a day."),
    ("Debts pass to kin", "An unpaid harbour debt passes to the debtor's family."),
    ("Maps change at night", "Wren's maps redraw themselves between midnight and dawn."),
)
THREADS = (
    "The missing sister",
    "Orsk's winter tithe",
    "The drowned library's key",
    "Who taught the fox",
    "The Choir's forgotten war",
    "Tamsin's escape",
    "The last ferry crossing",
    "Lanterns failing north",
    "The market of hours",
    "Wren's impossible map",
)
ACTIONS = (
    "argues with",
    "shares bread with",
    "hides a letter from",
    "follows",
    "rescues",
    "lies to",
    "bargains with",
    "sings for",
    "waits for",
    "teaches",
)
OBJECTS = (
    "a cracked lantern",
    "a wet ledger",
    "a brass key",
    "a map of a coast that isn't there",
    "a bell with no clapper",
    "a jar of bottled fog",
    "a silver fishhook",
    "a list of forgotten days",
)
EMOTIONS = ("wary", "grateful", "angry", "hopeful", "ashamed", "curious", "afraid", "fond")
CATEGORIES = ("trait", "preference", "goal", "decision", "lesson", "fact", "knowledge", "event")
USER = "Wren"
# What the user (Wren) revealed about themself, by age in days: each stage is one extraction
# followed by a persona snapshot; a repeated statement adds evidence to the same trait.
USER_ARC: tuple[tuple[float, tuple[tuple[str, str], ...]], ...] = (
    (
        34.0,
        (
            ("trait", "patient with strangers"),
            ("preference", "travels at night, when the lanterns are lit"),
            ("goal", "find the drowned library"),
        ),
    ),
    (
        20.0,
        (
            ("trait", "distrusts harbour officials"),
            ("decision", "decides only after redrawing the map"),
            ("preference", "prefers tea to wine"),
        ),
    ),
    (
        6.0,
        (
            ("trait", "patient with strangers"),
            ("goal", "learn who taught the fox"),
            ("decision", "keeps promises even when they cost"),
        ),
    ),
)


@dataclass
class DemoReport:
    chats: int = 0
    nodes: int = 0
    edges: int = 0
    recalls: int = 0


def _messages(rng: random.Random, count: int) -> list[MessageIn]:
    out: list[MessageIn] = []
    for i in range(count):
        a, b = rng.sample(CHARACTERS, 2)
        place, obj = rng.choice(PLACES)[0], rng.choice(OBJECTS)
        text = f"{a[0]} {rng.choice(ACTIONS)} {b[0]} at {place}, holding {obj}."
        out.append(
            MessageIn(
                index=i,
                role="user" if i % 2 == 0 else "assistant",
                text=text,
                name="Wren" if i % 2 == 0 else "Lyra",
            )
        )
    return out


class _Builder:
    def __init__(self, uow: UnitOfWork, chat_id: str, rng: random.Random, now: float, messages: int) -> None:
        self.uow, self.chat_id, self.rng, self.now, self.messages = uow, chat_id, rng, now, messages
        self.nodes: dict[str, list[Node]] = {}
        self.edges = 0

    def node(
        self,
        type_id: str,
        fields: dict[str, str],
        *,
        age_days: float,
        scope: Scope | None = None,
        pinned: bool = False,
        settled: bool = False,
    ) -> Node:
        """A memory of random tier and review status; ``settled``: long-term and approved."""
        rng = self.rng
        tier = rng.choices(("short_term", "long_term", "dormant", "archived"), (4, 8, 2, 1))[0]
        review = rng.choices(("approved", "pending", "rejected"), (86, 11, 3))[0]
        if settled:
            tier, review = "long_term", "approved"
        start = rng.randrange(max(1, self.messages - 2))
        draft = NodeDraft(
            type=type_id,
            fields=fields,
            importance=round(rng.uniform(2, 9.5), 1),
            tier=tier,
            review_status=review,
            pinned=pinned,
            scope=scope or Scope(),
            source_indices=[start, start + 1],
        )
        node = create_node(self.uow, self.chat_id, draft, manual=False)
        when = self.now - age_days * DAY
        node = replace(
            node,
            created_at=when,
            updated_at=when + rng.uniform(0, age_days) * DAY * 0.5,
            recall_count=rng.randrange(0, 12),
        )
        self.uow.put_node(node)
        self.nodes.setdefault(type_id, []).append(node)
        return node

    def link(self, a: Node, b: Node, relation: str) -> None:
        if a.id == b.id:
            return
        link(self.uow, self.chat_id, a.id, b.id, relation, manual=False)
        self.edges += 1

    def pick(self, type_id: str) -> Node:
        return self.rng.choice(self.nodes[type_id])


def _story(b: _Builder, scale: int) -> None:
    rng, days = b.rng, 40.0
    for name, trait, goal in CHARACTERS:
        b.node(
            "character",
            {"name": name, "traits": trait, "goal": goal, "state": f"{rng.choice(EMOTIONS)} and travelling"},
            age_days=days,
            pinned=name == "Lyra",
        )
    for name, feature in PLACES:
        b.node("location", {"name": name, "features": feature, "state": "quiet tonight"}, age_days=days)
    for title, constraint in RULES:
        b.node("rule", {"title": title, "constraint": constraint}, age_days=days)
    for title in THREADS:
        b.node(
            "thread",
            {"title": title, "summary": f"Open question: {title.lower()}.", "status": "open"},
            age_days=rng.uniform(5, days),
        )
    for i in range(18 * scale):
        a, other, place = b.pick("character"), b.pick("character"), b.pick("location")
        if a.id == other.id:
            continue
        age = days * (1 - i / (18 * scale))
        event = b.node(
            "event",
            {
                "title": f"{a.title} {rng.choice(ACTIONS)} {other.title}",
                "summary": f"At {place.title}, {a.title} {rng.choice(ACTIONS)} {other.title} "
                f"over {rng.choice(OBJECTS)}.",
                "participants": f"{a.title}, {other.title}",
            },
            age_days=age,
        )
        b.link(a, event, "involved_in")
        b.link(other, event, "involved_in")
        b.link(event, place, "occurred_at")
        if rng.random() < 0.4:
            b.link(event, b.pick("thread"), "advances")
        if rng.random() < 0.35:
            owner = rng.choice((a, other))
            pov = b.node(
                "pov_memory",
                {
                    "summary": f"{owner.title} remembers {other.title if owner is a else a.title} "
                    f"differently: {rng.choice(EMOTIONS)}.",
                    "about": event.title,
                    "emotion": rng.choice(EMOTIONS),
                    "certainty": rng.choice(("sure", "unsure", "half-remembered")),
                },
                age_days=age,
                scope=Scope(layer="pov", owner=owner.title),
            )
            b.link(pov, event, "related")
    for i in range(9 * scale):
        subject = b.pick("character")
        fact = b.node(
            "fact",
            {
                "subject": subject.title,
                "category": rng.choice(CATEGORIES),
                "statement": f"{subject.title} keeps {rng.choice(OBJECTS)} close.",
            },
            age_days=rng.uniform(0, days),
        )
        b.link(fact, subject, "related")
        other_fact = b.pick("fact")
        if i % 7 == 3 and other_fact.id != fact.id:
            b.link(fact, other_fact, "contradicts")
    for _ in range(2 * scale):
        b.node(
            "reflection",
            {
                "insight": f"{b.pick('character').title} acts out of {rng.choice(EMOTIONS)} fear.",
                "trigger": b.pick("thread").title,
                "suggestion": "Let it surface slowly.",
            },
            age_days=rng.uniform(0, days / 2),
        )
    for part in range(3):
        b.node(
            "synopsis",
            {
                "scope": f"Chapter {part + 1}",
                "summary": "The road, the harbour and the drowned "
                "library pull the travellers in three directions.",
            },
            age_days=days - part * 12,
        )


def _persona_stage(
    uow: UnitOfWork,
    chat_id: str,
    rng: random.Random,
    now: float,
    messages: int,
    age_days: float,
    statements: tuple[tuple[str, str], ...],
    service: DemoTarget,
) -> None:
    """One extraction of user facts, then the persona snapshot of that moment (only memories
    that existed by then count, through ``persona_in``'s synthesiser seam). The facts are as
    upkeep and the review centre leave them: long-term, approved, with their first card (so
    a later upkeep pass does not send them back to review)."""
    uow.begin_batch(
        chat_id,
        "extract",
        actor="demo",
        description="demo story: what Wren said about themself",
        read_from=0,
        read_to=messages - 1,
    )
    builder = _Builder(uow, chat_id, rng, now, messages)
    me = next((n for n in uow.read.all_nodes(chat_id) if n.type == "character" and n.title == USER), None)
    settings = service.settings.lifecycle
    for kind, statement in statements:
        fact = builder.node(
            "fact",
            {"subject": USER, "category": kind, "statement": statement},
            age_days=age_days,
            settled=True,
        )
        uow.put_node(replace(fact, srs=new_card(fact.created_at, fact.importance, settings)))
        if me is not None:
            builder.link(fact, me, "related")
    uow.end_batch()
    when = now - age_days * DAY

    def then(nodes: list[Node], user: str | None) -> list[Trait]:
        return synthesise([n for n in nodes if n.created_at <= when], user)

    persona_in(uow, chat_id, when, settings, synthesiser=then)


def build_demo(service: DemoTarget, *, seed: int = 7, scale: int = 8) -> DemoReport:
    """Fill the service with two demo chats (does nothing if any chat exists)."""
    report = DemoReport()
    if service.list_chats():
        return report
    for chat_id, chat_scale, count in (
        ("demo-ember-road", scale, 160),
        ("demo-saltglass", max(1, scale // 4), 40),
    ):
        rng = random.Random(f"{seed}-{chat_id}")
        messages = _messages(rng, count)
        character = "Lyra" if chat_scale == scale else "Captain Orsk"
        # Store the messages without queueing extraction: the demo's memories are written below.
        service.write(
            partial(
                apply_sync, chat_id=chat_id, messages=messages, complete=True, character=character, user=USER
            )
        )
        now = service.now()

        def fill(
            uow: UnitOfWork,
            chat_id: str = chat_id,
            rng: random.Random = rng,
            count: int = count,
            chat_scale: int = chat_scale,
            now: float = now,
        ) -> _Builder:
            uow.begin_batch(
                chat_id, "extract", actor="demo", description="demo story", read_from=0, read_to=count - 1
            )
            builder = _Builder(uow, chat_id, rng, now, count)
            _story(builder, chat_scale)
            uow.end_batch()
            return builder

        builder = service.write(fill)
        for age_days, statements in USER_ARC:
            service.write(
                partial(
                    _persona_stage,
                    chat_id=chat_id,
                    rng=rng,
                    now=now,
                    messages=count,
                    age_days=age_days,
                    statements=statements,
                    service=service,
                )
            )
        report.chats += 1
        report.nodes += sum(len(v) for v in builder.nodes.values())
        report.edges += builder.edges
        for message in messages[::16]:
            if message.role == "user":
                service.recall(RecallRequest(chat_id=chat_id, user_input=message.text, index=message.index))
                report.recalls += 1
    return report
