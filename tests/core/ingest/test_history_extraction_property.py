"""History safety, as a property: however a chat is appended to, edited, trimmed and swiped,
and however those changes are grouped into syncs, the memory graph ends up equal to a
from-scratch extraction of the final chat in a fresh data folder."""

from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bme_desktop.core.model import MessageIn
from tests.core.extract.extract_helpers import canonical_graph, open_service

LINES = (
    "Marcus went to the Silver Tavern.",
    "I love green tea.",
    "I hate green tea now.",
    "You must always pay first.",
    "Alice smiles at Marcus.",
    "小明去了北京。",
    "My birthday is in May.",
    "Marcus wakes up angry.",
    "记住，我不吃香菜。",
    "They walked into Rivertown.",
    "Nothing happens.",
)
text = st.lists(st.sampled_from(LINES), min_size=1, max_size=2).map(" ".join)
turn = st.tuples(st.just("turn"), text, text)
append = st.tuples(st.just("append"), st.sampled_from(("user", "assistant")), text)
edit = st.tuples(st.just("edit"), st.integers(0, 30), text)
delete = st.tuples(st.just("delete"), st.integers(0, 30), st.none())
swipe = st.tuples(st.just("swipe"), st.integers(0, 30), text)
sync = st.tuples(st.just("sync"), st.none(), st.none())
actions = st.lists(
    st.one_of(turn, turn, turn, sync, sync, append, edit, delete, swipe), min_size=1, max_size=16
)


def apply(history: list[MessageIn], action: tuple[str, object, object]) -> list[MessageIn]:
    kind, arg, new_text = action
    if kind == "turn":
        return [
            *history,
            MessageIn(len(history), "user", str(arg)),
            MessageIn(len(history) + 1, "assistant", str(new_text)),
        ]
    if kind == "append":
        return [*history, MessageIn(len(history), str(arg), str(new_text))]
    if not history:
        return history
    i = int(str(arg)) % len(history)
    if kind == "edit":
        history = list(history)
        history[i] = replace(history[i], text=str(new_text))
    elif kind == "delete":
        history = [replace(m, index=n) for n, m in enumerate(history[:i] + history[i + 1 :])]
    elif kind == "swipe":
        last = max((m.index for m in history if m.role == "assistant"), default=None)
        if last is not None:
            history = list(history)
            history[last] = replace(
                history[last], text=str(new_text), swipe_id=(history[last].swipe_id or 0) + 1
            )
    return history


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(actions)
def test_incremental_extraction_equals_a_rebuild_from_scratch(
    steps: list[tuple[str, object, object]],
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        history: list[MessageIn] = []
        with open_service(Path(tmp, "live")) as live:
            for step in steps:
                if step[0] == "sync":
                    live.sync("c", history, complete=True, wait=True, character="Alice", user="Tom")
                else:
                    history = apply(history, step)
            live.sync("c", history, complete=True, wait=True, character="Alice", user="Tom")
            got = canonical_graph(live, "c")
        with open_service(Path(tmp, "fresh")) as fresh:
            fresh.sync("c", history, complete=True, wait=True, character="Alice", user="Tom")
            want = canonical_graph(fresh, "c")
        assert got == want


partial_actions = st.tuples(
    turn, st.lists(st.one_of(turn, turn, append, edit, edit, swipe), max_size=12)
).map(lambda first_and_rest: [first_and_rest[0], *first_and_rest[1]])


@settings(max_examples=20, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(partial_actions)
def test_partial_syncs_of_only_what_changed_equal_a_rebuild_from_scratch(
    steps: list[tuple[str, object, object]],
) -> None:
    """The way the SillyTavern extension syncs: each new message alone, each edit or swipe as
    a partial sync of that one message. Nothing after an edited message is lost, and what was
    derived from it on is extracted again."""
    with tempfile.TemporaryDirectory() as tmp:
        history: list[MessageIn] = []
        with open_service(Path(tmp, "live")) as live:
            for step in steps:
                before = history
                history = apply(history, step)
                changed = [m for m in history if m.index >= len(before) or m != before[m.index]]
                for message in changed:
                    live.sync("c", [message], complete=False, wait=True, character="Alice", user="Tom")
            assert [(m.index, m.text) for m in live.messages("c")] == [(m.index, m.text) for m in history]
            got = canonical_graph(live, "c")
        with open_service(Path(tmp, "fresh")) as fresh:
            fresh.sync("c", history, complete=True, wait=True, character="Alice", user="Tom")
            want = canonical_graph(fresh, "c")
        assert got == want
