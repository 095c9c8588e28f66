"""Where and when messages happen: location per message, neighbouring places, story time."""

from __future__ import annotations

from bme_desktop.core.extract.cleaning import PreparedMessage
from bme_desktop.core.extract.heuristic import ChatInfo, HeuristicExtractor
from bme_desktop.core.extract.names import Mention
from bme_desktop.core.extract.operations import Plan
from bme_desktop.core.extract.scene import place_at, read_scene

CHAT = ChatInfo(character="Sera", user="Tomas")


def plan_of(*turns: tuple[str, str]) -> Plan:
    window = [PreparedMessage(i + 1, role, None, text, False) for i, (role, text) in enumerate(turns)]
    return HeuristicExtractor().extract(window, CHAT)


def loc(*names: str) -> list[Mention]:
    return [Mention(n, "location") for n in names]


def test_a_move_sets_the_scene_but_a_mention_does_not() -> None:
    scene = read_scene(
        [
            (1, "She vanished in Greyfen Marsh years ago.", loc("Greyfen Marsh")),
            (2, "At dawn they ride into Greyfen Marsh.", loc("Greyfen Marsh")),
            (3, "林远跟着她来到清河镇。", loc("清河镇")),
        ]
    )
    assert (place_at(scene, 1), place_at(scene, 2), place_at(scene, 3)) == (None, "Greyfen Marsh", "清河镇")


def test_a_scene_header_opens_on_its_place() -> None:
    scene = read_scene(
        [
            (4, "*In the common room of the Crooked Lantern, Ilse waits.*", loc("Crooked Lantern")),
            (5, "*九月十二号，晚上九点半，明德大学图书馆三楼。*“你好。”", loc("明德大学图书馆")),
        ]
    )
    assert scene.place == {4: "Crooked Lantern", 5: "明德大学图书馆"}


def test_places_named_as_near_each_other_are_neighbours() -> None:
    scene = read_scene(
        [
            (1, "The garden is right next door to Bluebird Coffee.", loc("garden", "Bluebird Coffee")),
            (2, "寒潭就在藏经阁背后。", loc("寒潭", "藏经阁")),
            (3, "We left the garden and went to Bluebird Coffee.", loc("garden", "Bluebird Coffee")),
        ]
    )
    assert scene.adjacency == [("garden", "Bluebird Coffee"), ("寒潭", "藏经阁")]


def test_dates_and_skips_advance_story_time_and_remembered_times_do_not() -> None:
    scene = read_scene(
        [
            (1, "Three days later, the road is dry.", []),
            (2, "I remember the morning she left.", []),
            (3, "我说过，下周三要交论文。", []),
        ]
    )
    assert scene.time[1] == {"label": "Three days later", "tense": "ongoing"}
    assert scene.time[2]["tense"] == "past"
    assert scene.now == {"label": "Three days later", "tense": "ongoing"}


def test_chinese_skips_and_remembered_times_are_read() -> None:
    scene = read_scene(
        [(1, "*三日后，两人来到山下的清河镇。*", []), (2, "“十年前那个雪夜，师父救了我。”", [])]
    )
    assert scene.time[1] == {"label": "三日后", "tense": "ongoing"}
    assert scene.time[2] == {"label": "十年前那个雪夜", "tense": "past"}


def test_each_event_gets_the_place_and_time_of_its_reply() -> None:
    plan = plan_of(("user", "Let's go."), ("assistant", "Three days later they walk into the Silver Tavern."))
    (event,) = [op for op in plan.ops if op.type == "event"]
    assert event.scope.region == "Silver Tavern"
    assert event.story_time == {
        "label": "Three days later they walk into the Silver Tavern",
        "tense": "ongoing",
    }
    assert plan.regions.active == "Silver Tavern" and plan.story_time == event.story_time
