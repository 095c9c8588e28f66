"""SillyTavern lorebooks as memories (issue 18.3).

- **From SillyTavern, live.** The extension sends the entries SillyTavern resolves for a chat
  (its character's book, the chat's book, the global books: ``getSortedEntries``). Each becomes
  a ``world``-scope memory of that chat (a ``fact`` of category ``lore``: subject the entry's
  comment or keys, statement its text), marked ``flags.lorebook`` with the entry as it came.
  Sending again changes only what changed: an edited entry updates its memory, an entry that
  is gone (or switched off) goes to the recycle bin, the same entry is never a second memory.
  These memories are read-only in the app (SillyTavern owns them) and never rolled back or
  extracted: they come from no message. Extraction that meets the same thing in the chat joins
  the lore memory instead of writing its own, and leaves it as it is. Each chat keeps the
  entries SillyTavern gives it, so they are not drawn into other chats (that would inject a
  book twice where SillyTavern gives both chats the same book, and where it does not, it did not).
- **From a file.** A World Info file (or a character card's book) is imported into a chat in a
  scope of the user's choice, as ordinary memories (editable, one undo step) that remember the
  entry they came from; importing the same file again adds nothing.
- **To a file.** Chosen memories are written as a World Info file: lore memories as the entry
  they came from, others with their title (and aliases) as keys and their text as content.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from .editing import NodeDraft, check_move, create_node, delete_node
from .errors import Conflict, ValidationError
from .model import Node, Scope
from .schema import NODE_TYPES, node_text, node_title
from .store.reader import Reader
from .store.unit_of_work import UnitOfWork
from .worldinfo import LoreEntry

LORE_FLAG = "lorebook"
LORE_CATEGORY = "lore"
FROM_SILLYTAVERN = "sillytavern"
FROM_FILE = "file"
_STATEMENT_MAX = NODE_TYPES["fact"].fields[0].max_length


def lore_of(node: Node) -> dict[str, Any] | None:
    lore = node.flags.get(LORE_FLAG)
    return lore if isinstance(lore, dict) else None


def is_read_only(node: Node) -> bool:
    """A memory SillyTavern's lorebook owns: edited there, not here."""
    lore = lore_of(node)
    return lore is not None and lore.get("source") == FROM_SILLYTAVERN


def check_writable(node: Node) -> None:
    lore = lore_of(node)
    if lore is not None and lore.get("source") == FROM_SILLYTAVERN:
        raise Conflict(
            f"this memory comes from the SillyTavern lorebook {lore.get('book')!r}: "
            "change it in SillyTavern's World Info editor"
        )


def _clip(text: str, limit: int) -> str:
    text = text.strip()
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit * 0.8 else cut).rstrip() + "…"


def entry_fields(entry: LoreEntry) -> dict[str, str]:
    """The memory's fields: a fact about the entry's subject (the whole text stays in the flag)."""
    return {
        "statement": _clip(entry.content, _STATEMENT_MAX),
        "subject": _clip(entry.title, 200),
        "category": LORE_CATEGORY,
    }


def _flag(entry: LoreEntry, source: str) -> dict[str, Any]:
    return {**entry.to_json(), "source": source, "digest": entry.digest()}


def _key(lore: dict[str, Any]) -> tuple[str, str]:
    return str(lore.get("book")), str(lore.get("uid"))


def _lore_nodes(read: Reader, chat_id: str, source: str) -> dict[tuple[str, str], Node]:
    found: dict[tuple[str, str], Node] = {}
    for node in read.all_nodes(chat_id):
        lore = lore_of(node)
        if lore is not None and lore.get("source") == source:
            found.setdefault(_key(lore), node)
    return found


@dataclass
class LoreReport:
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    unchanged: int = 0
    skipped: int = 0  # a file's entries already here

    def to_json(self) -> dict[str, Any]:
        return {
            "added": len(self.added),
            "updated": len(self.updated),
            "removed": len(self.removed),
            "unchanged": self.unchanged,
            "skipped": self.skipped,
        }


def check_unique(entries: list[LoreEntry], where: str = "entries") -> None:
    seen: dict[tuple[str, str], int] = {}
    for pos, entry in enumerate(entries):
        key = (entry.book, entry.uid)
        if key in seen:
            raise ValidationError(
                f"{where}[{pos}]",
                f"book {entry.book!r} entry {entry.uid} appears twice (also at {where}[{seen[key]}])",
            )
        seen[key] = pos


def sync_lorebook(uow: UnitOfWork, chat_id: str, entries: list[LoreEntry]) -> LoreReport:
    """Make the chat's lore memories what SillyTavern resolves for it now (see the module)."""
    check_unique(entries)
    uow.read.require_chat_pk(chat_id)
    report = LoreReport()
    existing = _lore_nodes(uow.read, chat_id, FROM_SILLYTAVERN)
    for entry in entries:
        node = existing.pop((entry.book, entry.uid), None)
        if node is None:
            made = create_node(
                uow,
                chat_id,
                NodeDraft(type="fact", fields=entry_fields(entry), scope=Scope(kind="world")),
                manual=False,
            )
            uow.put_node(replace(made, flags={LORE_FLAG: _flag(entry, FROM_SILLYTAVERN)}))
            report.added.append(made.id)
            continue
        lore = lore_of(node) or {}
        if lore.get("digest") == entry.digest():
            report.unchanged += 1
            continue
        fields = entry_fields(entry)
        uow.put_node(
            replace(
                node,
                fields=fields,
                title=node_title("fact", fields),
                updated_at=uow.now,
                flags={**node.flags, LORE_FLAG: _flag(entry, FROM_SILLYTAVERN)},
            )
        )
        report.updated.append(node.id)
    for node in existing.values():  # gone from SillyTavern, or switched off there
        delete_node(uow, chat_id, node.id)
        report.removed.append(node.id)
    if report.added or report.updated or report.removed:
        uow.audit(chat_id, "sillytavern", "lorebook", None, **report.to_json())
    return report


def imported_here(read: Reader, chat_id: str, entries: list[LoreEntry]) -> set[tuple[str, str]]:
    """(book, uid) of the entries a file import already made memories of in this chat, unchanged."""
    existing = _lore_nodes(read, chat_id, FROM_FILE)
    return {
        (e.book, e.uid)
        for e in entries
        if (node := existing.get((e.book, e.uid))) is not None
        and (lore_of(node) or {}).get("digest") == e.digest()
    }


def import_entries(uow: UnitOfWork, chat_id: str, entries: list[LoreEntry], kind: str) -> LoreReport:
    """A World Info file's entries as memories of ``kind`` (editable; the caller makes it one
    undo step). An entry already imported here unchanged is skipped, so importing twice adds nothing."""
    check_unique(entries)
    check_move(uow, chat_id, kind)
    report = LoreReport()
    here = imported_here(uow.read, chat_id, entries)
    for entry in entries:
        if (entry.book, entry.uid) in here:
            report.skipped += 1
            continue
        made = create_node(
            uow, chat_id, NodeDraft(type="fact", fields=entry_fields(entry), scope=Scope(kind=kind))
        )
        uow.put_node(replace(made, flags={LORE_FLAG: _flag(entry, FROM_FILE)}))
        report.added.append(made.id)
    return report


def node_entry(node: Node, book: str = "") -> LoreEntry:
    """A memory as a World Info entry: a lore memory as the entry it came from; any other with
    its title and aliases as keys, its text as content, its title as comment; pinned → constant."""
    lore = lore_of(node)
    if lore is not None:
        try:
            return LoreEntry.from_json(lore)
        except (KeyError, TypeError, ValueError):
            pass  # a damaged flag: write the memory as it reads
    keys = [node.title] if node.title else []
    for alias in node.fields.get("aliases", "").split(","):
        if alias.strip() and alias.strip() not in keys:
            keys.append(alias.strip())
    spec = NODE_TYPES[node.type]
    content = node.fields.get(spec.summary_field, "").strip() or node_text(node.type, node.fields)
    return LoreEntry(
        book=book,
        uid=node.id,
        keys=tuple(k[:256] for k in keys),
        content=content,
        comment=node.title,
        constant=node.pinned,
    )
