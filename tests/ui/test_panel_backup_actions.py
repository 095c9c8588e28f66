"""Actions → Export / Import / Backup / Restore go through core/backup on a worker."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog, QInputDialog

from bme_desktop.core.backup.crypto import is_encrypted
from bme_desktop.core.backup.validate import load_document
from bme_desktop.core.events import Initiator
from bme_desktop.core.model import Node
from bme_desktop.core.operations import OpResult
from bme_desktop.core.service import MemoryService
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.panels.actions import ActionsPanel

CHAT = "chat-1"


@pytest.fixture
def panel(qtbot, context: AppContext, seed: Callable[..., Node]) -> ActionsPanel:
    seed("fact", {"statement": "the lighthouse key is under the stone"})
    widget = ActionsPanel(context)
    qtbot.addWidget(widget)
    context.set_chat(CHAT)
    return widget


def answer_dialogs(monkeypatch: pytest.MonkeyPatch, path: Path, passphrase: str | None = None) -> None:
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_a, **_k: (str(path), ""))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *_a, **_k: (str(path), ""))
    monkeypatch.setattr(QInputDialog, "getText", lambda *_a, **_k: (passphrase or "", passphrase is not None))


def test_export_writes_a_json_file_core_backup_loads(
    panel: ActionsPanel, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, settled: Callable[[], None]
) -> None:
    answer_dialogs(monkeypatch, tmp_path / "story.json")
    panel.files.rows["export"].button.click()
    settled()
    chats = load_document((tmp_path / "story.json").read_bytes())
    assert [c.chat_id for c in chats] == [CHAT]
    assert [n.fields["statement"] for n in chats[0].nodes] == ["the lighthouse key is under the stone"]
    assert "story.json" in panel.files.rows["export"].result.text()


def test_export_by_extension_writes_graphml(
    panel: ActionsPanel, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, settled: Callable[[], None]
) -> None:
    answer_dialogs(monkeypatch, tmp_path / "story.graphml")
    panel.files.rows["export"].button.click()
    settled()
    root = ET.fromstring((tmp_path / "story.graphml").read_bytes())
    assert root.tag.endswith("graphml")


def test_an_invalid_import_shows_its_error_and_changes_nothing(
    panel: ActionsPanel,
    service: MemoryService,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    settled: Callable[[], None],
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps(
            {
                "format": "bme-desktop-export",
                "format_version": 1,
                "app_version": "0",
                "exported_at": 0,
                "chats": [{"chat_id": 5}],
            }
        )
    )
    answer_dialogs(monkeypatch, bad)
    before = [(c.chat_id, c.node_count) for c in service.list_chats()]
    panel.files.rows["import"].button.click()
    settled()
    row = panel.files.rows["import"]
    assert row.result.text().startswith("Failed: chats[0]")
    assert row.result.property("role") == "warning"
    assert [(c.chat_id, c.node_count) for c in service.list_chats()] == before


def test_importing_an_export_adds_a_new_chat_and_opens_it(
    panel: ActionsPanel,
    context: AppContext,
    service: MemoryService,
    tmp_path: Path,
    qtbot,
    monkeypatch: pytest.MonkeyPatch,
    settled: Callable[[], None],
) -> None:
    answer_dialogs(monkeypatch, tmp_path / "story.json")
    done: list[OpResult[object]] = []
    context.sigOperationDone.connect(done.append)
    panel.files.rows["export"].button.click()
    settled()
    assert done == []  # an export writes a file, no memory: no operation
    with qtbot.waitSignal(context.events.sigChatsChanged, check_params_cb=lambda c: c == "chat-1 (2)"):
        panel.files.rows["import"].button.click()
        settled()
    assert sorted(c.chat_id for c in service.list_chats()) == ["chat-1", "chat-1 (2)"]
    assert context.chat_id == "chat-1 (2)"
    # the import ran as an operation of the panel (the app's runner): an import, its chat added
    assert [(r.initiator, r.origin, r.chat_ids) for r in done] == [
        (Initiator.IMPORT, panel.files, ["chat-1 (2)"])
    ]
    assert service.chat_stats("chat-1 (2)").node_count == 1


def test_an_encrypted_backup_restores_a_deleted_chat(
    panel: ActionsPanel,
    service: MemoryService,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    settled: Callable[[], None],
) -> None:
    path = tmp_path / "all.bmebak"
    answer_dialogs(monkeypatch, path, passphrase="correct horse")
    panel.files.rows["backup"].button.click()
    settled()
    assert is_encrypted(path.read_bytes())
    service.delete_chat(CHAT)
    panel.files.rows["restore"].button.click()
    settled()
    assert service.chat_stats(CHAT).node_count == 1
    assert "Imported chat-1" in panel.files.rows["restore"].result.text()


def test_a_wrong_passphrase_restores_nothing(
    panel: ActionsPanel,
    service: MemoryService,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    settled: Callable[[], None],
) -> None:
    path = tmp_path / "all.bmebak"
    answer_dialogs(monkeypatch, path, passphrase="correct horse")
    panel.files.rows["backup"].button.click()
    settled()
    service.delete_chat(CHAT)
    answer_dialogs(monkeypatch, path, passphrase="wrong")
    panel.files.rows["restore"].button.click()
    settled()
    assert not service.has_chat(CHAT)
    assert panel.files.rows["restore"].result.text().startswith("Failed:")


def test_purge_needs_the_typed_word_then_deletes_every_chat(
    panel: ActionsPanel,
    context: AppContext,
    service: MemoryService,
    monkeypatch: pytest.MonkeyPatch,
    settled: Callable[[], None],
) -> None:
    done: list[OpResult[object]] = []
    context.sigOperationDone.connect(done.append)
    monkeypatch.setattr(QInputDialog, "getText", lambda *_a, **_k: ("purge", True))
    panel.files.rows["purge"].button.click()
    settled()
    assert [c.chat_id for c in service.list_chats()] == [CHAT]
    assert "nothing was deleted" in panel.files.rows["purge"].result.text()
    monkeypatch.setattr(QInputDialog, "getText", lambda *_a, **_k: ("PURGE", True))
    panel.files.rows["purge"].button.click()
    settled()
    assert service.list_chats() == []
    assert "Purged 1 chats" in panel.files.rows["purge"].result.text()
    assert [(r.initiator, r.origin) for r in done] == [(Initiator.USER, panel.files)]


def test_the_panel_shows_the_last_backup_and_that_the_schedule_is_off(
    panel: ActionsPanel, settled: Callable[[], None]
) -> None:
    settled()
    text = panel.files.schedule_line.text()
    assert "Last backup: none yet" in text and "scheduled backups are off" in text


def test_import_memories_previews_each_mode_and_replace_needs_the_typed_word(
    panel: ActionsPanel,
    service: MemoryService,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    settled: Callable[[], None],
) -> None:
    answer_dialogs(monkeypatch, tmp_path / "story.json")
    panel.files.rows["export"].button.click()
    settled()
    panel.files.rows["import_memories"].button.click()
    settled()
    dialog = panel.files.import_dialog
    assert dialog is not None
    assert "0 new, 0 updated, 1 skipped" in dialog.preview.text()  # skip: all here already
    dialog.mode.setCurrentIndex(dialog.mode.findData("new"))
    settled()
    assert "1 new, 0 updated, 0 skipped" in dialog.preview.text() and "chat-1:" in dialog.preview.text()
    assert service.chat_stats(CHAT).node_count == 1  # a preview writes nothing
    dialog.mode.setCurrentIndex(dialog.mode.findData("replace"))
    settled()
    assert not dialog.import_button.isEnabled()
    dialog.confirm.setText("REPLACE")
    assert dialog.import_button.isEnabled()
    dialog.mode.setCurrentIndex(dialog.mode.findData("new"))
    settled()
    dialog.import_button.click()
    settled()
    assert service.chat_stats(CHAT).node_count == 2
    assert "Imported: 1 new" in panel.files.rows["import_memories"].result.text()
