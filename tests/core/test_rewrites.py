"""Destructive maintenance made safe: the plan says what a rebuild will do, and the rebuild is
one undoable step that puts every memory, link, batch status and the chat state back."""

from __future__ import annotations

import threading
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from bme_desktop.core import editing
from bme_desktop.core.errors import Conflict
from bme_desktop.core.events import ChangeRecord
from bme_desktop.core.model import MessageIn
from bme_desktop.core.rewrites import RewriteRunning, plan_rewrite, run_recorded
from bme_desktop.core.service import MemoryService
from bme_desktop.core.store import tables as t
from tests.core.extract.extract_helpers import chat, open_service

TURNS = (
    ("assistant", "Welcome to the Silver Tavern."),
    ("user", "I love apple pie."),
    ("assistant", "Alice nods. Marcus arrives."),
    ("user", "Hello Marcus."),
    ("assistant", "Marcus says you must always pay first."),
    ("user", "Fine."),
)


def _state(svc: MemoryService, chat_id: str = "c") -> dict[str, Any]:
    """Every row the chat owns, its applied automatic batches and its state (what an undo restores)."""

    def read(r: Any) -> dict[str, Any]:
        pk = r.require_chat_pk(chat_id)
        out: dict[str, Any] = {}
        for name in ("nodes", "edges", "summaries"):
            table = t.JOURNALED[name]
            out[name] = {
                row["id"]: dict(row)
                for row in r.conn.execute(select(table).where(table.c.chat_pk == pk)).mappings()
            }
        out["applied"] = set(
            r.conn.execute(
                select(t.batches.c.id).where(  # what a history rollback replays
                    t.batches.c.chat_pk == pk, t.batches.c.kind != "manual", t.batches.c.status == "applied"
                )
            ).scalars()
        )
        out["state"] = r.conn.execute(select(t.chats.c.state).where(t.chats.c.pk == pk)).scalar_one()
        return out

    return svc.read(read)


def _story(svc: MemoryService) -> tuple[str, str]:
    """Extracted memories, a rule no extractor would write again (as in the demo), a memory
    written by hand and an extracted one edited by hand. Returns (the rule's id, the hand-written id)."""
    svc.sync("c", chat(*TURNS), complete=True, wait=True)

    def rule(uow: Any) -> str:
        uow.begin_batch("c", "extract", actor="demo", read_from=0, read_to=5)
        node = editing.create_node(
            uow,
            "c",
            editing.NodeDraft(
                type="rule", fields={"title": "Pay first", "constraint": "Guests pay before they eat."}
            ),
            manual=False,
        )
        uow.end_batch()
        return node.id

    rule_id = svc.write(rule)
    mine = svc.create_node("c", editing.NodeDraft(type="fact", fields={"statement": "Tom hates rain"})).value
    event = next(n for n in svc.all_nodes("c") if n.type == "event")
    svc.update_node("c", event.id, {"importance": 9.0})
    return rule_id, mine.id


def test_the_plan_counts_what_a_rebuild_keeps_and_redoes(tmp_path: Path) -> None:
    with open_service(tmp_path) as svc:
        _story(svc)
        nodes = svc.all_nodes("c")
        plan = plan_rewrite(svc, "c", "rebuild")
        assert plan.memories == len(nodes)
        assert plan.by_hand == 2  # the one written and the one edited by hand are kept
        automatic = Counter(n.type for n in nodes if not n.manually_edited)
        assert plan.dropped == len(nodes) - 2 and plan.dropped_by_type == dict(automatic)
        assert plan.messages == len(TURNS) and plan.undoable and plan.destructive


def test_one_undo_puts_back_everything_a_rebuild_changed_and_redo_does_it_again(tmp_path: Path) -> None:
    with open_service(tmp_path) as svc:
        rule_id, mine_id = _story(svc)
        before = _state(svc)
        change = run_recorded(svc, "c", "rebuild")
        after = _state(svc)
        assert change.nodes_removed and rule_id in change.nodes_removed  # the demo-like rule is gone
        assert svc.get_node("c", mine_id).fields["statement"] == "Tom hates rain"  # kept
        assert svc.undo("c").value
        assert _state(svc) == before  # rows, batch statuses and extraction state, exactly
        assert svc.get_node("c", rule_id).title == "Pay first"
        assert svc.redo("c").value
        assert _state(svc) == after
        assert svc.undo("c").value  # and back once more: the step stays one step
        assert _state(svc) == before


def test_undo_is_refused_once_new_messages_were_extracted_and_changes_nothing(tmp_path: Path) -> None:
    with open_service(tmp_path) as svc:
        _story(svc)
        run_recorded(svc, "c", "rebuild")
        svc.sync(
            "c", [MessageIn(6, "assistant", "Marcus leaves the Silver Tavern.", name="Alice")], wait=True
        )
        moved_on = _state(svc)
        with pytest.raises(Conflict, match="extracted from new messages"):
            svc.undo("c")
        assert _state(svc) == moved_on


def test_a_too_large_chat_says_so_before_it_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bme_desktop.core.rewrites.UNDO_ROW_LIMIT", 3)
    with open_service(tmp_path) as svc:
        _story(svc)
        plan = plan_rewrite(svc, "c", "rebuild")
        assert not plan.undoable and plan.why_not == "too_large" and plan.rows > 3
        run_recorded(svc, "c", "rebuild", plan=plan)
        assert not svc.read(
            lambda r: [b for b in r.batches("c", kind="manual") if b.description == "rebuild"]
        )


def test_undo_while_a_recorded_task_runs_is_refused_not_applied_to_an_older_edit(tmp_path: Path) -> None:
    with open_service(tmp_path) as svc:
        _story(svc)  # ends with a manual edit, which an undo right now would take back
        started, release = threading.Event(), threading.Event()

        def slow(chat_id: str) -> ChangeRecord:
            started.set()
            assert release.wait(30)
            return ChangeRecord(chat_id)

        svc.maintenance_tasks["upkeep"] = slow
        runner = threading.Thread(target=run_recorded, args=(svc, "c", "upkeep"))
        runner.start()
        assert started.wait(30)
        edited = _state(svc)
        with pytest.raises(RewriteRunning):
            svc.undo("c")
        release.set()
        runner.join()
        assert _state(svc) == edited
        assert svc.undo("c").value  # once it is over, undo works again (here: the manual edit)
