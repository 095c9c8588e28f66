"""Working memory: to-dos and promises from the user's words, at most 3, expiring, cleared by "done"."""

from __future__ import annotations

from lifecycle_helpers import CHAT, DAY, working_memory_lines

from bme_desktop.core.clock import ManualClock
from bme_desktop.core.lifecycle import undo_lifecycle_batch
from bme_desktop.core.lifecycle.working_memory import update_working_memory
from bme_desktop.core.model import MessageIn
from bme_desktop.core.service import MemoryService


class Chat:
    def __init__(self, service: MemoryService) -> None:
        self.service, self.messages = service, []  # type: list[MessageIn]

    def say(self, text: str, role: str = "user") -> list[str]:
        self.messages.append(MessageIn(len(self.messages), role, text))
        self.service.sync(CHAT, list(self.messages))
        update_working_memory(self.service, CHAT)
        return working_memory_lines(self.service, CHAT)


def test_todos_are_recognised_capped_at_three_and_cleared_by_done(
    service: MemoryService, clock: ManualClock
) -> None:
    chat = Chat(service)
    assert chat.say("I'll call the landlord tomorrow.") == ["- call the landlord tomorrow"]
    clock.advance(60)
    chat.say("I'll do it, says the bot", role="assistant")  # only the user's words count
    chat.say("记得买牛奶")
    clock.advance(60)
    chat.say("Remind me to water the plants!")
    clock.advance(60)
    lines = chat.say("我答应了妈妈周末回家")
    assert lines == ["- 买牛奶", "- water the plants", "- 妈妈周末回家"]  # the oldest fell off at four
    assert chat.say("牛奶已经做好了") == ["- water the plants", "- 妈妈周末回家"]
    assert chat.say("Finished watering the plants") == ["- 妈妈周末回家"]
    assert chat.say("done") == []  # naming nothing: the newest goes


def test_unmentioned_items_expire_after_three_days_and_a_mention_keeps_them(
    service: MemoryService, clock: ManualClock
) -> None:
    chat = Chat(service)
    chat.say("I'll fix the bike.")
    chat.say("提醒我交房租")
    clock.advance(2.5 * DAY)
    assert chat.say("The bike is still broken") == ["- fix the bike", "- 交房租"]
    clock.advance(1 * DAY)
    assert working_memory_lines(service, CHAT) == ["- fix the bike"]  # 交房租: 3.5 days unmentioned
    clock.advance(3.1 * DAY)
    assert working_memory_lines(service, CHAT) == []


def test_a_working_batch_can_be_undone(service: MemoryService) -> None:
    chat = Chat(service)
    chat.say("I'll bake bread.")
    chat.say("I promise to write back.")
    batch = [b for b in service.read(lambda r: r.batches(CHAT, kind="working"))][-1]
    undo_lifecycle_batch(service, CHAT, batch.id)
    assert working_memory_lines(service, CHAT) == ["- bake bread"]
