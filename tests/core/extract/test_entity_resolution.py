"""Entity resolution on write: a character or place named another way joins the memory it
names, keeps the name as an alias, and the merges it makes are undone with their batch."""

from __future__ import annotations

from pathlib import Path

from bme_desktop.core.model import MessageIn, Node
from bme_desktop.core.service import MemoryService
from tests.core.extract.extract_helpers import chat, open_service


def people(svc: MemoryService) -> dict[str, Node]:
    return {n.fields["name"]: n for n in svc.all_nodes("c") if n.type == "character"}


def aliases(node: Node) -> set[str]:
    return {a.strip() for a in node.fields.get("aliases", "").split(";") if a.strip()}


def test_a_partial_name_and_a_titled_name_are_one_character(tmp_path: Path) -> None:
    with open_service(tmp_path) as svc:
        svc.sync(
            "c",
            chat(
                ("user", "I heard a name in Brightwater. Roderick, was it?"),
                ("assistant", "Captain Roderick Vale. He was my friend once."),
                ("user", "What happened to Roderick?"),
                ("assistant", "Nobody knows."),
            ),
            complete=True,
            wait=True,
        )
        found = [
            n for n in people(svc).values() if "Roderick" in n.fields["name"] + n.fields.get("aliases", "")
        ]
        assert len(found) == 1
        assert {"Roderick", "Captain Roderick Vale"} <= {found[0].fields["name"], *aliases(found[0])}


def test_a_stated_alias_merges_two_memories_and_rollback_separates_them(tmp_path: Path) -> None:
    with open_service(tmp_path) as svc:
        first = chat(
            ("user", "Who does the tax man serve?"),
            ("assistant", "He serves the Baron, they say."),
            ("user", "And who owns the castle?"),
            ("assistant", "Folk here fear Hadrian Mercer."),
        )
        svc.sync("c", first, complete=True, wait=True)
        before = {n.id: n for n in svc.all_nodes("c")}
        assert {"Baron", "Hadrian Mercer"} <= set(people(svc))
        svc.sync(
            "c",
            [
                *first,
                MessageIn(4, "user", "Are they the same man?", name="Tom"),
                MessageIn(5, "assistant", "Yes: Lord Hadrian Mercer, Baron of the valley.", name="Alice"),
            ],
            complete=True,
            wait=True,
        )
        merged = [n for n in people(svc).values() if n.fields["name"] in ("Baron", "Hadrian Mercer")]
        assert len(merged) == 1 and {"Baron", "Hadrian Mercer"} <= {
            merged[0].fields["name"],
            *aliases(merged[0]),
        }
        assert not merged[0].manually_edited  # extraction may still update it
        svc.sync("c", first, complete=True, wait=True)  # the merging reply was deleted
        assert {n.id: n for n in svc.all_nodes("c")} == before


def test_a_surname_shared_by_two_characters_makes_no_memory(tmp_path: Path) -> None:
    with open_service(tmp_path) as svc:
        svc.sync(
            "c",
            chat(
                ("user", "Tell me about Sera Ashdown and Wren Ashdown."),
                ("assistant", "Sisters. The one everyone asks about is Ashdown, of course."),
            ),
            complete=True,
            wait=True,
        )
        names = set(people(svc))
        assert {"Sera Ashdown", "Wren Ashdown"} <= names and "Ashdown" not in names


def test_a_role_title_joins_the_full_name_the_chat_gives_not_a_speaker_with_that_surname(
    tmp_path: Path,
) -> None:
    with open_service(tmp_path) as svc:
        svc.sync(
            "c",
            chat(
                ("user", "师姐，镇上有什么好吃的？"),
                ("assistant", "悦来客栈的林掌柜做的红油抄手最有名。"),
                ("user", "掌柜的，两碗抄手！"),
                ("assistant", "一个胖子迎出来：“我是这儿的掌柜林福，大家都叫我林老板。”"),
                names=("林远", "苏青衣"),
            ),
            complete=True,
            wait=True,
        )
        found = people(svc)
        assert "林远" in found and not aliases(found["林远"]) & {"林掌柜", "林福", "林老板"}
        keeper = [n for n in found.values() if "林福" in {n.fields["name"], *aliases(n)}]
        assert len(keeper) == 1 and {"林掌柜", "林老板"} <= {keeper[0].fields["name"], *aliases(keeper[0])}


def test_an_alias_finds_the_memory_in_search(tmp_path: Path) -> None:
    with open_service(tmp_path) as svc:
        svc.sync(
            "c",
            chat(
                ("user", "Who took the chalice?"),
                ("assistant", "Her full name's Kestrel Marrow, but the watchmen call her the Grey Fox."),
            ),
            complete=True,
            wait=True,
        )
        (kestrel,) = [n for n in people(svc).values() if n.fields["name"] == "Kestrel Marrow"]
        assert "Grey Fox" in aliases(kestrel)
        assert "grey fox" in kestrel.fields.get("aliases", "").lower()
