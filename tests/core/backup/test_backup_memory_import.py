"""Import at the memory level: a preview of new / updated / skipped / merged / deleted before
anything is written, four modes, and importing the same file twice changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from backup_sample import CHAT
from chain_helpers import state
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bme_desktop.core import editing
from bme_desktop.core.backup.export import dumps, export_document
from bme_desktop.core.backup.memory_import import MODES, import_memories, preview_import
from bme_desktop.core.backup.validate import ChatDoc, load_document
from bme_desktop.core.model import MessageIn
from bme_desktop.core.service import MemoryService


def exported(service: MemoryService) -> list[ChatDoc]:
    return load_document(dumps(service.read(lambda r: export_document(r, now=0.0))).encode("utf-8"))


def titles(service: MemoryService) -> list[str]:
    return sorted(n.title for n in service.all_nodes(CHAT))


def diverge(service: MemoryService) -> dict[str, Any]:
    """After an export: a memory added here, one edited here, one deleted for good here."""
    nodes = {n.title: n for n in service.all_nodes(CHAT)}
    service.create_node(CHAT, editing.NodeDraft("location", {"name": "Harbour"}))
    service.update_node(CHAT, nodes["Ann"].id, {"importance": 3.0})
    return {"ann": nodes["Ann"]}


@pytest.mark.parametrize("mode", MODES)
def test_the_preview_writes_nothing_and_the_import_does_what_it_said(
    filled: MemoryService, mode: str
) -> None:
    doc = exported(filled)
    diverge(filled)
    before = state(filled)
    plan = preview_import(filled, doc, mode)  # type: ignore[arg-type]
    assert state(filled) == before
    done = import_memories(filled, doc, mode)  # type: ignore[arg-type]
    assert done.counts == plan.counts and done.written and not plan.written
    nodes = len(doc[0].nodes)
    expected = {
        "skip": {"new": 0, "updated": 0, "skipped": nodes, "merged": 0, "deleted": 0},
        "merge": {
            "new": 0,
            "updated": 1,
            "skipped": nodes - 1,
            "merged": 0,
            "deleted": 0,
        },  # Ann's importance back up
        "new": {"new": nodes, "updated": 0, "skipped": 0, "merged": 0, "deleted": 0},
        "replace": {"new": 0, "updated": 1, "skipped": nodes - 1, "merged": 0, "deleted": 1},  # Harbour goes
    }[mode]
    assert plan.counts == expected
    if mode == "replace":
        assert "Harbour" not in titles(filled)
    elif mode == "new":
        assert len(titles(filled)) == 2 * (nodes - 1) + 1  # the recycled one stays in the bin
    else:
        assert "Harbour" in titles(filled)
    if mode == "merge":
        ann = next(n for n in filled.all_nodes(CHAT) if n.title == "Ann")
        assert ann.importance == 8.0
    assert plan.examples[next(k for k, v in expected.items() if v)]  # examples name the memories


@pytest.mark.parametrize("mode", ["skip", "merge", "replace"])
def test_importing_the_same_file_twice_changes_nothing(filled: MemoryService, mode: str) -> None:
    doc = exported(filled)
    diverge(filled)
    import_memories(filled, doc, mode)  # type: ignore[arg-type]
    after_first = state(filled)
    again = import_memories(filled, doc, mode)  # type: ignore[arg-type]
    assert state(filled) == after_first
    assert (
        again.counts["new"]
        == again.counts["updated"]
        == again.counts["merged"]
        == again.counts["deleted"]
        == 0
    )
    assert again.links_added == again.messages_added == 0


def test_merge_reinforces_a_near_duplicate_of_another_id(
    filled: MemoryService, service: MemoryService
) -> None:
    service.sync(CHAT, [MessageIn(0, "user", "我们去北方的城堡。", name="Ann")], character="GM")
    mine = service.create_node(CHAT, editing.NodeDraft("character", {"name": "ann"}, importance=2.0)).value
    plan = import_memories(service, exported(filled), "merge")
    assert plan.counts["merged"] == 1 and plan.examples["merged"] == [f"{CHAT}: ann"]
    kept = service.get_node(CHAT, mine.id)
    assert kept.importance == 8.0 and kept.fields["name"] == "ann" and kept.fields["traits"] == "brave, 勇敢"
    assert kept.source_indices == [0, 2]


def test_a_file_chat_that_is_not_here_is_created_whole(filled: MemoryService, service: MemoryService) -> None:
    plan = import_memories(service, exported(filled), "skip")
    assert (
        plan.new_chats == [CHAT] and plan.counts["new"] == len(filled.all_nodes(CHAT)) + 1
    )  # + the recycled one
    assert state(service) == state(filled)


STEPS = st.lists(st.tuples(st.sampled_from(["add", "edit", "recycle"]), st.integers(0, 9)), max_size=6)


@settings(
    max_examples=5,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(here=STEPS, there=STEPS)
def test_merge_imports_are_idempotent(
    filled: MemoryService, here: list[tuple[str, int]], there: list[tuple[str, int]]
) -> None:
    """Whatever both sides did since they parted, a second merge of the same file changes nothing."""

    def edit(steps: list[tuple[str, int]], tag: str) -> None:
        for kind, k in steps:
            live = sorted(filled.all_nodes(CHAT), key=lambda n: n.id)
            if kind == "add":
                filled.create_node(CHAT, editing.NodeDraft("location", {"name": f"{tag} {k}"}))
            elif kind == "edit" and live:
                filled.update_node(CHAT, live[k % len(live)].id, {"importance": float(k)})
            elif kind == "recycle" and live:
                filled.delete_node(CHAT, live[k % len(live)].id)

    edit(there, "there")
    doc = exported(filled)
    filled.undo(CHAT)  # the two sides part: one step of "there" is not here
    edit(here, "here")
    import_memories(filled, doc, "merge")
    after_first = state(filled)
    import_memories(filled, doc, "merge")
    assert state(filled) == after_first
