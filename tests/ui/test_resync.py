"""After a resync (another instance's writes may have been missed), the window shows the open
chat and the counts as they are stored now."""

from __future__ import annotations

from collections.abc import Callable

from bme_desktop.core.model import Node
from bme_desktop.core.store.notify import RESYNC
from bme_desktop.ui.context import AppContext

CHAT = "chat-1"  # the chat the ``seed`` fixture writes


def test_a_resync_reloads_the_open_chat_and_the_counts(
    qtbot, context: AppContext, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    seed()
    context.set_chat(CHAT)
    settled()
    with (
        qtbot.waitSignal(context.sigChatChanged, timeout=10_000) as reopened,
        qtbot.waitSignal(context.counts.sigChanged, timeout=10_000),
    ):
        context.service.events.publish(RESYNC)
    assert reopened.args == [CHAT]
    assert context.counts.get(CHAT) is not None and context.counts.get(CHAT).node_count == 1  # type: ignore[union-attr]
