"""A chat with every kind of record the export carries (shared by the backup tests)."""

from __future__ import annotations

from bme_desktop.core import editing
from bme_desktop.core.model import MessageIn, Scope, Summary
from bme_desktop.core.service import MemoryService
from bme_desktop.core.store import tables as t
from bme_desktop.core.store.unit_of_work import UnitOfWork

CHAT = "story-1"


def fill_chat(service: MemoryService, chat_id: str = CHAT) -> None:
    service.sync(
        chat_id,
        [
            MessageIn(0, "user", "我们去北方的城堡。", name="Ann"),
            MessageIn(1, "assistant", "The castle gate is shut.", name="GM", swipe_id=2),
            MessageIn(2, "user", "Knock <loudly> & wait."),
        ],
        character="GM",
        user="Ann",
    )

    def extract(uow: UnitOfWork) -> None:
        uow.begin_batch(
            chat_id, "extract", actor="heuristic", description="window 0-2", read_from=0, read_to=2
        )
        ann = editing.create_node(
            uow,
            chat_id,
            editing.NodeDraft(
                "character", {"name": "Ann", "traits": "brave, 勇敢"}, importance=8, source_indices=[0, 2]
            ),
            manual=False,
        )
        castle = editing.create_node(
            uow,
            chat_id,
            editing.NodeDraft(
                "location",
                {"name": "North castle", "state": "gate shut"},
                source_indices=[1],
                tier="short_term",
                review_status="pending",
            ),
            manual=False,
        )
        event = editing.create_node(
            uow,
            chat_id,
            editing.NodeDraft(
                "event",
                {"summary": "Ann knocks at the gate", "participants": "Ann"},
                source_indices=[2],
                scope=Scope("pov", owner="Ann", region="north"),
            ),
            manual=False,
        )
        editing.link(uow, chat_id, ann.id, event.id, "involved_in", source_indices=[2], manual=False)
        editing.link(uow, chat_id, event.id, castle.id, "occurred_at", strength=0.6, manual=False)
        uow.put_summary(
            Summary(
                id="s" * 32,
                chat_id=chat_id,
                level=0,
                kind="small",
                status="active",
                text="Ann reaches the castle.",
                start_index=0,
                end_index=2,
                source_ids=[ann.id, event.id],
                batch_id=None,
                created_at=uow.now,
            )
        )
        pk = uow.read.require_chat_pk(chat_id)
        uow.set_chat_state(pk, {"extracted_to": 2, "knowledge": {"Ann": {"known": [castle.id]}}})
        uow.conn.execute(
            t.recall_records.insert().values(
                chat_pk=pk,
                idx=2,
                user_input="knock",
                injection="[castle]",
                token_estimate=3,
                elapsed_ms=1.5,
                nodes=[{"id": castle.id, "score": 0.5}],
                manually_edited=False,
                created_at=uow.now,
                updated_at=uow.now,
            )
        )
        uow.end_batch()

    service.write(extract)
    rule = service.create_node(
        chat_id, editing.NodeDraft("rule", {"title": "No magic", "constraint": "none"})
    ).value
    fact = service.create_node(chat_id, editing.NodeDraft("fact", {"statement": "Ann fears bats"})).value
    service.link(chat_id, rule.id, fact.id, "related")
    service.delete_node(chat_id, fact.id)  # in the recycle bin, with its edge
