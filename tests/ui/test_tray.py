"""The tray: its tooltip reflects the bridge and pending reviews, its menu opens Review; a
worker error shows a status-bar notice whose Details… holds the traceback."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QIcon

from bme_desktop.core.model import Node
from bme_desktop.core.service import MemoryService
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.main_window import MainWindow
from bme_desktop.ui.tray import Tray, TrayStatus

CHAT = "chat-1"


def test_tray_status_counts_pending_reviews_and_follows_changes(
    qtbot, context: AppContext, service: MemoryService, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    node = seed("fact", {"statement": "unsure"}, review_status="pending")
    seed("fact", {"statement": "sure"})
    status = TrayStatus(context)
    context.set_chat(CHAT)
    settled()
    assert status.pending == 1 and "1 memory waiting for review" in status.tooltip
    status.set_bridge("Bridge: 127.0.0.1:7317")
    service.update_node(CHAT, node.id, {"review_status": "approved"})
    qtbot.waitUntil(lambda: status.pending == 0)
    assert "Bridge: 127.0.0.1:7317" in status.tooltip and "0 memories waiting" in status.tooltip


def test_tray_menu_shows_the_count_and_opens_review(
    qtbot, context: AppContext, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    seed("fact", {"statement": "unsure"}, review_status="pending")
    window = MainWindow(context)
    qtbot.addWidget(window)
    status = TrayStatus(context)
    tray = Tray(status, lambda: window, QIcon())  # built directly: offscreen has no tray
    context.set_chat(CHAT)
    settled()
    assert tray.review_action.text() == "Pending reviews (1)"
    assert tray.icon.toolTip() == status.tooltip
    shown: list[str] = []
    window.show_panel = lambda key: shown.append(key) or True  # type: ignore[method-assign]
    tray.review_action.trigger()
    assert shown == ["review"]
    tray.close()


def test_a_worker_error_shows_a_notice_with_the_traceback(
    qtbot, context: AppContext, seed: Callable[..., Node], settled: Callable[[], None]
) -> None:
    seed()
    window = MainWindow(context)
    qtbot.addWidget(window)
    window.show()

    def broken(_service: MemoryService) -> None:
        raise RuntimeError("the lantern broke")

    context.call(broken)
    settled()
    assert "the lantern broke" in window.statusBar().currentMessage()
    assert window.details_button.isVisible()
    box = window.show_error_details()
    assert "Traceback" in box.detailedText() and "in broken" in box.detailedText()
    box.close()
