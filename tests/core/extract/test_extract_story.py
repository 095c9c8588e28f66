"""Plot threads, promises and points of view from the heuristic extractor (English and Chinese)."""

from __future__ import annotations

from bme_desktop.core.extract.cleaning import PreparedMessage
from bme_desktop.core.extract.heuristic import ChatInfo, HeuristicExtractor
from bme_desktop.core.extract.operations import NodeOp, Plan
from bme_desktop.core.extract.story import OpenItem

EN = ChatInfo(character="Sera", user="Tomas")
ZH = ChatInfo(character="苏青衣", user="林远")


def run(chat: ChatInfo, *turns: tuple[str, str], open_items: tuple[OpenItem, ...] = ()) -> Plan:
    window = [PreparedMessage(i + 1, role, None, text, False) for i, (role, text) in enumerate(turns)]
    return HeuristicExtractor().extract(window, chat, open_items)


def made(plan: Plan, type_id: str) -> list[NodeOp]:
    return [op for op in plan.ops if op.type == type_id and op.action == "create"]


def updates(plan: Plan) -> dict[str, dict[str, str]]:
    return {op.target or "": op.fields for op in plan.ops if op.action == "update"}


# threads ---------------------------------------------------------------------------------------
def test_a_loss_that_sets_a_quest_opens_a_thread_with_the_reply_as_its_second_source() -> None:
    plan = run(
        EN, ("user", "Someone stole the Moonstone Chalice from the temple."), ("assistant", "Then we ride.")
    )
    (thread,) = made(plan, "thread")
    assert thread.fields["status"] == "open" and "Moonstone Chalice" in thread.fields["title"]
    assert thread.source_indices == [1, 2]


def test_a_chinese_goal_opens_a_thread() -> None:
    plan = run(ZH, ("user", "好。"), ("assistant", "赵无极的阴谋还没完，我们得想办法帮他。"))
    assert [op.fields["status"] for op in made(plan, "thread")] == ["open"]


def test_small_talk_and_advice_open_no_thread() -> None:
    plan = run(
        EN,
        ("user", "You captured the sunset perfectly!"),
        ("assistant", "We need to find some ways to relax. 我们需要寻找一些方法来缓解压力。"),
    )
    assert made(plan, "thread") == []


def test_a_thread_said_to_be_over_is_resolved() -> None:
    quest = OpenItem("S1", "thread", "open", "Someone stole the Moonstone Chalice; recover the chalice")
    plan = run(
        EN,
        ("user", "Done?"),
        ("assistant", "The chalice is home, and that quest is finished."),
        open_items=(quest,),
    )
    assert updates(plan) == {"S1": {"status": "resolved"}}


def test_a_chinese_thread_said_to_be_over_is_resolved_by_the_words_it_shares() -> None:
    lost = OpenItem("S1", "thread", "open", "镇派之宝《太清剑谱》三日前不见了")
    other = OpenItem("S2", "thread", "open", "赵无极的阴谋还没完")
    plan = run(ZH, ("user", "好。"), ("assistant", "嗯，剑谱这件事总算了结了。"), open_items=(lost, other))
    assert updates(plan) == {"S1": {"status": "resolved"}}


# promises ----------------------------------------------------------------------------------------
def test_the_assistants_promise_is_its_own_with_the_speaker_as_subject() -> None:
    plan = run(
        EN,
        ("user", "Teach me the sling?"),
        ("assistant", "I promise I'll teach you before we reach the chapel."),
    )
    (promise,) = made(plan, "thread")
    assert promise.fields["status"] == "promised" and promise.scope.owner == "Sera"
    assert promise.fields["title"].startswith("Sera promised: I'll teach you")


def test_a_users_chinese_promise_names_the_user() -> None:
    plan = run(ZH, ("user", "师姐，我一定帮你保守这个秘密。"), ("assistant", "多谢。"))
    (promise,) = made(plan, "thread")
    assert promise.scope.owner == "林远" and promise.fields["title"].startswith("林远答应：")


def test_you_promised_names_the_one_spoken_to() -> None:
    plan = run(EN, ("user", "Hm."), ("assistant", "You promised me you would carry the lantern home."))
    assert [op.scope.owner for op in made(plan, "thread")] == ["Tomas"]


def test_a_kept_promise_is_done() -> None:
    sling = OpenItem(
        "S1", "thread", "promised", "I promise I'll teach you the sling before the chapel", "Sera"
    )
    plan = run(EN, ("user", "I hit it!"), ("assistant", "Lesson kept, as I swore."), open_items=(sling,))
    assert updates(plan) == {"S1": {"status": "done"}}


def test_a_kept_chinese_promise_is_done_by_the_words_it_shares() -> None:
    tea = OpenItem("S1", "thread", "promised", "我每天早上给你带一杯豆浆", "林远")
    sword = OpenItem("S2", "thread", "promised", "等师父伤好了，我亲自教你御剑之术", "苏青衣")
    plan = run(ZH, ("user", "豆浆带来了，说话算话！"), ("assistant", "好。"), open_items=(tea, sword))
    assert updates(plan) == {"S1": {"status": "done"}}


# points of view -----------------------------------------------------------------------------------
def test_a_belief_belongs_to_the_one_who_holds_it() -> None:
    plan = run(
        EN,
        ("user", "Who was that?"),
        ("assistant", "*Tomas watches as Petrosyan leaves.* He thinks it's mice in the walls!"),
    )
    (pov,) = made(plan, "pov_memory")
    assert pov.scope.layer == "pov" and pov.scope.owner == "Petrosyan"
    assert pov.fields["belief"] == "it's mice in the walls" and pov.fields["certainty"] == "unsure"


def test_a_chinese_belief_belongs_to_the_subject_of_its_clause() -> None:
    plan = run(ZH, ("user", "晴晴怎么了？"), ("assistant", "晴晴觉得顾言在躲她。"))
    (pov,) = made(plan, "pov_memory")
    assert pov.scope.owner == "晴晴" and pov.fields["belief"] == "顾言在躲她"


def test_the_speakers_present_opinions_are_not_kept_but_a_past_belief_is() -> None:
    plan = run(
        EN,
        ("user", "I think it's a great idea. 我觉得挺好。"),
        ("assistant", "I honestly thought you'd forgotten it."),
    )
    (pov,) = made(plan, "pov_memory")
    assert pov.scope.owner == "Sera" and pov.fields["belief"] == "you'd forgotten it"


def test_a_belief_later_contradicted_is_mistaken_for_its_owner() -> None:
    plan = run(
        EN,
        ("user", "Hello."),
        ("assistant", "Then the cook, Ilse, waves. She thinks you're the Baron's tax collector."),
        ("user", "A tax collector? I've never collected a coin in my life."),
        ("assistant", "Ha."),
    )
    (pov,) = made(plan, "pov_memory")
    assert pov.fields["certainty"] == "mistaken" and 3 in pov.source_indices
    assert any(c.owner == "Ilse" and pov.ref in c.mistaken for c in plan.cognition)


def test_an_open_chinese_belief_contradicted_later_is_updated_to_mistaken() -> None:
    belief = OpenItem("S1", "pov_memory", "certain", "是魔教的人潜进来偷走的剑谱", "玄机真人")
    plan = run(
        ZH,
        ("user", "剑谱呢？"),
        ("assistant", "其实剑谱不是魔教偷走的，是陆沉借去抄录了。"),
        open_items=(belief,),
    )
    assert updates(plan) == {"S1": {"certainty": "mistaken"}}
    assert [c.mistaken for c in plan.cognition if c.owner == "玄机真人"] == [["S1"]]


def test_misbelief_words_mark_a_belief_mistaken_at_once() -> None:
    plan = run(ZH, ("user", "我还以为学姐都很高冷呢。"), ("assistant", "高冷是装的。"))
    (pov,) = made(plan, "pov_memory")
    assert pov.scope.owner == "林远" and pov.fields["certainty"] == "mistaken"


def test_the_same_window_gives_the_same_story_operations() -> None:
    turns = (
        ("user", "Someone stole the chalice. I promise I'll find it."),
        ("assistant", "She thinks you're a thief. 晴晴觉得顾言在躲她。"),
    )
    assert run(EN, *turns) == run(EN, *turns)


def test_the_model_path_keeps_a_promise_objective_with_its_owner_and_a_belief_in_the_pov_layer() -> None:
    from bme_desktop.core.extract.llm_parse import plan_from_json

    plan = plan_from_json(
        {
            "operations": [
                {
                    "type": "thread",
                    "owner": "Sera",
                    "fields": {"title": "Sera promised: teach the sling", "status": "promised"},
                },
                {
                    "type": "pov_memory",
                    "owner": "Ilse",
                    "fields": {"summary": "Ilse thinks Tomas collects taxes", "certainty": "mistaken"},
                },
            ]
        },
        [1],
    )
    promise, belief = plan.ops
    assert (promise.scope.layer, promise.scope.owner) == ("objective", "Sera")
    assert (belief.scope.layer, belief.scope.owner) == ("pov", "Ilse")


def test_he_or_she_is_never_the_speaker_even_named_by_a_short_form() -> None:
    chat = ChatInfo(character="Sera Ashdown", user="Tomas")
    plan = run(
        chat,
        ("user", "Hello."),
        (
            "assistant",
            "*The cook, Ilse, walks off, and Sera leans in.* She thinks you're the Baron's tax man.",
        ),
    )
    assert [op.scope.owner for op in made(plan, "pov_memory")] == ["Ilse"]


def test_a_name_shared_with_the_rest_of_the_message_closes_no_thread() -> None:
    manual = OpenItem("S1", "thread", "open", "掌门师尊玄机真人认定是魔教的人偷走了剑谱")
    fish = OpenItem("S2", "thread", "open", "只要拿到灵鱼，师父的伤就能好")
    plan = run(
        ZH,
        ("user", "师父！"),
        ("assistant", "*玄机真人走出来。*“这鱼……确实救了我一命。”"),
        open_items=(manual, fish),
    )
    assert updates(plan) == {}


def test_an_end_wished_for_or_naming_another_matter_closes_nothing() -> None:
    fish = OpenItem("S1", "thread", "open", "只要拿到灵鱼，师父的伤就能好")
    plan = run(
        ZH,
        ("user", "剑谱呢？"),
        ("assistant", "掌门说了，剑谱的事要查个水落石出。嗯，剑谱这件事总算了结了。"),
        open_items=(fish,),
    )
    assert updates(plan) == {}
