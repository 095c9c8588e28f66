"""Applying plans: updates instead of duplicates, history, contradictions, journaled batches."""

from __future__ import annotations

import threading
from pathlib import Path

from bme_desktop.core.extract.cleaning import PreparedMessage
from bme_desktop.core.extract.operations import NodeOp, Plan
from bme_desktop.core.extract.runner import ModelOutcome
from bme_desktop.core.extract.scheduler import attach as attach_extraction
from bme_desktop.core.extract.window import Window
from bme_desktop.core.model import MessageIn
from bme_desktop.core.service import MemoryService
from tests.core.extract.extract_helpers import chat, open_service


def test_same_name_character_is_updated_with_history_not_duplicated(tmp_path: Path) -> None:
    with open_service(tmp_path) as svc:
        svc.sync(
            "c",
            chat(
                ("user", "Where is Marcus?"),
                ("assistant", "Marcus sleeps by the fire."),
                ("user", "And now?"),
                ("assistant", "Marcus wakes up angry."),
            ),
            complete=True,
            wait=True,
        )
        marcus = [n for n in svc.all_nodes("c") if n.fields.get("name") == "Marcus"]
        assert len(marcus) == 1
        assert marcus[0].fields["state"] == "Marcus wakes up angry."
        assert marcus[0].flags["history"][-1]["fields"] == {"state": "Marcus sleeps by the fire."}
        assert marcus[0].source_indices == [0, 1, 3]
        updates = [e for e in svc.edges("c") if e.relation == "updates" and e.to_id == marcus[0].id]
        assert len(updates) == 1


def test_contradicting_fact_invalidates_the_older_edge(tmp_path: Path) -> None:
    with open_service(tmp_path) as svc:
        svc.sync(
            "c",
            chat(
                ("user", "I love green tea."),
                ("assistant", "Noted."),
                ("user", "Honestly, I hate green tea now."),
                ("assistant", "Noted again."),
            ),
            complete=True,
            wait=True,
        )
        facts = {n.fields["statement"]: n for n in svc.all_nodes("c") if n.type == "fact"}
        old, new = facts["I love green tea."], facts["Honestly, I hate green tea now."]
        assert old.flags["superseded_by"] == new.id
        old_edges = [
            e for e in svc.edges("c", node_id=old.id) if e.relation not in ("contradicts", "temporal_update")
        ]
        assert old_edges and all(e.valid_until is not None for e in old_edges)
        between = {e.relation for e in svc.edges("c", node_id=old.id) if e.from_id == new.id}
        assert between == {"contradicts", "temporal_update"}


def test_repeated_fact_updates_the_existing_memory(tmp_path: Path) -> None:
    with open_service(tmp_path) as svc:
        svc.sync(
            "c",
            chat(
                ("user", "I love green tea."),
                ("assistant", "Noted."),
                ("user", "I love green tea!"),
                ("assistant", "Yes."),
            ),
            complete=True,
            wait=True,
        )
        facts = [n for n in svc.all_nodes("c") if n.type == "fact"]
        assert len(facts) == 1 and facts[0].source_indices == [0, 2]


def test_each_extraction_is_one_journaled_batch_that_rolls_back_exactly(tmp_path: Path) -> None:
    with open_service(tmp_path) as svc:
        first = chat(("user", "Hi Marcus."), ("assistant", "Marcus waves."))
        svc.sync("c", first, complete=True, wait=True)
        after_first = {n.id: n for n in svc.all_nodes("c")}
        svc.sync(
            "c",
            [*first, MessageIn(2, "user", "Bye."), MessageIn(3, "assistant", "Marcus leaves town.")],
            complete=True,
            wait=True,
        )
        (batch,) = svc.read(lambda r: r.batches("c", kind="extract"))[-1:]
        assert (batch.read_from, batch.read_to) == (0, 3) and batch.entry_count > 0
        svc.sync("c", first, complete=True, wait=True)  # the last two messages were deleted
        assert {n.id: n for n in svc.all_nodes("c")} == after_first


class NamesModel:
    """Proposes one character per assistant reply, named by the reply's text."""

    name = "names"

    def extract(
        self, window: Window, prepared: list[PreparedMessage], cancel: threading.Event | None
    ) -> ModelOutcome:
        ops = [
            NodeOp("create", "character", {"name": m.text}, source_indices=[m.index])
            for m in prepared
            if m.role == "assistant" and not m.context_only
        ]
        return ModelOutcome(Plan(extractor="names", ops=ops), {})


def test_a_name_in_other_case_is_the_same_character_on_every_backend(
    tmp_path: Path, database_url: str
) -> None:
    """SQLite's lower() folds only ASCII; the match must not depend on the backend."""
    svc = MemoryService.open(tmp_path, database_url=database_url, attach=False)
    try:
        attach_extraction(svc).runner.model = NamesModel
        svc.sync(
            "c",
            chat(("user", "Who?"), ("assistant", "Élodie"), ("user", "Again?"), ("assistant", "ÉLODIE")),
            complete=True,
            wait=True,
        )
        assert [(n.title, n.source_indices) for n in svc.all_nodes("c") if n.type == "character"] == [
            ("Élodie", [1, 3])
        ]
    finally:
        svc.close()
