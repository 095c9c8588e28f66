"""The blocking file operations behind Actions → Export / Import / Backup / Restore.

No Qt here: each function runs on a worker and only calls ``core/backup`` (the one exporter,
validator and importer). Problems arrive as ``BackupError`` naming the place in the file.
Each checks its ``cancel`` token between reading and writing: a cancelled one raises
``Cancelled`` having written nothing (the write itself is atomic: a rename or one transaction)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from ...core.backup.crypto import MAGIC, is_encrypted
from ...core.backup.export import dumps
from ...core.backup.fileio import read_file, write_atomically
from ...core.backup.files import write_backup_file
from ...core.backup.graph_formats import to_gexf, to_graphml
from ...core.backup.importer import ImportResult
from ...core.backup.stream import open_backup
from ...core.cancel import CancelToken, checkpoint

if TYPE_CHECKING:
    from ...core.service import MemoryService

ExportFormat = Literal["json", "graphml", "gexf"]
EXTENSIONS: dict[ExportFormat, str] = {"json": ".json", "graphml": ".graphml", "gexf": ".gexf"}


@dataclass(frozen=True)
class Written:
    path: Path
    size: int  # bytes


def format_of(path: str, fallback: ExportFormat = "json") -> ExportFormat:
    """The export format a file name asks for (by extension), else ``fallback``."""
    lower = path.lower()
    for fmt, ext in EXTENSIONS.items():
        if lower.endswith(ext):
            return fmt
    return fallback


def export_chat(
    service: MemoryService, chat_id: str, path: Path, fmt: ExportFormat, cancel: CancelToken | None = None
) -> Written:
    if fmt == "json":
        data = dumps(service.export_document([chat_id])).encode("utf-8")
    else:
        nodes, edges = service.graph_of([chat_id])
        data = (to_graphml if fmt == "graphml" else to_gexf)(nodes, edges)
    checkpoint(cancel)
    write_atomically(path, data)
    return Written(path, len(data))


def free_chat_id(taken: set[str], wanted: str) -> str:
    """``wanted``, or ``wanted (2)``, ``wanted (3)``… whichever is not taken."""
    if wanted not in taken:
        return wanted
    n = 2
    while f"{wanted} ({n})" in taken:
        n += 1
    return f"{wanted} ({n})"


def import_as_new(service: MemoryService, path: Path, cancel: CancelToken | None = None) -> ImportResult:
    """Validate the whole file, then add its chats; a single chat whose id is already used
    comes in under a free id (``story (2)``), so an import never overwrites anything."""
    chats = open_backup(path, None)
    as_chat: str | None = None
    if len(chats) == 1:
        taken = set(service.chat_ids())
        target = free_chat_id(taken, chats.chat_ids[0])
        as_chat = target if target != chats.chat_ids[0] else None
    checkpoint(cancel)
    return service.import_chats(chats, mode="new", as_chat=as_chat).value


def backup_all(
    service: MemoryService, path: Path, passphrase: str | None, cancel: CancelToken | None = None
) -> Written:
    checkpoint(cancel)
    return Written(path, write_backup_file(service, path, passphrase, cancel=cancel).size)


def needs_passphrase(path: Path) -> bool:
    """Whether the file is an encrypted backup (reads only its first bytes)."""
    with path.open("rb") as handle:
        return is_encrypted(handle.read(len(MAGIC)))


def restore_from(
    service: MemoryService, path: Path, passphrase: str | None, cancel: CancelToken | None = None
) -> ImportResult:
    """Decrypt and validate everything, then merge in one transaction: chats already in the
    store are kept and reported as skipped."""
    chats = open_backup(path, passphrase)
    checkpoint(cancel)
    return service.import_chats(chats, mode="merge").value


@dataclass(frozen=True)
class WorldInfoImported:
    book: str
    added: int
    skipped: int  # entries imported before, unchanged
    disabled: int  # entries switched off in the file


def import_worldinfo(
    service: MemoryService, chat_id: str, path: Path, kind: str, cancel: CancelToken | None = None
) -> WorldInfoImported:
    """A SillyTavern World Info file (or a character card's book, JSON or PNG) into the chat's
    memories of scope ``kind``: validated whole first, so a malformed file writes nothing."""
    from ...core.errors import ValidationError
    from ...core.worldinfo import load_document, read_worldinfo

    doc = load_document(read_file(path))
    if doc is None:
        raise ValidationError("file", "is not a SillyTavern World Info file or character card")
    parsed = read_worldinfo(doc, path.stem)
    checkpoint(cancel)
    report = service.import_worldinfo(chat_id, parsed.entries, kind).value
    return WorldInfoImported(parsed.book, len(report.added), report.skipped, parsed.disabled)


def export_worldinfo(service: MemoryService, chat_id: str, node_ids: list[str], path: Path) -> Written:
    """The memories as a SillyTavern World Info file (its editor imports it unchanged)."""
    import json

    from ...core.worldinfo import write_worldinfo

    data = (
        json.dumps(
            write_worldinfo(service.worldinfo_entries(chat_id, node_ids)), ensure_ascii=False, indent=4
        )
        + "\n"
    ).encode("utf-8")
    write_atomically(path, data)
    return Written(path, len(data))
