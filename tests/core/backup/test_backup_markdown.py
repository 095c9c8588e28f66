"""The Markdown export: a vault of notes with front matter and path-qualified wikilinks, written
whole or not at all."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from backup_sample import CHAT

from bme_desktop.core import editing
from bme_desktop.core.backup.markdown import MARKER, VaultError, safe_name, vault_notes, write_vault
from bme_desktop.core.service import MemoryService


def notes_of(service: MemoryService) -> dict[str, str]:
    return service.read(lambda r: vault_notes(r))


def test_one_note_per_live_memory_under_its_type_with_front_matter(filled: MemoryService) -> None:
    notes = notes_of(filled)
    ann = next(n for n in filled.all_nodes(CHAT) if n.title == "Ann")
    text = notes[f"{CHAT}/Character/Ann.md"]
    assert text.startswith("---\n") and f'id: "{ann.id}"' in text and 'type: "character"' in text
    assert "sources: [0, 2]" in text and 'tags: ["bme/character"]' in text
    assert "**Traits**: brave, 勇敢" in text
    assert "> **#0 Ann**: 我们去北方的城堡。" in text  # the source message, quoted
    assert not [p for p in notes if "Ann fears bats" in notes[p]]  # the deleted fact stays out


def test_edges_are_wikilinks_with_the_notes_path(filled: MemoryService) -> None:
    notes = notes_of(filled)
    event = notes[f"{CHAT}/Event/Ann knocks at the gate.md"]
    assert f"- involved in ← [[{CHAT}/Character/Ann|Ann]]" in event
    assert f"- occurred at → [[{CHAT}/Location/North castle|North castle]]" in event
    assert 'scope: "pov"' in event and 'owner: "Ann"' in event
    rule = notes[f"{CHAT}/Rule/No magic.md"]
    assert "## Links" not in rule  # its only edge went to the deleted fact


def test_type_and_chat_indexes_and_the_injection_history(filled: MemoryService) -> None:
    notes = notes_of(filled)
    assert (
        f"- [[{CHAT}/Location/North castle|North castle]] — short_term, pending"
        in notes[f"{CHAT}/Location.md"]
    )
    index = notes[f"{CHAT}/{CHAT}.md"]
    assert f"- [[{CHAT}/Character|Character]] (1)" in index
    assert f"[[{CHAT}/Injection history|Injection history]] (1)" in index
    history = notes[f"{CHAT}/Injection history.md"]
    assert "## Message 2" in history and "> knock" in history and "[castle]" in history


def test_same_titles_get_their_own_notes(filled: MemoryService) -> None:
    for _ in range(2):
        filled.create_node(CHAT, editing.NodeDraft("fact", {"statement": "x", "subject": "Ann"}))
    paths = sorted(p for p in notes_of(filled) if p.startswith(f"{CHAT}/Fact/"))
    assert paths == [f"{CHAT}/Fact/Ann 2.md", f"{CHAT}/Fact/Ann.md"]


@pytest.mark.parametrize(
    ("raw", "safe"),
    [
        ("a/b\\c", "a b c"),
        ("[[Link]]|#tag^x", "Link tag x"),
        ("..hidden", "hidden"),
        ("CON", "fallback"),
        ("   ", "fallback"),
        ("x" * 200, "x" * 80),
        ("line\nbreak", "line break"),
    ],
)
def test_names_are_safe_for_every_platform_and_for_links(raw: str, safe: str) -> None:
    assert safe_name(raw, "fallback") == safe


def test_a_folder_that_is_not_ours_is_refused_and_left_alone(tmp_path: Path) -> None:
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "mine.md").write_text("my own notes")
    with pytest.raises(VaultError, match="not empty"):
        write_vault({"a/b.md": "x"}, tmp_path / "notes")
    assert sorted(p.name for p in (tmp_path / "notes").iterdir()) == ["mine.md"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes"]


def test_writing_again_replaces_the_previous_vault_whole(tmp_path: Path) -> None:
    write_vault({"chat/old.md": "old"}, tmp_path / "vault")
    write_vault({"chat/new.md": "new"}, tmp_path / "vault")
    assert sorted(
        p.relative_to(tmp_path / "vault").as_posix() for p in (tmp_path / "vault").rglob("*") if p.is_file()
    ) == [MARKER, "chat/new.md"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["vault"]


def test_the_cli_writes_a_vault_and_needs_a_folder(filled: MemoryService, tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    filled.close()
    run = [sys.executable, "-m", "bme_desktop", "export", "--data-dir", str(data_dir), "--format", "markdown"]
    missing = subprocess.run(run, capture_output=True, text=True, timeout=120)
    assert missing.returncode == 2 and "-o DIR" in missing.stderr
    done = subprocess.run([*run, "-o", str(tmp_path / "vault")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "vault" / CHAT / "Character" / "Ann.md").is_file()
    assert done.stdout.strip().endswith("notes")
