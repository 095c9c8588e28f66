"""The status bar shows how far a long chat's first import is (extraction.progress events)."""

from __future__ import annotations

from collections.abc import Callable

from bme_desktop.core.events import Event
from bme_desktop.core.model import Node
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.main_window import MainWindow

CHAT = "chat-1"  # the chat the ``seed`` fixture writes


def test_the_status_bar_counts_the_open_chats_import_until_nothing_is_due(
    qtbot, context: AppContext, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    seed()
    window = MainWindow(context)
    qtbot.addWidget(window)
    context.set_chat(CHAT)
    settled()
    publish = context.service.events.publish
    publish(
        Event("extraction.progress", CHAT, {"extracted": 2140, "total": 10000, "due": 7860, "eta_s": 180})
    )
    publish(Event("extraction.progress", "another chat", {"extracted": 1, "total": 9, "due": 8, "eta_s": 5}))
    qtbot.waitUntil(lambda: window.import_label.text() != "")
    assert window.import_label.text() == "Remembering: 2,140 of 10,000 messages · about 3 min"
    publish(Event("extraction.progress", CHAT, {"extracted": 10000, "total": 10000, "due": 0, "eta_s": None}))
    qtbot.waitUntil(lambda: window.import_label.text() == "")
