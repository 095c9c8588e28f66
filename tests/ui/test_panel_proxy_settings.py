"""Settings → Proxy: the section round-trips settings.json, its upstream key goes to the
secret store under "proxy-upstream-key", and Test connection asks the upstream's /models."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest

from bme_desktop.core import secrets
from bme_desktop.core.secrets import ApiKeyStore
from bme_desktop.core.settings import SETTINGS_FILENAME, load_settings
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.panels.settings import SettingsPanel


@pytest.fixture
def no_keyring(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(secrets, "usable_keyring", lambda _backend=None: None)  # never the user's keyring


@pytest.fixture
def upstream() -> Iterator[str]:
    class Models(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = json.dumps({"data": [{"id": "gpt-real"}]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_args: object) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Models)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def make_panel(qtbot, context: AppContext, settled: Callable[[], None]) -> SettingsPanel:
    panel = SettingsPanel(context)
    qtbot.addWidget(panel)
    settled()
    return panel


def test_the_proxy_section_and_its_upstream_key_round_trip(
    qtbot, context: AppContext, data_dir: Path, settled: Callable[[], None], no_keyring: None
) -> None:
    panel = make_panel(qtbot, context, settled)
    panel.editors["proxy.upstream_base_url"].set_value("https://api.example.com/v1")
    panel.editors["proxy.model_map"].set_value(["gpt=gpt-real"])
    panel.editors["proxy.injection_mode"].set_value("user")
    panel.editors["proxy.injection_depth"].set_value(2)
    panel.proxy_endpoint.file_ok.setChecked(True)
    panel.proxy_endpoint.key_edit.setText("sk-upstream")
    assert panel.save()
    settled()
    saved = load_settings(data_dir)
    assert saved.proxy.upstream_base_url == "https://api.example.com/v1"
    assert saved.proxy.models() == {"gpt": "gpt-real"}
    assert (saved.proxy.injection_mode, saved.proxy.injection_depth) == ("user", 2)
    assert context.settings.proxy.injection_mode == "user"
    assert ApiKeyStore(data_dir).load("proxy-upstream-key").value == "sk-upstream"
    assert "sk-upstream" not in (data_dir / SETTINGS_FILENAME).read_text()
    again = make_panel(qtbot, context, settled)
    assert again.editors["proxy.upstream_base_url"].value() == "https://api.example.com/v1"
    assert "stored" in again.proxy_endpoint.key_note.text()


def test_a_bad_upstream_url_is_refused_and_nothing_is_written(
    qtbot, context: AppContext, data_dir: Path, settled: Callable[[], None]
) -> None:
    panel = make_panel(qtbot, context, settled)
    panel.editors["proxy.upstream_base_url"].set_value("api.example.com")
    assert not panel.save()
    assert not (data_dir / SETTINGS_FILENAME).exists()
    assert "Upstream URL" in panel.status.text()
    assert "http://" in panel.editors["proxy.upstream_base_url"].error.text()


def test_test_connection_reaches_the_upstream_in_the_form(
    qtbot, context: AppContext, upstream: str, settled: Callable[[], None], no_keyring: None
) -> None:
    panel = make_panel(qtbot, context, settled)
    panel.editors["proxy.upstream_base_url"].set_value(upstream)
    panel.editors["proxy.model_map"].set_value(["gpt=gpt-real"])
    panel.proxy_endpoint.test_button.click()
    settled()
    assert panel.proxy_endpoint.result.text().startswith("Connected in")
    assert "not in the endpoint" not in panel.proxy_endpoint.result.text()
