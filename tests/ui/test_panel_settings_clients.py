"""The Settings panel's bridge section lists the frontends connected to the hosted bridge."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from bme_desktop.bridge.clients import identify
from bme_desktop.bridge.server import BridgeServer
from bme_desktop.core.service import MemoryService
from bme_desktop.core.settings import Settings
from bme_desktop.ui.bridge_host import start_bridge
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.panels.settings import SettingsPanel
from bme_desktop.ui.panels.settings_clients import ClientsBox, ago

TOKEN = "t" * 43
PAGE = "http://127.0.0.1:8000"


@pytest.fixture
def hosted(
    context: AppContext, service: MemoryService, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[BridgeServer]:
    monkeypatch.setenv("BME_BRIDGE_TOKEN", TOKEN)
    settings = Settings()
    settings.bridge.port = 0
    bridge = start_bridge(service, data_dir, settings)
    assert bridge.server is not None, bridge.status
    context.bridge = bridge.server
    yield bridge.server
    bridge.stop(data_dir)


def shown_box(qtbot, context: AppContext, settled: Callable[[], None]) -> ClientsBox:
    panel = SettingsPanel(context)
    qtbot.addWidget(panel)
    panel.show()
    panel.tabs.setCurrentIndex(panel._tab_of["bridge"])
    settled()
    return panel.bridge_box.clients


def row_texts(box: ClientsBox, row: int) -> list[str]:
    return [box.table.item(row, c).text() for c in range(box.table.columnCount())]


def test_a_request_through_the_hosted_bridge_shows_up_within_a_refresh(
    qtbot, context: AppContext, hosted: BridgeServer, settled: Callable[[], None]
) -> None:
    box = shown_box(qtbot, context, settled)
    assert box.table.rowCount() == 0
    headers = {"Authorization": f"Bearer {TOKEN}", "Origin": PAGE, "User-Agent": "Mozilla/5.0 (X11)"}
    for _ in range(3):
        assert httpx.get(f"{hosted.url}/v1/chats", headers=headers).status_code == 200
    qtbot.waitUntil(lambda: box.table.rowCount() == 1, timeout=5_000)  # the timer, not a manual refresh
    who, last_seen, requests, kind, events = row_texts(box, 0)
    assert who == f"{PAGE} · Mozilla" and last_seen.endswith("s ago")
    assert requests == "3" and kind == "chats" and events == "off"
    assert box.empty.isHidden() and not box.table.isHidden()


def test_no_client_yet_shows_the_empty_state(
    qtbot, context: AppContext, hosted: BridgeServer, settled: Callable[[], None]
) -> None:
    box = shown_box(qtbot, context, settled)
    assert box.table.isHidden() and not box.empty.isHidden()
    assert box.empty.text() == "No frontend has connected yet."
    assert box.refused.isHidden()


def test_without_a_running_bridge_it_says_so(qtbot, context: AppContext, settled: Callable[[], None]) -> None:
    box = shown_box(qtbot, context, settled)
    assert box.table.isHidden() and "not running" in box.empty.text()


def test_a_wrong_token_shows_as_refused_not_as_a_client(
    qtbot, context: AppContext, hosted: BridgeServer, settled: Callable[[], None]
) -> None:
    box = shown_box(qtbot, context, settled)
    wrong = {"Authorization": "Bearer wrong", "Origin": PAGE}
    assert httpx.get(f"{hosted.url}/v1/chats", headers=wrong).status_code == 401
    box.refresh()
    assert box.table.rowCount() == 0 and not box.empty.isHidden()
    assert not box.refused.isHidden() and PAGE in box.refused.text()


def test_an_open_events_socket_reads_on(
    qtbot, context: AppContext, hosted: BridgeServer, settled: Callable[[], None]
) -> None:
    hosted.context.clients.socket_opened(identify("127.0.0.1", PAGE, "SillyTavern/1.12"))
    box = shown_box(qtbot, context, settled)
    assert row_texts(box, 0)[0] == "SillyTavern extension" and row_texts(box, 0)[4] == "on"


def test_the_timer_runs_only_while_the_box_is_shown(
    qtbot, context: AppContext, settled: Callable[[], None]
) -> None:
    box = shown_box(qtbot, context, settled)
    assert box.timer.isActive()
    box.hide()
    assert not box.timer.isActive()


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(0, "0 s ago"), (59.9, "59 s ago"), (60, "1 min ago"), (3599, "59 min ago"), (7200, "2 h ago")],
)
def test_last_seen_reads_as_a_short_age(qapp: object, seconds: float, text: str) -> None:
    assert ago(seconds) == text


def test_the_sillytavern_extension_is_named_in_the_interface_language(qapp: object) -> None:
    from PySide6.QtCore import QCoreApplication

    from bme_desktop.bridge.clients import ClientInfo
    from bme_desktop.ui.i18n import install_translator
    from bme_desktop.ui.panels.settings_clients import client_label
    from bme_desktop.ui.resources import translations_dir

    info = ClientInfo(identify("127.0.0.1", PAGE, None, "SillyTavern-BME"), 0.0, 0.0, 0.0, 1, "sync", 0)
    other = ClientInfo(identify("127.0.0.1", PAGE, "python-httpx/0.27"), 0.0, 0.0, 0.0, 1, "sync", 0)
    assert client_label(info) == "SillyTavern extension"
    translator = install_translator(QCoreApplication.instance(), "zh", translations_dir())  # type: ignore[arg-type]
    assert translator is not None
    try:
        assert client_label(info) == "酒馆扩展"
        assert client_label(other) == other.label  # an origin and an agent are not words to translate
    finally:
        QCoreApplication.removeTranslator(translator)
