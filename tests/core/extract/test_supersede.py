"""Superseded facts: a later statement of change replaces the older statement it is about.
The old memory stays, marked with the memory that replaced it and when it held; recall does
not offer it as current, and offers it again for a question about the past."""

from __future__ import annotations

from pathlib import Path

from bme_desktop.core.model import MessageIn, Node
from bme_desktop.core.recall.api import RecallRequest
from bme_desktop.core.service import MemoryService
from tests.core.extract.extract_helpers import chat, open_service
from tests.fakes.openai_server import FakeOpenAIServer, Reply

EN = chat(
    ("user", "Where does Kestrel stay?"),
    ("assistant", "She keeps a room above the tannery in Thornwick, though she is rarely in it."),
    ("user", "Let's ride out to the marsh."),
    ("assistant", "The fog rolls in over the reeds and the horses slow down."),
    ("user", "Any news from town?"),
    ("assistant", "Pim says the thief cleared out her room above the tannery. She lives in Saltmere now."),
    names=("Tomas", "Sera"),
)

ZH = chat(
    ("assistant", "奶茶请你，我每天不喝一杯奶茶就活不下去。"),
    ("user", "谢谢学姐！我们从哪道题开始？"),
    ("assistant", "先看第一题，微积分的部分你要多练。"),
    ("user", "比赛结束了，学姐，我请你喝奶茶庆祝！"),
    ("assistant", "啊……我戒奶茶了。医生让我别喝了，我现在只喝无糖的柠檬水。"),
    names=("周航", "沈念"),
)


def facts(svc: MemoryService, chat_id: str = "c") -> list[Node]:
    return [n for n in svc.all_nodes(chat_id) if n.type == "fact"]


def replaced(svc: MemoryService, index: int) -> Node:
    (old,) = [n for n in facts(svc) if index in n.source_indices and n.flags.get("superseded_by")]
    return old


def test_a_change_replaces_the_older_statement_it_is_about(tmp_path: Path) -> None:
    with open_service(tmp_path) as svc:
        svc.sync("c", EN, complete=True, wait=True)
        old = replaced(svc, 1)
        new = svc.get_node("c", old.flags["superseded_by"])
        assert "tannery" in old.fields["statement"] and "Saltmere" in new.fields["statement"]
        assert old.flags["validity"]["from_index"] == 1 and old.flags["validity"]["until_index"] == 5
        assert new.flags["supersedes"] == [old.id]
        assert {e.relation for e in svc.edges("c", node_id=old.id) if e.from_id == new.id} == {
            "temporal_update",
            "contradicts",
        }


def test_a_chinese_change_replaces_the_older_statement(tmp_path: Path) -> None:
    with open_service(tmp_path) as svc:
        svc.sync("c", ZH, complete=True, wait=True)
        old = replaced(svc, 0)
        assert "奶茶" in old.fields["statement"]
        assert old.flags["validity"]["until_index"] == 4


def test_a_statement_without_a_change_replaces_nothing(tmp_path: Path) -> None:
    with open_service(tmp_path) as svc:
        svc.sync(
            "c",
            [
                *EN[:5],
                MessageIn(5, "assistant", "Pim says the thief was seen near the tannery.", name="Sera"),
            ],
            complete=True,
            wait=True,
        )
        assert not any(n.flags.get("superseded_by") for n in svc.all_nodes("c"))


def test_undoing_the_batch_makes_the_old_fact_current_again(tmp_path: Path) -> None:
    with open_service(tmp_path) as svc:
        svc.sync("c", EN[:5], complete=True, wait=True)
        svc.sync("c", EN, complete=True, wait=True)
        assert replaced(svc, 1)
        svc.sync("c", EN[:5], complete=True, wait=True)  # the change was deleted: its batch rolls back
        assert not any(n.flags.get("superseded_by") for n in svc.all_nodes("c"))


def recall(svc: MemoryService, text: str) -> str:
    return svc.recall(RecallRequest(chat_id="c", user_input=text, top_k=8)).injection


def test_recall_gives_the_current_value_not_the_replaced_one(tmp_path: Path) -> None:
    with open_service(tmp_path, everything=True) as svc:
        svc.sync("c", ZH, complete=True, wait=True)
        result = svc.recall(RecallRequest(chat_id="c", user_input="学姐现在喝奶茶吗？", top_k=8))
        assert "柠檬水" in result.injection
        shown = [r.node for r in result.nodes]
        assert not any(n.flags.get("superseded_by") for n in shown)
        assert not any(
            "活不下去" in n.fields.get("summary", "") + n.fields.get("statement", "") for n in shown
        )


def test_a_question_about_the_past_finds_the_replaced_value(tmp_path: Path) -> None:
    with open_service(tmp_path, everything=True) as svc:
        svc.sync("c", EN, complete=True, wait=True)
        text = recall(svc, "Where did Kestrel live before?")
        assert "above the tannery in Thornwick" in text
        assert "(no longer true since message 5)" in text


def test_the_llm_names_what_a_new_fact_supersedes(tmp_path: Path) -> None:
    from tests.core.extract.test_extract_llm import llm_settings

    first = chat(("user", "I love green tea."), ("assistant", "Noted."))
    with FakeOpenAIServer() as server:
        server.enqueue(
            Reply.json(
                {
                    "operations": [
                        {
                            "action": "create",
                            "type": "fact",
                            "fields": {"statement": "Tom loves green tea", "subject": "Tom"},
                            "source": [0],
                        }
                    ]
                }
            )
        )
        server.enqueue(
            Reply.json(
                {
                    "operations": [
                        {
                            "action": "create",
                            "type": "fact",
                            "fields": {"statement": "Tom only drinks coffee", "subject": "Tom"},
                            "source": [2],
                            "supersedes": "G1",
                        }
                    ]
                }
            )
        )
        with open_service(tmp_path, llm_settings(server)) as svc:
            svc.sync("c", first, complete=True, wait=True)
            svc.sync(
                "c",
                [
                    *first,
                    MessageIn(2, "user", "Coffee only for me now.", name="Tom"),
                    MessageIn(3, "assistant", "Got it.", name="Alice"),
                ],
                complete=True,
                wait=True,
            )
            old = next(n for n in facts(svc) if n.fields["statement"] == "Tom loves green tea")
            new = svc.get_node("c", old.flags["superseded_by"])
            assert new.fields["statement"] == "Tom only drinks coffee"
            assert old.flags["validity"]["until_index"] == 2


def test_which_stored_fact_a_statement_repeats_does_not_depend_on_the_random_ids() -> None:
    from bme_desktop.core.extract.supersede import _same_statement
    from bme_desktop.core.extract.textutil import term_set

    def fact(node_id: str, statement: str, at: int) -> Node:
        return Node(
            id=node_id,
            chat_id="c",
            type="fact",
            title=statement,
            fields={"statement": statement},
            source_indices=[at],
        )

    terms = term_set("I love green tea with honey")
    for first_id, second_id in (("a-id", "z-id"), ("z-id", "a-id")):
        earlier, later = (
            fact(first_id, "I love green tea", 1),
            fact(second_id, "I love green tea with honey", 5),
        )
        assert _same_statement([later, earlier], terms) is earlier
