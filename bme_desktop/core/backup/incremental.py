"""Incremental backups: only what changed since the last backup, plus what was deleted.

Every full backup starts a *chain*; the watermark file in the data folder
(``backup-watermark.json``) then holds the chain's id (the SHA-256 of the full backup's
file), the last link's id and number, and a short digest of every record the last backup
saw. An incremental backup exports the store, compares each record's digest with the
watermark and writes only the records that are new or changed, the keys of those that are
gone, and the chats that were deleted. Digests of content (not timestamps) make the chain
exact: a chain restores the source state record for record, deletions included.

Restoring a chain checks every link before anything is written: each increment names the
chain (its full backup) and its parent (the file before it) by SHA-256, so a missing,
repeated or reordered link, or a file of another chain, is refused with the link named.
Increments are read whole (they are small); the full backup is streamed and each of its
chats brought to its final state one at a time (``stream.open_chain``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ... import __version__
from .checks import Obj, parse_json
from .fileio import decode_backup, write_atomically
from .format import MAX_CHATS, MAX_FILE_BYTES, BackupError

INCREMENTAL_FORMAT = "bme-desktop-incremental"
INCREMENTAL_VERSION = 1
WATERMARK_FILE = "backup-watermark.json"
HEADER_KEYS = ("chat_id", "character", "user", "created_at", "last_activity", "revision", "state")
# record lists of a chat in the export document and the key naming one record
SECTIONS: dict[str, str] = {
    "messages": "index",
    "batches": "id",
    "nodes": "id",
    "edges": "id",
    "summaries": "id",
    "recall_records": "index",
}
_HEADER = "chat"  # the digest slot of a chat's own fields


def _digest(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode("utf-8"), digest_size=10).hexdigest()


def _header(chat: dict[str, Any]) -> dict[str, Any]:
    return {k: chat[k] for k in HEADER_KEYS}


Digests = dict[str, dict[str, dict[str, str]]]  # chat id → section → record key → digest


def chat_digests(chat: dict[str, Any]) -> dict[str, dict[str, str]]:
    """The digest of every record of one chat's export document (and of its own fields)."""
    sections = {_HEADER: {"": _digest(_header(chat))}}
    for section, key in SECTIONS.items():
        sections[section] = {str(item[key]): _digest(item) for item in chat[section]}
    return sections


def digests_of(document: dict[str, Any]) -> Digests:
    return {chat["chat_id"]: chat_digests(chat) for chat in document["chats"]}


def file_id(data: bytes) -> str:
    """A backup file's id in a chain: the SHA-256 of its bytes."""
    return hashlib.sha256(data).hexdigest()


@dataclass
class Watermark:
    chain: str  # id of the chain's full backup
    last: str  # id of the last file of the chain
    seq: int  # 0 after the full backup, n after the n-th increment
    at: float  # when the last backup was made
    digests: Digests = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "bme-desktop-watermark",
            "version": 1,
            "app_version": __version__,
            "chain": self.chain,
            "last": self.last,
            "seq": self.seq,
            "at": self.at,
            "digests": self.digests,
        }


def watermark_path(data_dir: Path) -> Path:
    return data_dir / WATERMARK_FILE


def load_watermark(data_dir: Path) -> Watermark | None:
    path = watermark_path(data_dir)
    if not path.exists():
        return None
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        return Watermark(
            chain=str(raw["chain"]),
            last=str(raw["last"]),
            seq=int(raw["seq"]),
            at=float(raw["at"]),
            digests=raw["digests"],
        )
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise BackupError(
            "", f"{path} cannot be read ({exc}); make a full backup to start a new chain"
        ) from None


def save_watermark(data_dir: Path, mark: Watermark) -> None:
    write_atomically(
        watermark_path(data_dir), json.dumps(mark.to_json(), separators=(",", ":")).encode("utf-8")
    )


def diff_chat(chat: dict[str, Any], mark: Watermark) -> dict[str, Any] | None:
    """One chat's entry of the increment from the state ``mark`` saw (None: unchanged)."""
    chat_id = chat["chat_id"]
    before = mark.digests.get(chat_id, {})
    entry: dict[str, Any] = {"chat_id": chat_id, "header": None, "upsert": {}, "delete": {}}
    header = _header(chat)
    if before.get(_HEADER, {}).get("") != _digest(header):
        entry["header"] = header
    for section, key in SECTIONS.items():
        old = before.get(section, {})
        changed = [item for item in chat[section] if old.get(str(item[key])) != _digest(item)]
        keys = {str(item[key]) for item in chat[section]}
        gone = sorted(k for k in old if k not in keys)
        if changed:
            entry["upsert"][section] = changed
        if gone:
            entry["delete"][section] = [int(k) for k in gone] if key == "index" else gone
    return entry if entry["header"] is not None or entry["upsert"] or entry["delete"] else None


def increment_document(
    entries: list[dict[str, Any]], seen: set[str], mark: Watermark, *, parent: str, exported_at: float
) -> dict[str, Any]:
    """The increment of ``entries`` (from :func:`diff_chat`, in chat order); the chats of
    ``mark`` not ``seen`` now were deleted."""
    return {
        "format": INCREMENTAL_FORMAT,
        "format_version": INCREMENTAL_VERSION,
        "app_version": __version__,
        "exported_at": exported_at,
        "chain": mark.chain,
        "parent": parent,
        "seq": mark.seq + 1,
        "chats": entries,
        "deleted_chats": sorted(c for c in mark.digests if c not in seen),
    }


def diff_document(document: dict[str, Any], mark: Watermark, *, parent: str) -> dict[str, Any]:
    """The increment that turns the state ``mark`` saw into ``document``."""
    entries = [e for chat in document["chats"] if (e := diff_chat(chat, mark)) is not None]
    return increment_document(
        entries,
        {c["chat_id"] for c in document["chats"]},
        mark,
        parent=parent,
        exported_at=document["exported_at"],
    )


def is_incremental(doc: object) -> bool:
    return isinstance(doc, dict) and doc.get("format") == INCREMENTAL_FORMAT


def _check_link(doc: object, name: str, *, chain: str, parent: str, seq: int) -> dict[str, Any]:
    if not is_incremental(doc):
        raise BackupError(
            "", f"{name}: not an incremental backup (only the first file of a chain is a full one)"
        )
    top = Obj(
        doc,
        "",
        (
            "format",
            "format_version",
            "app_version",
            "exported_at",
            "chain",
            "parent",
            "seq",
            "chats",
            "deleted_chats",
        ),
    )
    version = top.whole("format_version", 1)
    if version > INCREMENTAL_VERSION:
        raise BackupError(
            "format_version",
            f"{name}: written by a newer BME Desktop (incremental format "
            f"{version}); this one reads up to {INCREMENTAL_VERSION}",
        )
    if top.text("chain", 64) != chain:
        raise BackupError(
            "chain", f"{name}: belongs to another chain (not made after the full backup given first)"
        )
    got = top.whole("seq", 1)
    if top.text("parent", 64) != parent:
        if got > seq:
            raise BackupError(
                "parent", f"{name}: link {got} of the chain, but link {seq} is missing before it"
            )
        raise BackupError(
            "parent",
            f"{name}: link {got} of the chain does not follow the file before it "
            f"(expected link {seq}; links out of order or repeated)",
        )
    for i, entry in enumerate(top.items("chats", MAX_CHATS)):
        e = Obj(entry, f"chats[{i}]", ("chat_id", "header", "upsert", "delete"))
        e.text("chat_id", 256, nonempty=True)
        if e.value.get("header") is not None:
            Obj(e.value["header"], e.at("header"), HEADER_KEYS)
        for part in ("upsert", "delete"):
            sections = Obj(e.value.get(part, {}), e.at(part), tuple(SECTIONS))
            for section in sections.value:
                sections.items(section)
    for i, chat_id in enumerate(top.items("deleted_chats", MAX_CHATS)):
        if not isinstance(chat_id, str):
            raise BackupError(f"deleted_chats[{i}]", "must be text")
    return top.value


def _sort(chat: dict[str, Any]) -> None:
    chat["messages"].sort(key=lambda m: m["index"])
    chat["batches"].sort(key=lambda b: b["id"])
    chat["nodes"].sort(key=lambda n: (n["created_at"], n["id"]))
    chat["edges"].sort(key=lambda e: (e["created_at"], e["id"]))
    chat["summaries"].sort(key=lambda s: (s["level"], s["created_at"], s["id"]))
    chat["recall_records"].sort(key=lambda r: r["index"])


def apply_to_chat(
    chat: dict[str, Any] | None, chat_id: str, increment: dict[str, Any], entries: dict[str, dict[str, Any]]
) -> dict[str, Any] | None:
    """One chat (None: not there) after ``increment``, whose ``chats`` are ``entries`` by id."""
    if chat_id in increment["deleted_chats"]:
        chat = None
    entry = entries.get(chat_id)
    if entry is None:
        return chat
    if chat is None:
        if entry.get("header") is None:
            raise BackupError("chats", f"chat {chat_id!r} changes in the increment but is not in the chain")
        chat = {section: [] for section in SECTIONS}
    if entry.get("header") is not None:
        chat.update(entry["header"])
        chat["chat_id"] = chat_id
    for section, key in SECTIONS.items():
        gone = {str(k) for k in entry.get("delete", {}).get(section, [])}
        upserts = entry.get("upsert", {}).get(section, [])
        try:
            replaced = {str(item[key]) for item in upserts}
        except (TypeError, KeyError):
            raise BackupError(f"chats.{section}", f"records of chat {chat_id!r} lack their {key!r}") from None
        chat[section] = [
            item for item in chat[section] if str(item[key]) not in gone and str(item[key]) not in replaced
        ] + list(upserts)
    _sort(chat)
    return chat


def read_links(
    chain: str, links: Sequence[tuple[str, bytes]], passphrase: str | None
) -> list[dict[str, Any]]:
    """The increments after the full backup whose id is ``chain``, in order, each decrypted
    and checked to name that chain and the file before it (``stream.open_chain`` replays them
    onto the full backup one chat at a time)."""
    out, parent = [], chain
    for seq, (name, data) in enumerate(links, start=1):
        out.append(
            _check_link(
                parse_json(decode_backup(data, passphrase), MAX_FILE_BYTES),
                name,
                chain=chain,
                parent=parent,
                seq=seq,
            )
        )
        parent = file_id(data)
    return out
