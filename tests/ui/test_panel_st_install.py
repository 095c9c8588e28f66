"""Settings → Bridge → Install into SillyTavern…: installs and pairs on a worker, and says what it did."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from bme_desktop.sillytavern.install import CONNECTION_FILE
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.panels.settings_bridge import BridgeBox


def test_the_panel_installs_and_pairs_the_extension(
    qtbot, context: AppContext, tmp_path: Path, settled: Callable[[], None]
) -> None:
    st = tmp_path / "SillyTavern"
    (st / "data" / "default-user").mkdir(parents=True)
    (st / "package.json").write_text(json.dumps({"name": "sillytavern", "version": "1.12.6"}))
    box = BridgeBox(context)
    qtbot.addWidget(box)
    settled()
    box.install(st)
    settled()
    target = st / "data" / "default-user" / "extensions" / "bme-desktop"
    assert "paired with this bridge" in box.install_note.text() and str(target) in box.install_note.text()
    assert json.loads((target / CONNECTION_FILE).read_text())["url"].startswith("http://127.0.0.1:")


def test_a_folder_that_is_not_sillytavern_is_refused_with_the_reason(
    qtbot, context: AppContext, tmp_path: Path, settled: Callable[[], None]
) -> None:
    folder = tmp_path / "notes"
    (folder / "data" / "default-user").mkdir(parents=True)
    box = BridgeBox(context)
    qtbot.addWidget(box)
    settled()
    box.install(folder)
    settled()
    assert (
        box.install_note.text().startswith("Not installed:")
        and "not a SillyTavern folder" in box.install_note.text()
    )
    assert not (folder / "data" / "default-user" / "extensions").exists()
