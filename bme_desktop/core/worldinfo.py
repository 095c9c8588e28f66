"""SillyTavern World Info (lorebooks): the file format, read and written (issue 18.3).

A World Info file is ``{"entries": {"<uid>": entry, ...}}``; an entry has ``key`` and
``keysecondary`` (lists of words, or ``/regex/flags``), ``content``, ``comment``, ``constant``,
``order``, ``position``, ``disable`` and a few dozen settings of SillyTavern's own. What we write
carries every field of SillyTavern 1.12's new-entry template (``newWorldInfoEntryTemplate`` in
public/scripts/world-info.js) with its default, so its World Info editor imports it unchanged.
What we read may also be a character card (V2 ``character_book``) or a bare character book.

Bad input is refused whole, naming the entry and the field: an import writes nothing then.
Regex keys are kept verbatim (exported as they came) but never compiled or matched here: they
name nothing a memory could be found by, so the memory's title comes from the comment or the
plain keys.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Any

from .errors import ValidationError

# An entry's text may be this long; SillyTavern has no limit, but a memory of 100 KB is no memory.
MAX_CONTENT = 20_000
MAX_KEY = 256
MAX_KEYS = 100
MAX_COMMENT = 2_000
MAX_ENTRIES = 10_000
MAX_BOOK = 256
# SillyTavern's regex key: /pattern/flags (parseRegexFromString in world-info.js).
_REGEX_KEY = re.compile(r"^/([\s\S]+?)/([gimsuy]*)$")

# SillyTavern 1.12's newWorldInfoEntryDefinition, in its order, with the defaults it writes.
ST_ENTRY_TEMPLATE: dict[str, Any] = {
    "key": [],
    "keysecondary": [],
    "comment": "",
    "content": "",
    "constant": False,
    "vectorized": False,
    "selective": True,
    "selectiveLogic": 0,
    "addMemo": False,
    "order": 100,
    "position": 0,
    "disable": False,
    "excludeRecursion": False,
    "preventRecursion": False,
    "delayUntilRecursion": 0,
    "probability": 100,
    "useProbability": True,
    "depth": 4,
    "group": "",
    "groupOverride": False,
    "groupWeight": 100,
    "scanDepth": None,
    "caseSensitive": None,
    "matchWholeWords": None,
    "useGroupScoring": None,
    "automationId": "",
    "role": 0,
    "sticky": None,
    "cooldown": None,
    "delay": None,
}
# world_info_position: before 0, after 1, ANTop 2, ANBottom 3, atDepth 4, EMTop 5, EMBottom 6
POSITIONS = range(0, 7)


def is_regex_key(key: str) -> bool:
    return _REGEX_KEY.match(key) is not None


@dataclass(frozen=True)
class LoreEntry:
    """One lorebook entry as we keep it (``book`` and ``uid`` name it; the rest is SillyTavern's)."""

    book: str
    uid: str
    keys: tuple[str, ...]
    secondary: tuple[str, ...] = ()
    content: str = ""
    comment: str = ""
    constant: bool = False
    order: int = 100
    position: int = 0
    # SillyTavern's other settings of the entry, kept to be written back as they came.
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def plain_keys(self) -> list[str]:
        return [k for k in (*self.keys, *self.secondary) if k.strip() and not is_regex_key(k)]

    @property
    def regex_keys(self) -> list[str]:
        return [k for k in (*self.keys, *self.secondary) if is_regex_key(k)]

    @property
    def title(self) -> str:
        """What the memory is called: the entry's comment, else its plain keys, else its text."""
        if self.comment.strip():
            return self.comment.strip()[:200]
        plain = [k.strip() for k in self.keys if k.strip() and not is_regex_key(k)]
        if plain:
            return ", ".join(plain)[:200]
        return " ".join(self.content.split())[:60]

    def digest(self) -> str:
        """Changes whenever anything the entry says changes (an update is due)."""
        data = json.dumps(
            [self.keys, self.secondary, self.content, self.comment, self.constant, self.order, self.position],
            ensure_ascii=False,
        )
        return hashlib.sha256(data.encode("utf-8")).hexdigest()[:32]

    def to_json(self) -> dict[str, Any]:
        return {
            "book": self.book,
            "uid": self.uid,
            "key": list(self.keys),
            "keysecondary": list(self.secondary),
            "content": self.content,
            "comment": self.comment,
            "constant": self.constant,
            "order": self.order,
            "position": self.position,
            "extra": self.extra,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LoreEntry:
        return cls(
            book=str(data["book"]),
            uid=str(data["uid"]),
            keys=tuple(data.get("key", ())),
            secondary=tuple(data.get("keysecondary", ())),
            content=str(data.get("content", "")),
            comment=str(data.get("comment", "")),
            constant=bool(data.get("constant", False)),
            order=int(data.get("order", 100)),
            position=int(data.get("position", 0)),
            extra=dict(data.get("extra") or {}),
        )


def _keys(value: object, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):  # a few old books keep keys as one comma-separated string
        value = [k for k in value.split(",")]
    if not isinstance(value, list):
        raise ValidationError(where, "must be a list of keys")
    if len(value) > MAX_KEYS:
        raise ValidationError(where, f"has {len(value)} keys; at most {MAX_KEYS}")
    keys = []
    for i, key in enumerate(value):
        if not isinstance(key, str):
            raise ValidationError(f"{where}[{i}]", "must be text")
        if len(key) > MAX_KEY:
            raise ValidationError(f"{where}[{i}]", f"is {len(key)} characters long; a key may have {MAX_KEY}")
        if key.strip():
            keys.append(key.strip())
    return tuple(keys)


def _whole(value: object, where: str, default: int) -> int:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
        raise ValidationError(where, "must be a whole number")
    if not -1_000_000_000 <= value <= 1_000_000_000:
        raise ValidationError(where, "is out of range")
    return int(value)


def _text(value: object, where: str, limit: int) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ValidationError(where, "must be text")
    if len(value) > limit:
        raise ValidationError(where, f"is {len(value):,} characters long; an entry may have {limit:,}")
    return value


def parse_entry(raw: object, book: str, uid: object, where: str) -> LoreEntry:
    """One entry in SillyTavern's World Info shape (``key``, ``keysecondary``, ``content``, …)."""
    if not isinstance(raw, dict):
        raise ValidationError(where, "must be an object")
    if isinstance(uid, bool) or not isinstance(uid, int | str) or not str(uid).strip() or len(str(uid)) > 64:
        raise ValidationError(f"{where}.uid", "must be a number or a short text")
    content = _text(raw.get("content"), f"{where}.content", MAX_CONTENT)
    position = _whole(raw.get("position"), f"{where}.position", 0)
    if position not in POSITIONS:
        raise ValidationError(f"{where}.position", "must be 0–6 (SillyTavern's World Info positions)")
    constant = raw.get("constant", False)
    if constant is not None and not isinstance(constant, bool):
        raise ValidationError(f"{where}.constant", "must be true or false")
    extra = {k: v for k, v in raw.items() if k in ST_ENTRY_TEMPLATE and k not in _OWN_FIELDS}
    return LoreEntry(
        book=book,
        uid=str(uid).strip(),
        keys=_keys(raw.get("key"), f"{where}.key"),
        secondary=_keys(raw.get("keysecondary"), f"{where}.keysecondary"),
        content=content,
        comment=_text(raw.get("comment"), f"{where}.comment", MAX_COMMENT),
        constant=bool(constant),
        order=_whole(raw.get("order"), f"{where}.order", 100),
        position=position,
        extra=extra,
    )


_OWN_FIELDS = frozenset({"key", "keysecondary", "content", "comment", "constant", "order", "position"})


def _card_entry(raw: object, index: int, book: str, where: str) -> LoreEntry:
    """A character book entry (Character Card V2: ``keys``, ``secondary_keys``, ``insertion_order``,
    ``enabled``, ``position`` before_char/after_char), as SillyTavern's convertCharacterBook reads it."""
    if not isinstance(raw, dict):
        raise ValidationError(where, "must be an object")
    extensions = raw.get("extensions")
    position = extensions.get("position") if isinstance(extensions, dict) else None
    if position is None:
        position = 0 if raw.get("position") == "before_char" else 1
    uid = raw.get("id", index)
    return parse_entry(
        {
            "key": raw.get("keys"),
            "keysecondary": raw.get("secondary_keys"),
            "content": raw.get("content"),
            "comment": raw.get("comment") or raw.get("name"),
            "constant": raw.get("constant") or False,
            "order": raw.get("insertion_order"),
            "position": position,
            "disable": raw.get("enabled") is False,
        },
        book,
        uid,
        where,
    )


@dataclass(frozen=True)
class WorldInfoFile:
    book: str
    entries: list[LoreEntry]
    disabled: int = 0  # entries switched off in the file (not imported)


def looks_like_worldinfo(doc: object) -> bool:
    """A World Info file, a character card with a book, or a bare character book."""
    if not isinstance(doc, dict):
        return False
    if "entries" in doc and doc.get("format") != "bme-desktop-export":
        return True
    data = doc.get("data")
    return isinstance(data, dict) and isinstance(data.get("character_book"), dict)


def read_worldinfo(doc: object, book: str) -> WorldInfoFile:
    """Entries of a World Info file (``entries`` an object by uid, or a list), of a character
    card's ``data.character_book``, or of a bare character book; refused whole, naming the
    first bad entry and field. Entries switched off (``disable``/``enabled: false``) are left out."""
    if not isinstance(doc, dict):
        raise ValidationError(
            "file", "is not a SillyTavern World Info file: a JSON object with 'entries' expected"
        )
    if not book.strip() or len(book) > MAX_BOOK:
        raise ValidationError("book", f"must be a name of 1–{MAX_BOOK} characters")
    card_book = doc.get("data", {}).get("character_book") if isinstance(doc.get("data"), dict) else None
    source: Any = card_book if isinstance(card_book, dict) else doc
    if "entries" not in source:
        raise ValidationError("entries", "missing: a World Info file holds an 'entries' list or object")
    raw = source["entries"]
    if isinstance(raw, dict):
        items = list(raw.items())
    elif isinstance(raw, list):
        items = [(i, e) for i, e in enumerate(raw)]
    else:
        raise ValidationError("entries", "must be an object of entries by uid, or a list")
    if len(items) > MAX_ENTRIES:
        raise ValidationError("entries", f"holds {len(items):,} entries; at most {MAX_ENTRIES:,}")
    entries: list[LoreEntry] = []
    disabled = 0
    seen: set[str] = set()
    for pos, (name, item) in enumerate(items):
        where = f"entries[{name!r}]" if isinstance(raw, dict) else f"entries[{pos}]"
        card = isinstance(item, dict) and ("keys" in item or "insertion_order" in item) and "key" not in item
        if card:
            entry = _card_entry(item, pos, book, where)
            off = item.get("enabled") is False
        else:
            uid = item.get("uid", name) if isinstance(item, dict) else name
            entry = parse_entry(item, book, uid, where)
            off = isinstance(item, dict) and item.get("disable") is True
        if entry.uid in seen:
            raise ValidationError(f"{where}.uid", f"uid {entry.uid} appears twice")
        seen.add(entry.uid)
        if off:
            disabled += 1
            continue
        if not entry.content.strip():
            continue  # an entry with nothing to say is no memory
        entries.append(entry)
    return WorldInfoFile(book=book, entries=entries, disabled=disabled)


def write_worldinfo(entries: list[LoreEntry]) -> dict[str, Any]:
    """A World Info file SillyTavern's editor imports unchanged: every entry carries the whole
    new-entry template (defaults where we know nothing), ``uid`` and ``displayIndex``."""
    out: dict[str, Any] = {}
    for uid, entry in enumerate(entries):
        data = {**ST_ENTRY_TEMPLATE, **{k: v for k, v in entry.extra.items() if k in ST_ENTRY_TEMPLATE}}
        data.update(
            key=list(entry.keys),
            keysecondary=list(entry.secondary),
            comment=entry.comment,
            content=entry.content,
            constant=entry.constant,
            order=entry.order,
            position=entry.position,
            disable=False,
            addMemo=bool(entry.comment),
        )
        out[str(uid)] = {"uid": uid, **data, "displayIndex": uid}
    return {"entries": out}


_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _png_card(data: bytes) -> object:
    """The JSON a character card PNG carries in its ``chara`` (V2) or ``ccv3`` text chunk."""
    import base64
    import struct

    pos, found = len(_PNG_MAGIC), dict[str, bytes]()
    while pos + 8 <= len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"tEXt" and b"\x00" in body:
            name, _, text = body.partition(b"\x00")
            found[name.decode("latin-1").lower()] = text
        pos += 12 + length
    card = found.get("ccv3") or found.get("chara")
    if card is None:
        raise ValidationError("file", "is a PNG without a character card in it")
    try:
        return json.loads(base64.b64decode(card, validate=False).decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise ValidationError("file", "holds a character card that is not readable JSON") from exc


def load_document(data: bytes) -> object | None:
    """A World Info file, a character card (JSON or PNG) or a character book in ``data``; None
    when it is something else (a BME Desktop export). Unreadable JSON is a ValidationError."""
    if data.startswith(_PNG_MAGIC):
        return _png_card(data)
    if not data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{"):
        return None  # an encrypted or compressed backup
    try:
        doc = json.loads(data.decode("utf-8-sig"))
    except ValueError as exc:
        raise ValidationError("file", f"is not valid JSON ({exc})") from exc
    return doc if looks_like_worldinfo(doc) else None
