"""Invalid documents are refused with the path named, and the store is left unchanged;
a failure in the middle of an import leaves nothing behind."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from bme_desktop.core.backup import format as fmt
from bme_desktop.core.backup import importer
from bme_desktop.core.backup.export import dumps, export_document
from bme_desktop.core.backup.format import BackupError
from bme_desktop.core.backup.importer import import_chats
from bme_desktop.core.backup.validate import load_document, validate_document
from bme_desktop.core.service import MemoryService

Doc = dict[str, Any]


def snapshot(service: MemoryService) -> str:
    return dumps(service.read(lambda r: export_document(r, now=0.0)))


def set_field(doc: Doc) -> None:
    doc["chats"][0]["nodes"][1]["fields"]["name"] = 42


CASES: list[tuple[str, Callable[[Doc], None], str]] = [
    ("wrong format", lambda d: d.update(format="other"), "format"),
    ("newer version", lambda d: d.update(format_version=99), "format_version"),
    ("field type", set_field, "chats[0].nodes[1].fields.name"),
    (
        "unknown node type",
        lambda d: d["chats"][0]["nodes"][2].update(type="dragon"),
        "chats[0].nodes[2].type",
    ),
    (
        "unknown field",
        lambda d: d["chats"][0]["nodes"][0]["fields"].update(colour="red"),
        "chats[0].nodes[0].fields.colour",
    ),
    (
        "unknown relation",
        lambda d: d["chats"][0]["edges"][0].update(relation="loves"),
        "chats[0].edges[0].relation",
    ),
    ("dangling edge", lambda d: d["chats"][0]["edges"][1].update(to="f" * 32), "chats[0].edges[1].to"),
    (
        "importance out of range",
        lambda d: d["chats"][0]["nodes"][0].update(importance=11),
        "chats[0].nodes[0].importance",
    ),
    (
        "bad source index",
        lambda d: d["chats"][0]["nodes"][0].update(source_indices=[1, -2]),
        "chats[0].nodes[0].source_indices[1]",
    ),
    (
        "duplicate message index",
        lambda d: d["chats"][0]["messages"][1].update(index=0),
        "chats[0].messages[1].index",
    ),
    ("unknown batch", lambda d: d["chats"][0]["nodes"][0].update(batch_id=999), "chats[0].nodes[0].batch_id"),
    (
        "boolean as number",
        lambda d: d["chats"][0]["edges"][0].update(strength=True),
        "chats[0].edges[0].strength",
    ),
    ("missing key", lambda d: d["chats"][0]["nodes"][0].pop("tier"), "chats[0].nodes[0].tier"),
    ("unknown key", lambda d: d["chats"][0].update(extra=1), "chats[0].extra"),
    (
        "pov without owner",
        lambda d: d["chats"][0]["nodes"][0].update(scope={"layer": "pov", "owner": None, "region": None}),
        "chats[0].nodes[0].scope.owner",
    ),
]


@pytest.mark.parametrize(("label", "mutate", "path"), CASES, ids=[c[0] for c in CASES])
def test_invalid_document_is_refused_naming_the_path(
    filled: MemoryService, label: str, mutate: Callable[[Doc], None], path: str
) -> None:
    doc = copy.deepcopy(filled.read(lambda r: export_document(r, now=0.0)))
    mutate(doc)
    with pytest.raises(BackupError) as info:
        validate_document(doc)
    assert info.value.path == path, str(info.value)


def test_not_json_and_oversize_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(BackupError, match="not valid JSON: line 1"):
        load_document(b"{not json")
    with pytest.raises(BackupError, match="not UTF-8"):
        load_document(b"\xff\xfe")
    with pytest.raises(BackupError, match="NaN is not allowed"):
        load_document(b'{"a": NaN}')
    monkeypatch.setattr("bme_desktop.core.backup.validate.MAX_FILE_BYTES", 100)
    with pytest.raises(BackupError, match="larger than"):
        load_document(b" " * 101)
    assert fmt.MAX_FILE_BYTES == 100 * 1024 * 1024


def test_an_existing_chat_is_not_overwritten_without_replace(filled: MemoryService) -> None:
    before = snapshot(filled)
    chats = load_document(before.encode())
    with pytest.raises(BackupError, match="already exists"):
        import_chats(filled, chats)
    assert snapshot(filled) == before
    assert import_chats(filled, chats, mode="merge").skipped == ["story-1"]


def test_a_failure_mid_import_leaves_nothing(filled: MemoryService, monkeypatch: pytest.MonkeyPatch) -> None:
    before = snapshot(filled)
    doc = json.loads(before)
    ids = {
        item["id"]: f"x{pos:031d}"
        for pos, item in enumerate(
            doc["chats"][0]["nodes"] + doc["chats"][0]["edges"] + doc["chats"][0]["summaries"]
        )
    }
    second = importer.remap_json(doc["chats"][0], ids)
    second["chat_id"] = "story-2"
    doc["chats"].append(second)
    chats = load_document(json.dumps(doc).encode())
    calls = []

    def explode(*args: Any) -> None:
        calls.append(args)
        if len(calls) == 2:  # the second chat: the first is fully written by now
            raise RuntimeError("disk full")

    monkeypatch.setattr(importer, "insert_recall_records", explode)
    with pytest.raises(RuntimeError, match="disk full"):
        import_chats(filled, chats, mode="replace")
    assert snapshot(filled) == before
    assert not filled.has_chat("story-2")


def test_replace_failing_midway_keeps_the_old_chat(
    filled: MemoryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = snapshot(filled)
    chats = load_document(before.encode())
    monkeypatch.setattr(importer, "insert_recall_records", lambda *a: (_ for _ in ()).throw(OSError("boom")))
    with pytest.raises(OSError):
        import_chats(filled, chats, mode="replace")
    assert snapshot(filled) == before


def test_import_holds_the_extraction_pause(filled: MemoryService) -> None:
    from collections.abc import Iterator
    from contextlib import contextmanager

    held: list[bool] = []

    class Scheduler:
        paused = False

        @contextmanager
        def pause(self) -> Iterator[None]:
            self.paused = True
            yield
            self.paused = False

        def schedule(self, chat_id: str, *, force: bool = False) -> Any:
            raise AssertionError("not used")

        def shutdown(self, wait: bool = True) -> None:
            return None

    scheduler = Scheduler()
    filled.extraction = scheduler
    chats = load_document(snapshot(filled).encode())
    original = importer._import_all

    def spy(*args: Any) -> Any:
        held.append(scheduler.paused)
        return original(*args)

    importer._import_all = spy  # type: ignore[assignment]
    try:
        import_chats(filled, chats, as_chat="copy")
    finally:
        importer._import_all = original  # type: ignore[assignment]
    assert held == [True] and not scheduler.paused
