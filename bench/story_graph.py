"""A synthetic long story as a memory graph, for the graph benches and screenshots at any size.

Shaped like a long role-play chat's memories: a cast and a map that grow as the story goes on,
events in arcs (each arc follows a few characters through a few places), facts about characters,
points of view on events, threads the events advance, a few rules, reflections and chapter
summaries. Hubs (the main characters) touch many arcs, as in a real chat: the hard case for a
readable layout. Names are made from syllables so titles repeat rarely, as real ones do.

    from story_graph import seed_story
    seed_story(service, "bench-story", 10_000)      # writes through the store, one transaction

``story(n)`` returns the node and edge records without a store (for GraphData directly).
"""

from __future__ import annotations

import random

from bme_desktop.core.editing import new_id
from bme_desktop.core.model import Edge, MessageIn, Node, Scope
from bme_desktop.core.schema import node_title
from bme_desktop.core.service import MemoryService

SYLLABLES = (
    "ka",
    "ren",
    "lo",
    "mi",
    "sa",
    "tor",
    "vel",
    "an",
    "ith",
    "ou",
    "bra",
    "syl",
    "dor",
    "ne",
    "qui",
    "fa",
    "rel",
    "mo",
    "zan",
    "el",
    "ca",
    "thu",
    "ri",
    "gan",
)
PLACE_WORDS = ("Harbour", "Road", "Market", "Tower", "Library", "Ford", "Hollow", "Gate", "Mill", "Chapel")
ACTIONS = (
    "argues with",
    "shares bread with",
    "hides a letter from",
    "follows",
    "rescues",
    "lies to",
    "bargains with",
    "teaches",
    "waits for",
    "forgives",
)
OBJECTS = ("a cracked lantern", "a wet ledger", "a brass key", "a torn map", "a silver bell", "salt")
EMOTIONS = ("wary", "grateful", "angry", "hopeful", "ashamed", "curious", "afraid", "fond")


def _name(rng: random.Random, parts: int = 2) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(parts)).capitalize()


def story(
    n: int, chat_id: str = "bench-story", seed: int = 7, now: float = 1.7e9
) -> tuple[list[Node], list[Edge]]:
    rng = random.Random(seed)
    nodes: list[Node] = []
    edges: list[Edge] = []
    t = [now - n * 60.0]

    def node(type_id: str, fields: dict[str, str], importance: float, scope: Scope | None = None) -> Node:
        t[0] += 60.0
        out = Node(
            id=new_id(),
            chat_id=chat_id,
            type=type_id,
            title=node_title(type_id, fields),
            fields=fields,
            importance=importance,
            tier=rng.choice(("long_term", "long_term", "long_term", "short_term")),
            scope=scope or Scope(),
            created_at=t[0],
            updated_at=t[0],
            source_indices=[len(nodes)],
        )
        nodes.append(out)
        return out

    def link(a: Node, b: Node, relation: str) -> None:
        edges.append(
            Edge(
                id=new_id(),
                chat_id=chat_id,
                from_id=a.id,
                to_id=b.id,
                relation=relation,
                created_at=t[0],
                updated_at=t[0],
            )
        )

    cast = [node("character", {"name": _name(rng)}, 9.0) for _ in range(4)]
    places = [node("location", {"name": f"{_name(rng)} {rng.choice(PLACE_WORDS)}"}, 7.0) for _ in range(3)]
    for i in range(3):
        node("rule", {"title": f"Rule {i + 1}", "constraint": "Never name the drowned king."}, 8.0)
    threads: list[Node] = []
    while len(nodes) < n:
        # a new arc: a few of the cast (the main ones often), a new face or two, one or two places
        if rng.random() < 0.7 or len(cast) < 8:
            cast.append(node("character", {"name": _name(rng)}, rng.uniform(4, 8)))
        if rng.random() < 0.5:
            places.append(
                node("location", {"name": f"{_name(rng)} {rng.choice(PLACE_WORDS)}"}, rng.uniform(3, 7))
            )
        thread = node(
            "thread",
            {
                "title": f"The {rng.choice(OBJECTS).split()[-1]} of {_name(rng)}",
                "summary": "An open question.",
                "status": "open",
            },
            rng.uniform(4, 8),
        )
        threads.append(thread)
        arc_cast = [*rng.sample(cast[:4], 1), *rng.sample(cast[-6:], 3)]
        arc_places = rng.sample(places[-5:], min(2, len(places)))
        for _ in range(rng.randint(25, 60)):
            if len(nodes) >= n:
                break
            a, b = rng.sample(arc_cast, 2)
            place = rng.choice(arc_places)
            event = node(
                "event",
                {
                    "title": f"{a.title} {rng.choice(ACTIONS)} {b.title}",
                    "summary": f"At {place.title}, {a.title} and {b.title} over {rng.choice(OBJECTS)}.",
                    "participants": f"{a.title}, {b.title}",
                },
                rng.uniform(1, 9),
            )
            link(a, event, "involved_in")
            link(b, event, "involved_in")
            link(event, place, "occurred_at")
            if rng.random() < 0.4:
                link(event, thread, "advances")
            roll = rng.random()
            if roll < 0.25:
                pov = node(
                    "pov_memory",
                    {
                        "summary": f"{a.title} remembers it {rng.choice(EMOTIONS)}.",
                        "about": event.title,
                        "emotion": rng.choice(EMOTIONS),
                    },
                    rng.uniform(1, 6),
                    Scope(layer="pov", owner=a.title),
                )
                link(pov, event, "related")
            elif roll < 0.55:
                fact = node(
                    "fact",
                    {"subject": b.title, "statement": f"{b.title} keeps {rng.choice(OBJECTS)}."},
                    rng.uniform(1, 7),
                )
                link(fact, b, "related")
            elif roll < 0.6:
                node("fact", {"subject": "weather", "statement": f"It rained on day {len(nodes)}."}, 1.0)
        if rng.random() < 0.3:
            node(
                "reflection",
                {
                    "insight": f"{arc_cast[0].title} acts out of fear.",
                    "trigger": thread.title,
                    "suggestion": "Let it surface slowly.",
                },
                rng.uniform(3, 6),
            )
        if len(threads) % 8 == 0:
            node("synopsis", {"scope": f"Chapter {len(threads) // 8}", "summary": "The story so far."}, 8.0)
    kept = {x.id for x in nodes[:n]}
    return nodes[:n], [e for e in edges if e.from_id in kept and e.to_id in kept]


def seed_story(service: MemoryService, chat_id: str, n: int, seed: int = 7) -> None:
    """Write the story into the store once (does nothing if the chat already has ``n`` memories)."""
    if service.has_chat(chat_id) and service.chat_stats(chat_id).node_count >= n:
        return
    service.sync(chat_id, [MessageIn(index=0, role="user", text="hello")], complete=True)
    nodes, edges = story(n, chat_id, seed, now=service.now())

    def write(uow: object) -> None:
        for x in nodes:
            uow.put_node(x)  # type: ignore[attr-defined]
        for e in edges:
            uow.put_edge(e)  # type: ignore[attr-defined]

    service.write(write)  # type: ignore[arg-type]
