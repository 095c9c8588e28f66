"""``bme-desktop export --format st-worldinfo`` and ``bme-desktop import`` of a World Info file or
a character card (JSON or PNG), in process (no bridge running): a malformed file writes nothing."""

from __future__ import annotations

import base64
import json
import struct
import subprocess
import sys
import zlib
from pathlib import Path

from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.model import Scope
from bme_desktop.core.scopes import ChatIdentity
from bme_desktop.core.service import MemoryService


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bme_desktop", *args], capture_output=True, text=True, timeout=300
    )


def chat_with_a_place(data_dir: Path) -> str:
    service = MemoryService.open(data_dir, attach=False)
    try:
        service.sync("a", [], identity=ChatIdentity(character="Mira", user="Alex", world="Eldoria"))
        return service.create_node(
            "a",
            NodeDraft(
                type="location",
                fields={"name": "Sunken Library", "state": "Half under the sea."},
                scope=Scope(kind="world"),
            ),
        ).value.id
    finally:
        service.close()


def memory_count(data_dir: Path) -> int:
    service = MemoryService.open(data_dir, attach=False)
    try:
        return len(service.all_nodes("a"))
    finally:
        service.close()


def png_card(card: dict[str, object]) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    text = b"chara\x00" + base64.b64encode(json.dumps(card).encode())
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0))
        + chunk(b"tEXt", text)
        + chunk(b"IEND", b"")
    )


def test_export_writes_a_world_info_file_of_the_chosen_scope(tmp_path: Path) -> None:
    chat_with_a_place(tmp_path)
    out = run_cli(
        "export", "--format", "st-worldinfo", "--chat", "a", "--scope", "world", "--data-dir", str(tmp_path)
    )
    assert out.returncode == 0, out.stderr
    entry = json.loads(out.stdout)["entries"]["0"]
    assert (entry["key"], entry["content"]) == (["Sunken Library"], "Half under the sea.")


def test_a_character_cards_book_in_a_png_is_imported(tmp_path: Path) -> None:
    chat_with_a_place(tmp_path)
    card = tmp_path / "Mira.png"
    card.write_bytes(
        png_card(
            {
                "spec": "chara_card_v2",
                "data": {
                    "name": "Mira",
                    "character_book": {
                        "entries": [
                            {
                                "keys": ["sea"],
                                "content": "Mira fears the sea.",
                                "enabled": True,
                                "insertion_order": 5,
                            }
                        ]
                    },
                },
            }
        )
    )
    out = run_cli("import", str(card), "--chat", "a", "--scope", "character", "--data-dir", str(tmp_path))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["added"] == 1 and memory_count(tmp_path) == 2


def test_a_malformed_file_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    chat_with_a_place(tmp_path)
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps({"entries": {"0": {"key": ["a"], "content": "ok"}, "1": {"key": "b", "content": 7}}})
    )
    out = run_cli("import", str(bad), "--chat", "a", "--data-dir", str(tmp_path))
    assert out.returncode == 2 and "entries['1'].content: must be text" in out.stderr
    assert "nothing was imported" in out.stderr and memory_count(tmp_path) == 1
