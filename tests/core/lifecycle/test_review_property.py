"""Using a memory never hides it: over random sequences of syncs, recalls with ``index`` (as
the SillyTavern extension sends them), upkeep and clock jumps (forwards by hours to years,
and backwards), no memory that was injectable stops being injectable through a recall or a
promotion, gate on or off; and after all of it, each memory that was ever made (and not
rejected, deleted or merged away) is found again when the user asks for it directly."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bme_desktop.core.clock import ManualClock
from bme_desktop.core.extract.scheduler import attach as attach_extraction
from bme_desktop.core.lifecycle import is_injectable, run_upkeep
from bme_desktop.core.lifecycle.intake import intake_in
from bme_desktop.core.lifecycle.tiers import is_held
from bme_desktop.core.model import MessageIn, Node
from bme_desktop.core.providers.local_embedder_hashed import HashedNgramEmbedder
from bme_desktop.core.recall.api import RecallRequest
from bme_desktop.core.recall.pipeline import HybridRecaller, attach
from bme_desktop.core.service import MemoryService
from bme_desktop.core.settings import Settings

CHAT = "lived"
DAY = 86_400.0
FACTS = [
    "My sister Lena lives in Lisbon and works at the harbour museum.",
    "Tomas adopted a grey cat called Pepper last spring.",
    "The brass key opens the old lighthouse door on the northern cliff.",
    "Mira is allergic to peanuts and always carries her own snacks.",
    "Our band plays at the Crooked Lantern every Friday night.",
    "Grandfather Elias built the wooden boat that hangs in the barn.",
    "I passed the pottery exam with a blue glazed teapot.",
    "The caravan leaves Ashford at dawn on the first day of the month.",
]
REPLIES = ["That sounds lovely, tell me more.", "I will remember that.", "Oh really? How did that go?"]

step = st.one_of(
    st.tuples(st.just("say"), st.integers(0, len(FACTS) - 1)),
    st.tuples(st.just("ask"), st.integers(0, len(FACTS) - 1)),
    st.tuples(st.just("upkeep"), st.just(0)),
    st.tuples(
        st.just("clock"),
        st.sampled_from([-400 * DAY, -3 * DAY, 2 * 3600.0, 3 * DAY, 40 * DAY, 400 * DAY, 3 * 365 * DAY]),
    ),
)


@contextmanager
def lived_service(gate: bool) -> Iterator[tuple[MemoryService, HybridRecaller, ManualClock]]:
    config = Settings()
    config.lifecycle.review_gate = gate
    clock = ManualClock()
    with tempfile.TemporaryDirectory() as tmp:
        service = MemoryService.open(Path(tmp), settings=config, clock=clock, attach=False)
        attach_extraction(service)
        recaller = attach(service, lambda: HashedNgramEmbedder(dim=64))
        try:
            yield service, recaller, clock
        finally:
            assert recaller.vectors is not None
            recaller.vectors.stop()
            service.close()


def live_nodes(service: MemoryService) -> dict[str, Node]:
    return {n.id: n for n in service.all_nodes(CHAT) if n.deleted_at is None}


def question_for(node: Node) -> str:
    return f"Do you remember what I told you: {node.title}?"


@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(step, min_size=4, max_size=14), gate=st.booleans())
def test_a_recall_or_a_promotion_never_hides_a_memory(steps: list[tuple[str, float]], gate: bool) -> None:
    with lived_service(gate) as (service, recaller, clock):
        index = 0
        made: set[str] = set()
        for kind, arg in steps:
            if kind == "say":  # a user turn and its reply, extracted; intake as the life-cycle worker does
                turn = [
                    MessageIn(index, "user", FACTS[int(arg)], name="Tom"),
                    MessageIn(index + 1, "assistant", REPLIES[index % len(REPLIES)], name="Lena"),
                ]
                service.sync(CHAT, turn, character="Lena", user="Tom", wait=True)
                index += 2
                fresh = [i for i in live_nodes(service) if i not in made]
                service.write(
                    lambda uow, ids=fresh: intake_in(uow, CHAT, ids, clock.now(), service.settings.lifecycle)
                )
                made |= set(fresh)
            elif kind in ("ask", "upkeep"):
                if not made:
                    continue
                before = {i for i, n in live_nodes(service).items() if is_injectable(n, gate)}
                if kind == "ask":  # before each user turn, exactly as the extension does
                    service.recall(RecallRequest(CHAT, FACTS[int(arg)], index=index))
                    service.flush_later_writes()  # the recall's hits (reviews, promotions, wakes)
                    after = live_nodes(service)
                    lost = {i for i in before if not is_injectable(after[i], gate)}
                    assert not lost, f"a recall hid {[after[i].title for i in lost]}"
                else:
                    run_upkeep(service, CHAT)
                    after = live_nodes(service)
                    # upkeep may put memories to sleep (time passing); a promotion must not hide one
                    promoted = {i for i, n in after.items() if "promoted_at" in n.flags}
                    lost = {
                        i
                        for i in before & promoted
                        if not is_injectable(after[i], gate) and after[i].tier in ("short_term", "long_term")
                    }
                    assert not lost, f"a promotion hid {[after[i].title for i in lost]}"
            else:
                clock.advance(arg)
        if index == 0:
            return  # nothing was said: there is no chat
        clock.advance(3 * DAY)
        run_upkeep(service, CHAT)
        assert recaller.vectors is not None and recaller.vectors.wait_idle(30)
        final = live_nodes(service)
        for node_id in made:
            node = final.get(node_id)
            if (
                node is None
                or node.review_status == "rejected"
                or (node.tier == "archived" and "expired_at" not in node.flags)
            ):
                continue  # rolled back, rejected or merged away: not the life cycle's doing
            if is_held(node, gate):
                continue  # waiting for approval under the strict gate since it was made
            found = service.recall(RecallRequest(CHAT, question_for(node), top_k=20))
            assert node_id in {r.node.id for r in found.nodes}, (
                f"{node.title!r} ({node.tier}) was not found when asked for directly"
            )
