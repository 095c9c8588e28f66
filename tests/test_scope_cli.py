"""``bme-desktop scope CHAT MEMORY KIND`` moves a memory between scopes (one undoable edit) and
refuses what the chat has nothing for, changing nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.scopes import ChatIdentity
from bme_desktop.core.service import MemoryService


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bme_desktop", *args], capture_output=True, text=True, timeout=120
    )


def test_scope_moves_a_memory_and_undo_takes_it_back(tmp_path: Path) -> None:
    service = MemoryService.open(tmp_path, attach=False)
    service.sync("a", [], identity=ChatIdentity(character="Mira", user="Alex"))
    node = service.create_node(
        "a", NodeDraft(type="fact", fields={"statement": "Alex's birthday is 9 March"})
    ).value
    service.close()
    out = run_cli("scope", "a", node.id, "persona", "--data-dir", str(tmp_path))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["scope"]["kind"] == "persona"
    bad = run_cli("scope", "a", node.id, "world", "--data-dir", str(tmp_path))
    assert bad.returncode == 2 and "no world" in bad.stderr
    service = MemoryService.open(tmp_path, attach=False)
    try:
        assert service.get_node("a", node.id).scope.kind == "persona"
        assert service.undo("a").value
        assert service.get_node("a", node.id).scope.kind == "chat"
    finally:
        service.close()
