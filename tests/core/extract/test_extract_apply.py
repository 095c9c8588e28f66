"""Applying plans: updates instead of duplicates, history, contradictions, journaled batches."""

from __future__ import annotations

from pathlib import Path

from bme_desktop.core.model import MessageIn
from tests.core.extract.extract_helpers import chat, open_service


def test_same_name_character_is_updated_with_history_not_duplicated(tmp_path: Path) -> None:
    with open_service(tmp_path) as svc:
        svc.sync("c", chat(("user", "Where is Marcus?"), ("assistant", "Marcus sleeps by the fire."),
                           ("user", "And now?"), ("assistant", "Marcus wakes up angry.")), complete=True, wait=True)
        marcus = [n for n in svc.all_nodes("c") if n.fields.get("name") == "Marcus"]
        assert len(marcus) == 1
        assert marcus[0].fields["state"] == "Marcus wakes up angry."
        assert marcus[0].flags["history"][-1]["fields"] == {"state": "Marcus sleeps by the fire."}
        assert marcus[0].source_indices == [0, 1, 3]
        updates = [e for e in svc.edges("c") if e.relation == "updates" and e.to_id == marcus[0].id]
        assert len(updates) == 1


def test_contradicting_fact_invalidates_the_older_edge(tmp_path: Path) -> None:
    with open_service(tmp_path) as svc:
        svc.sync("c", chat(("user", "I love green tea."), ("assistant", "Noted."),
                           ("user", "Honestly, I hate green tea now."), ("assistant", "Noted again.")),
                 complete=True, wait=True)
        facts = {n.fields["statement"]: n for n in svc.all_nodes("c") if n.type == "fact"}
        old, new = facts["I love green tea."], facts["Honestly, I hate green tea now."]
        assert old.flags["superseded_by"] == new.id
        old_edges = [e for e in svc.edges("c", node_id=old.id) if e.relation not in ("contradicts", "temporal_update")]
        assert old_edges and all(e.valid_until is not None for e in old_edges)
        between = {e.relation for e in svc.edges("c", node_id=old.id) if e.from_id == new.id}
        assert between == {"contradicts", "temporal_update"}


def test_repeated_fact_updates_the_existing_memory(tmp_path: Path) -> None:
    with open_service(tmp_path) as svc:
        svc.sync("c", chat(("user", "I love green tea."), ("assistant", "Noted."),
                           ("user", "I love green tea!"), ("assistant", "Yes.")), complete=True, wait=True)
        facts = [n for n in svc.all_nodes("c") if n.type == "fact"]
        assert len(facts) == 1 and facts[0].source_indices == [0, 2]


def test_each_extraction_is_one_journaled_batch_that_rolls_back_exactly(tmp_path: Path) -> None:
    with open_service(tmp_path) as svc:
        first = chat(("user", "Hi Marcus."), ("assistant", "Marcus waves."))
        svc.sync("c", first, complete=True, wait=True)
        after_first = {n.id: n for n in svc.all_nodes("c")}
        svc.sync("c", [*first, MessageIn(2, "user", "Bye."), MessageIn(3, "assistant", "Marcus leaves town.")],
                 complete=True, wait=True)
        (batch,) = svc.read(lambda r: r.batches("c", kind="extract"))[-1:]
        assert (batch.read_from, batch.read_to) == (0, 3) and batch.entry_count > 0
        svc.sync("c", first, complete=True, wait=True)  # the last two messages were deleted
        assert {n.id: n for n in svc.all_nodes("c")} == after_first
